/**
 * Runs one check as a fast-check async property against the target and turns the outcome into
 * CheckRecords: passes and unspecified observations from the tally, and for a failure the shrunk
 * counterexample with its readable steps, curl script, seed and path. Infrastructure trouble and our
 * own bugs become `error`, never a nonconformance (STYLE.md practice 5).
 *
 * A failure ends its case (fast-check needs it to shrink), not the check: once it is shrunk, the check
 * runs the cases that came after it, in which a failure of a clause already reported ends the case
 * quietly; a failure of another clause is found and shrunk in turn (docs/verdict-rules.md). Clauses no
 * case reached then say which failure stopped the cases, not "no check reached it".
 */
import fc from 'fast-check';
import type { CheckRecord, Counterexample, NeedShown } from './results.ts';
import { evaluateNeeds, mapAt, type AnswerAt, type AnswerNeed } from '../reference/answer-checks.ts';
import { answerData, observedAnswers } from '../harness/reproducers/index.ts';
import { casesOf, type AnyCheck, type CheckEnv } from '../harness/case/index.ts';
import { CaseContext, releaseCaseNamespaces } from '../harness/case/index.ts';
import { Tally } from '../harness/case/index.ts';
import { CheckNotApplicable, ClauseViolation } from '../harness/case/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { toCurlScript } from '../harness/reproducers/index.ts';
import { toNodeTest } from '../harness/reproducers/index.ts';
import { createHash } from 'node:crypto';
import { emptyFootprint, ownEnv, type CheckFootprint } from '../harness/case/index.ts';
import { UnsupportedByModel } from '../reference/judgement.ts';
import type { Judgement } from '../reference/judgement.ts';
import { DEFAULT_SHRINK_TIME_MS, ShrinkBudget, SHRINK_RUN_RESERVE_MS } from '../harness/case/index.ts';
import { runBudgetLeftMs } from '../harness/transport/index.ts';
import { newCheckJournal, type CheckJournal } from './check-journal.ts';

/** Rounds of going on past failures: each one starts only if the one before found a new clause failing. */
const MAX_CONTINUE_ROUNDS = 4;
/** Going on past a failure may take as long as the check took to find it, and at least this. */
const MIN_CONTINUE_MS = 10_000;

/** The cases of a check after its failures: those already run are skipped, failures already reported end a case quietly. */
interface Continuation {
  skip: number;
  readonly reported: ReadonlySet<string>;
  /** Cases run, and those that ended at a failure already reported. */
  ran: number;
  stopped: number;
  /** Cases not run: the time going on may take had run out. */
  outOfTime: number;
  readonly mayRun: () => boolean;
}

/** Starts the note of a clause its check did not reach because its cases stopped at a failure (counted as not judged, never as declined). */
export const NOT_REACHED = 'not reached: ';

/**
 * Why a clause of a check that failed was not reached.
 *   notReachedNote('health-endpoints', ['rest:4.2/verbose'], 14, 14)
 *     -> 'not reached: health-endpoints failed rest:4.2/verbose, and 14 of its 14 later cases stopped at that failure before judging this clause'
 */
export function notReachedNote(check: string, failed: readonly string[], ran: number, stopped: number, brokeOff?: string, outOfTime = 0): string {
  const later =
    ran === 0 ? 'no later case of it ran' : `${stopped} of its ${ran} later cases stopped at that failure before judging this clause${stopped < ran ? ' (the others drew no case of it)' : ''}`;
  const timeUp =
    outOfTime > 0 ? `; ${outOfTime} later cases did not run (going on past a failure may take as long as finding it took, at least ${MIN_CONTINUE_MS / 1000} s, within the run's --timeout)` : '';
  return `${NOT_REACHED}${check} failed ${failed.join(', ')}, and ${later}${timeUp}${brokeOff !== undefined ? `; its later cases ended: ${brokeOff}` : ''}`;
}

