/**
 * `svc-conformance rejudge DIR` (docs/rejudge.md): the verdicts of a saved run judged again with the
 * current model, from the run's record alone. Each check's judge calls are evaluated again with the
 * registry (reference/judges.ts) where the record names a judge, and taken as recorded where it holds
 * verdicts; the tally's records are rebuilt from them, a reported failure stands or falls with its
 * own call, and a clause the model now fails where no call failed it before gets a failure (found
 * when judging again: not shrunk, no reproducer). The result goes through the run's own aggregation.
 */
import { Tally } from '../harness/case/index.ts';
import { recordedVerdicts, rejudgeEntry } from '../harness/case/index.ts';
import type { Judgement } from '../reference/judgement.ts';
import type { JudgeRegistry } from '../reference/judges.ts';
import type { CheckRecord } from '../runner/results.ts';
import { recordsFromTally } from '../runner/run-check.ts';
import type { RecordedCheck, RecordedRun, RunRecord } from './run-record.ts';

/** How much of the verdicts the record let rejudge derive again. */
export interface RejudgeCounts {
  /** Judge calls of the record, and those every verdict of which was derived again. */
  readonly calls: number;
  readonly derivedCalls: number;
  /** Calls whose verdicts now differ from those the record holds (0 with the model the run used). */
  readonly changedCalls: number;
  /** Clauses some call judged: all their calls' verdicts derived again, or some carried over as recorded. */
  readonly derivedClauses: number;
  readonly carriedClauses: number;
  /** Checks whose records could not be matched with their journal (kept as they were). */
  readonly keptChecks: readonly string[];
}

export interface Rejudged {
  readonly run: RecordedRun;
  readonly counts: RejudgeCounts;
}

export const FOUND_ON_REJUDGE = '(found when the record was judged again: not shrunk, no reproducer; run the check again to get one)';

export function rejudgeRun(rec: RunRecord, registry: JudgeRegistry): Rejudged {
  const byCheck = new Map<string, CheckRecord[]>();
  for (const r of rec.run.records) byCheck.set(r.check, [...(byCheck.get(r.check) ?? []), r]);
  const journals = new Map(rec.checks.map((c) => [c.check, c]));
  const derived = new Set<string>();
  const carried = new Set<string>();
  const keptChecks: string[] = [];
  let calls = 0;
  let derivedCalls = 0;
  let changedCalls = 0;
  const records: CheckRecord[] = [];
  // Records keep the run's order: by check, as the executor sorted them.
  for (const [check, old] of byCheck) {
    const j = journals.get(check);
    if (j === undefined || !j.complete || j.tallyRecords > old.length) {
      if (j !== undefined) keptChecks.push(check);
      records.push(...old);
      continue;
    }
    const out = rejudgeCheck(j, old, registry, rec.run.seed);
    records.push(...out.records);
    calls += j.entries.length;
    derivedCalls += out.derivedCalls;
    changedCalls += out.changedCalls;
    for (const c of out.derived) derived.add(c);
    for (const c of out.carried) carried.add(c);
  }
  for (const c of carried) derived.delete(c);
  return {
    run: { ...rec.run, records },
    counts: { calls, derivedCalls, changedCalls, derivedClauses: derived.size, carriedClauses: carried.size, keptChecks },
  };
}

interface CheckRejudged {
  readonly records: CheckRecord[];
  readonly derivedCalls: number;
  readonly changedCalls: number;
  readonly derived: Set<string>;
  readonly carried: Set<string>;
}

function rejudgeCheck(j: RecordedCheck, old: readonly CheckRecord[], registry: JudgeRegistry, seed: number): CheckRejudged {
  const tally = new Tally();
  const derived = new Set<string>();
  const carried = new Set<string>();
  const oldFailed = new Set<string>();
  const newFailures = new Map<string, Judgement>();
  const again: Judgement[][] = [];
  let derivedCalls = 0;
  let changedCalls = 0;
  for (const e of j.entries) {
    for (const v of recordedVerdicts(e)) {
      (v.carried ? carried : derived).add(v.clause);
      if (v.verdict === 'f') oldFailed.add(v.clause);
    }
    const r = rejudgeEntry(e, registry, j.blobs);
    if (!r.carried) derivedCalls++;
    if (r.differs) changedCalls++;
    again.push(r.judgements);
    for (const x of r.judgements) {
      if (x.verdict !== 'fail') tally.add(x);
      else if (!newFailures.has(x.clause)) newFailures.set(x.clause, x);
    }
  }
  // What the model does not cover stays as the run found it (no judge call says it).
  for (const r of old.slice(0, j.tallyRecords))
    if (r.verdict === 'notChecked' && r.note !== undefined) tally.notCheckedBecause(r.clause, r.note);
  const records = recordsFromTally(j.check, tally);
  for (const r of old.slice(j.tallyRecords)) {
    const link =
      r.verdict === 'fail'
        ? j.links.find(
            (l) => l.clause === r.clause && l.expected === r.counterexample?.expected && l.observed === r.counterexample?.observed,
          )
        : undefined;
    if (link === undefined) {
      records.push(r);
      continue;
    }
    // One call may fail a clause several times (an ownership table row per manager): the failure that
    // says the same, else the one at the same place among the call's failures of the clause.
    const fails = (again[link.entry] ?? []).filter((x) => x.verdict === 'fail' && x.clause === r.clause);
    const nth = j.links.filter((l) => l.entry === link.entry && l.clause === link.clause).indexOf(link);
    const now = fails.find((x) => x.expected === link.expected && x.observed === link.observed) ?? fails[nth];
    // The call that failed no longer fails the clause: the failure is gone with it.
    if (now === undefined) continue;
    records.push({ ...r, counterexample: { ...r.counterexample!, ...failureText(now) } });
  }
  for (const [clause, f] of newFailures) {
    if (oldFailed.has(clause)) continue;
    records.push({ clause: f.clause, check: j.check, verdict: 'fail', count: 1, counterexample: foundOnRejudge(j.check, f, seed) });
  }
  return { records, derivedCalls, changedCalls, derived, carried };
}

/** What a failure says, from its judgement now. */
function failureText(f: Judgement) {
  return {
    expected: f.expected,
    observed: f.observed,
    ...(f.class !== undefined ? { class: f.class } : {}),
    ...(f.input !== undefined ? { input: f.input } : {}),
  };
}

function foundOnRejudge(check: string, f: Judgement, seed: number): NonNullable<CheckRecord['counterexample']> {
  return {
    check,
    clause: f.clause,
    ...failureText(f),
    observedStatus: f.observedStatus,
    observedReason: f.observedReason,
    steps: [FOUND_ON_REJUDGE],
    curl: '',
    requestCount: 0,
    seed,
    replay: `npx svc-conformance run --check ${check} --seed ${seed}`,
  };
}