export interface RunCheckOptions {
  readonly seed: number;
  readonly runs: number;
  /** fast-check path of a counterexample, to replay it directly. */
  readonly path?: string;
  /** How the CLI is invoked to replay, e.g. `npx svc-conformance run`. */
  readonly replayCommand?: string;
  /** Told the moment a check's first failure is found, before shrinking (one line). */
  readonly onFailureFound?: (line: string) => void;
  /** Whether the expectations file lists a failure as known: a known failure is not shrunk. */
  readonly known?: (failure: Judgement, check: string) => boolean;
}

/** Short and stable per check: case labels of checks running at once must differ. */
const caseStemOf = (checkId: string): string => createHash('sha256').update(checkId).digest('hex').slice(0, 6);

/**
 * Runs one check with a transcript and footprint of its own: every request sent through its env is
 * recorded there, so checks may run concurrently (issue 15) and a counterexample holds only its case's.
 */
export async function runCheck(check: AnyCheck, env: CheckEnv, opts: RunCheckOptions, footprint: CheckFootprint = emptyFootprint(check.id)): Promise<CheckRecord[]> {
  const own = ownEnv(env, footprint);
  const t0 = performance.now();
  const journal = newCheckJournal(check.id, footprint);
  try {
    const records = await runCheckAlone(check, own, opts, journal);
    // Every way out of the check starts its records with the tally's, made when its cases were done.
    if (journal.tally !== undefined) journal.tallyRecords = recordsFromTally(check.id, journal.tally).length;
    delete journal.tally;
    journal.complete = true;
    return records;
  } finally {
    footprint.wallMs = Math.round(performance.now() - t0);
  }
}

async function runCheckAlone(check: AnyCheck, env: CheckEnv, opts: RunCheckOptions, journal: CheckJournal): Promise<CheckRecord[]> {
  const notApplicable = check.applicable?.(env);
  if (notApplicable !== undefined) {
    return check.clauses.map((clause) => ({ clause, check: check.id, verdict: 'notChecked' as const, count: 0, note: notApplicable }));
  }
  const tally = new Tally();
  journal.tally = tally;
  journal.entries = tally.journal;
  journal.blobs = tally.blobs;
  let excusedFirst: ClauseViolation | undefined;
  let excusedAttached = false;
  /** The input each reported violation came from (its readable steps). */
  const inputs = new WeakMap<ClauseViolation, unknown>();
  // One counter for the run and its replays: every case carries a label of its own.
  let caseNumber = 0;
  const budget = new ShrinkBudget(env.settings.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS, () => performance.now());
  const known = opts.known ?? env.excused;
  const knownOnly = (e: ClauseViolation): boolean => known !== undefined && e.failures.length > 0 && e.failures.every((f) => known(f, check.id));
  const propertyOf = (t: Tally, b?: ShrinkBudget, after?: Continuation) =>
    fc.asyncProperty(check.arbitrary(env), async (input: unknown) => {
      // The cases up to the last failure ran already (same seed, same order): their verdicts are in.
      if (after !== undefined && after.skip-- > 0) return;
      // The going-on bound starts no new case; a later failure already found shrinks within its own budget
      // (a candidate passed here for want of time would end its shrinking silently, unshrunk and unsaid).
      if (after !== undefined && b?.shrinking !== true && !after.mayRun()) {
        after.outOfTime++;
        return;
      }
      if (b && !b.mayRun()) return;
      const cx = new CaseContext(env, t, ++caseNumber, caseStemOf(check.id));
      const excused = env.excused;
      if (excused !== undefined) cx.isExcused = (failure) => excused(failure, check.id);
      try {
        await check.run(input, cx);
        if (after !== undefined) after.ran++;
        // A case that met only excused failures passes the property, so later cases run too; the first
        // such failure is reported after the run (below), unshrunk: a known failure needs no smaller case.
        const excusedHere = cx.excusedFailure();
        if (excusedHere !== undefined && excusedFirst === undefined) {
          excusedFirst = excusedHere;
          inputs.set(excusedHere, input);
        }
      } catch (e) {
        if (after !== undefined) after.ran++;
        // A case that ends at a failure already reported: its judgements before it stand, the check goes on.
        if (after !== undefined && e instanceof ClauseViolation && e.failures.every((f) => after.reported.has(f.clause))) {
          after.stopped++;
          return;
        }
        if (b && e instanceof ClauseViolation && b.failed(e.exchanges.length)) {
          opts.onFailureFound?.(failureFoundLine(check.id, e, knownOnly(e)));
          // A known failure needs no smaller case (as one a case went on past): its first counterexample
          // is reported, and no candidate is sent (against a real server, thousands of requests).
          if (knownOnly(e)) b.stop();
        } else if (b && !(e instanceof ClauseViolation) && !(e instanceof UnsupportedByModel)) {
          // A candidate that broke otherwise while a failure shrinks is no smaller case of that failure.
          if (b.shrinking) return;
          // An error is reported without a shrunk case: shrinking it would only repeat the trouble.
          b.stop();
        }
        // The model's scope ends here (STYLE.md practice 3): the case decides nothing about the clause,
        // which is reported as not checked with the model's reason, and the remaining cases still run.
        if (e instanceof UnsupportedByModel) t.notCheckedBecause(e.clause, e.message);
        else {
          if (e instanceof ClauseViolation) await resendInPlace(e, env);
          throw afterServerError(e, cx);
        }
      } finally {
        await releaseCaseNamespaces(cx);
      }
    });
  const { examples, numRuns } = casesOf(check, env, opts.runs);
  const started = performance.now();
  const details = await fc.check(propertyOf(tally, opts.path === undefined ? budget : undefined), {
    seed: opts.seed,
    numRuns,
    examples: examples.map((e) => [e] as [unknown]),
    ...(opts.path !== undefined ? { path: opts.path, endOnFailure: true } : {}),
    ...(check.shrink === false ? { endOnFailure: true } : {}),
  });
  if (!details.failed && excusedFirst === undefined) return recordsFromTally(check.id, tally);

  const err = details.failed ? details.errorInstance : excusedFirst!;
  if (err instanceof ClauseViolation) {
    const failures = await violationRecords(err, details, budget);
    // A replay judges its one case; a check that does not shrink (a concurrent workload) is not replayable case by case;
    // a check whose cases all ran (only excused failures met) has no later case to go on to.
    if (opts.path !== undefined || check.shrink === false || !details.failed) return [...recordsFromTally(check.id, tally), ...failures];
    const reported = new Set(failures.filter((r) => r.verdict === 'fail').map((r) => r.clause));
    const until = performance.now() + Math.max(MIN_CONTINUE_MS, performance.now() - started);
    let skip = details.numRuns;
    let stopped = 0;
    let ran = 0;
    let outOfTime = 0;
    let brokeOff: string | undefined;
    for (let round = 0; round < MAX_CONTINUE_ROUNDS && reported.size > 0; round++) {
      const after: Continuation = { skip, reported, stopped: 0, ran: 0, outOfTime: 0, mayRun: () => performance.now() < until && (runBudgetLeftMs() ?? Infinity) > SHRINK_RUN_RESERVE_MS };
      const roundBudget = new ShrinkBudget(env.settings.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS, () => performance.now());
      const again = await fc.check(propertyOf(tally, roundBudget, after), { seed: opts.seed, numRuns, examples: examples.map((e) => [e] as [unknown]) });
      stopped += after.stopped;
      ran += after.ran;
      outOfTime += after.outOfTime;
      if (!again.failed) break;
      if (!(again.errorInstance instanceof ClauseViolation)) {
        // Trouble in a later case takes nothing back from the failure found: the check ends here.
        brokeOff = again.errorInstance instanceof Error ? again.errorInstance.message.split('\n')[0] : String(again.errorInstance);
        break;
      }
      const more = await violationRecords(again.errorInstance, again, roundBudget);
      failures.push(...more);
      for (const r of more) if (r.verdict === 'fail') reported.add(r.clause);
      skip = again.numRuns;
    }
    const records = [...recordsFromTally(check.id, tally), ...failures];
    const judged = new Set(records.map((r) => r.clause));
    const why = notReachedNote(check.id, [...reported], ran, stopped, brokeOff, outOfTime);
    for (const clause of check.clauses) if (!judged.has(clause)) records.push({ clause, check: check.id, verdict: 'notChecked', count: 0, note: why });
    return records;
  }
  const records = recordsFromTally(check.id, tally);
  if (err instanceof CheckNotApplicable) {
    // No clauses named: the whole check could not run (a precondition of the run, such as --namespace).
    const clauses = err.clauses.length > 0 ? err.clauses : check.clauses;
    return [...records, ...clauses.map((clause) => ({ clause, check: check.id, verdict: err.verdict, count: 0, note: err.reason }))];
  }
  const what = err instanceof InfrastructureError ? `infrastructure: ${err.message}` : `suite error (a bug of ours, not the target's): ${err instanceof Error ? err.message : String(err)}`;
  return [...records, ...check.clauses.map((clause) => ({ clause, check: check.id, verdict: 'error' as const, count: 0, note: what }))];

  /** The failure records of one violation found and shrunk (an unrepeated 5xx's failure is an error). */
  async function violationRecords(err: ClauseViolation, details: fc.RunDetails<[unknown]>, budget: ShrinkBudget): Promise<CheckRecord[]> {
    const records: CheckRecord[] = [];
    if (details.failed) inputs.set(err, details.counterexample?.[0]);
    // The first excused failure the check went on past travels with the first failure reported, once.
    if (details.failed && excusedFirst !== undefined && !excusedAttached && err.excusedEarlier === undefined) {
      err.excusedEarlier = excusedFirst;
      excusedAttached = true;
    }
    // A failure that may rest on a write's 5xx stands only if the case fails so again when replayed.
    const replayed =
      err.serverErrors.some((e) => !e.repeated) && err.repeatedInPlace !== true
        ? await replayCase(() => propertyOf(new Tally()), details.seed, details.counterexamplePath ?? undefined, examples)
        : undefined;
    // An excused failure the case went on past is reported with its own counterexample, as when it stopped the case.
    for (const v of [err, ...(err.excusedEarlier !== undefined ? [err.excusedEarlier] : [])]) {
      // The answers are the exchanges', the same for every failure of the case (a watch body is parsed once, not per failure).
      const answers = observedAnswers(v.exchanges, (labels) => labels?.[env.profile.runLabel] === env.runId);
      for (const f of v.failures) {
        if (v === err && replayed !== undefined && !replayed.every((r) => r !== undefined && r.serverErrors.length > 0 && r.failures.some((g) => g.clause === f.clause))) {
          records.push({ clause: f.clause, check: check.id, verdict: 'error', count: 0, note: unrepeatedNote(v, replayed.length) });
          continue;
        }
        // A process's answer (a loader's exit, a daemon's start) is no exchange to resolve: the judged answer is the observation.
        const needs = check.reproducer !== undefined ? (f.needs ?? []).map((n) => ({ ...n, observed: f.observed, met: false })) : needsShown(f.needs ?? [], v);
        const reproducerOptions = {
          server: env.target.server,
          needs,
          // The check compacted the target's history (a hook): its watches may rest on versions that left it.
          ...((env.exchangeSink?.footprint.reach?.compactions ?? 0) > 0 ? { compacted: true } : {}),
          about: { clause: f.clause, expected: f.expected, observed: f.observed, replay: replayOf(check.id, details.seed, details.counterexamplePath, opts) },
        };
        const cex: Counterexample = {
          check: check.id,
          clause: f.clause,
          expected: f.expected,
          observed: f.observed,
          ...(f.expectedValue !== undefined ? { expectedValue: f.expectedValue } : {}),
          ...(f.observedValue !== undefined ? { observedValue: f.observedValue } : {}),
          ...(f.diff !== undefined ? { diff: f.diff } : {}),
          ...(f.class !== undefined ? { class: f.class } : {}),
          ...(f.input !== undefined ? { input: f.input } : {}),
          ...(f.observedStatus !== undefined ? { observedStatus: f.observedStatus } : {}),
          ...(f.observedReason !== undefined ? { observedReason: f.observedReason } : {}),
          steps: [...(inputs.get(v) === undefined ? [] : sentSteps(check.describe(inputs.get(v)), v.stepsSent)), ...(env.backgroundWrites?.describe(v.exchanges) ?? [])],
          curl: check.reproducer !== undefined && inputs.get(v) !== undefined ? check.reproducer(inputs.get(v), f, env, reproducerOptions.about) : toCurlScript(v.exchanges, reproducerOptions),
          ...(needs.length > 0 && check.reproducer === undefined ? { nodeTest: toNodeTest(v.exchanges, { ...reproducerOptions, needs }) } : {}),
          ...(needs.length > 0 ? { needs } : {}),
          answers,
          requestCount: v.exchanges.length,
          seed: details.seed,
          ...(details.counterexamplePath ? { path: details.counterexamplePath } : {}),
          ...(v.evidence !== undefined ? { history: v.evidence } : {}),
          replay: replayOf(check.id, details.seed, details.counterexamplePath, opts),
        };
        const cutShort = budget.cutShort;
        if (v.journalEntry !== undefined) journal.links.push({ clause: f.clause, expected: f.expected, observed: f.observed, entry: v.journalEntry });
        records.push({ clause: f.clause, check: check.id, verdict: 'fail', count: 1, counterexample: cex, ...(cutShort !== undefined ? { note: cutShort } : {}) });
      }
    }
    return records;
  }
}

/**
 * A failure is told as soon as it is found, before shrinking starts: a run that is stopped while it
 * shrinks has still said what failed (the reports carry the shrunk counterexample).
 */
function failureFoundLine(checkId: string, e: ClauseViolation, known = false): string {
  const clauses = [...new Set(e.failures.map((f) => f.clause))].join(', ');
  return `svc-conformance: ${checkId}: ${known ? 'known failure' : 'failure'} found (${clauses}, first counterexample ${e.exchanges.length} requests); ${known ? 'not shrunk' : 'shrinking it'}`;
}

const replayOf = (checkId: string, seed: number, path: string | null | undefined, opts: RunCheckOptions): string =>
  `${opts.replayCommand ?? 'npx svc-conformance run'} --check ${checkId} --seed ${seed}${path ? ` --path ${path}` : ''}`;

/**
 * A failure's needs with their `at` resolved to requests of the counterexample, each evaluated on the
 * recorded answers. A need naming an answer the case did not record is left out; needs that the
 * recorded answers all meet do not describe this failure (a judge's slip), so none are kept: the
 * reproducer then says it cannot decide rather than pass a target that still fails.
 */
function needsShown(needs: readonly AnswerNeed[], err: ClauseViolation): NeedShown[] {
  const indexOf = (seq: number | undefined): number | undefined => {
    if (seq === undefined || seq === 0) return undefined;
    const i = err.exchanges.findIndex((e) => e.seq === seq);
    return i < 0 ? undefined : i;
  };
  const judged = indexOf(err.answersJudged.judged);
  const carrying = (rv: string): number | undefined => {
    for (let i = (judged ?? err.exchanges.length) - 1; i >= 0; i--) {
      if ((err.exchanges[i]!.response?.json as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion === rv) return i;
    }
    return undefined;
  };
  const resolve = (at: AnswerAt): number | undefined => (at === 'judged' ? judged : 'page' in at ? indexOf(err.answersJudged.pages?.[at.page]) : 'carrying' in at ? carrying(at.carrying) : at.request);
  const resolved: AnswerNeed[] = [];
  for (const n of needs) {
    let missing = false;
    const test = mapAt(n.test, (at) => {
      const i = resolve(at);
      if (i === undefined) missing = true;
      return { request: i ?? -1 };
    });
    if (!missing) resolved.push({ ...n, test });
  }
  const results = evaluateNeeds(resolved, (i) => (err.exchanges[i] ? answerData(err.exchanges[i]!) : undefined));
  if (results.every((r) => r.ok)) return [];
  return resolved.map((n, i) => ({ ...n, observed: results[i]!.observed, met: results[i]!.ok }));
}

/**
 * A write's 5xx that the case failed on is sent once more before the case's namespaces are released, in
 * the state that answered it: the same 5xx again is that state's answer (a namespace the target broke),
 * which a replay in fresh namespaces cannot show. A write the first attempt applied answers otherwise
 * (409, 2xx), and the replays below decide as before.
 */
async function resendInPlace(e: ClauseViolation, env: CheckEnv): Promise<void> {
  const last = [...e.serverErrors].reverse().find((s) => !s.repeated && s.sent !== undefined);
  if (last === undefined) return;
  // As a read's 5xx: the same well-formed answer on each of two more tries, a moment apart.
  for (let attempt = 0; attempt < 2; attempt++) {
    await env.sleep(100 * 2 ** attempt);
    const again = await env.target.send(last.sent!).catch(() => undefined);
    if (again === undefined || again.status !== last.status || again.json === undefined || again.headers['retry-after'] !== undefined) return;
  }
  e.repeatedInPlace = true;
}

/** The described steps that were sent: those begun before the failure, and how many were not. */
function sentSteps(steps: readonly string[], sent: number | undefined): string[] {
  if (sent === undefined || sent >= steps.length) return [...steps];
  return [...steps.slice(0, sent), `(${steps.length - sent} later step(s) not sent: the case stopped at this failure)`];
}

/** Replays of a case that failed on a write's 5xx: the rule of issue 24 item 5. */
const SERVER_ERROR_REPLAYS = 2;

/** The violation of each replay of the case at `path` (undefined where it passed or broke otherwise). */
async function replayCase(property: () => fc.IAsyncProperty<[unknown]>, seed: number, path: string | undefined, examples: readonly unknown[]): Promise<(ClauseViolation | undefined)[]> {
  if (path === undefined) return [undefined];
  const out: (ClauseViolation | undefined)[] = [];
  for (let i = 0; i < SERVER_ERROR_REPLAYS; i++) {
    // The same examples: the path counts them first.
    const again = await fc.check(property(), { seed, path, endOnFailure: true, examples: examples.map((e) => [e] as [unknown]) });
    out.push(again.failed && again.errorInstance instanceof ClauseViolation ? again.errorInstance : undefined);
  }
  return out;
}

function unrepeatedNote(err: ClauseViolation, replays: number): string {
  const first = err.serverErrors.find((e) => !e.repeated)!;
  return `infrastructure: ${first.request} answered ${first.status} and the case failed (${err.failures.map((f) => f.clause).join(', ')}); replayed ${replays} times it did not fail so again: a 5xx that does not repeat is not the target's answer`;
}

/**
 * A check that could not go on after a 5xx it was handed (it read the answer as an object, say) met
 * infrastructure trouble, not a bug of ours: the answer is named.
 */
function afterServerError(e: unknown, cx: CaseContext): unknown {
  const last = cx.serverErrors.at(-1);
  if (last === undefined || e instanceof ClauseViolation || e instanceof InfrastructureError || e instanceof CheckNotApplicable) return e;
  return new InfrastructureError(`${last.request} answered ${last.status} and the check could not go on from that answer (${e instanceof Error ? e.message : String(e)})`);
}

export function recordsFromTally(checkId: string, tally: Tally): CheckRecord[] {
  const out: CheckRecord[] = [];
  for (const [clause, count] of tally.passes) {
    const inputs = tally.exercised.get(clause);
    out.push({ clause, check: checkId, verdict: 'pass', count, ...(inputs !== undefined ? { inputs: Object.fromEntries(inputs) } : {}) });
  }
  for (const [clause, notes] of tally.unspecified) {
    for (const [note, count] of notes) out.push({ clause, check: checkId, verdict: 'unspecified', count, note });
  }
  for (const [clause, notes] of tally.inconclusive) {
    for (const [note, count] of notes) out.push({ clause, check: checkId, verdict: 'inconclusive', count, note });
  }
  for (const [clause, note] of tally.notChecked) out.push({ clause, check: checkId, verdict: 'notChecked', count: 0, note });
  return out;
}
