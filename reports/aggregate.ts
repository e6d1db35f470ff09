/**
 * CheckRecords -> one ClauseResult per catalog clause -> RunResult. Pure: the catalog and the
 * expectations are parameters, so tests pass small fake ones.
 */
import { undecidedDelivery } from '../reference/watch-delivery.ts';
import { featureById } from '../reference/features.ts';
import type { Clause } from '../reference/catalog/types.ts';
import { clauseStatusOf } from '../runner/verdicts.ts';
import type {
  CheckRecord,
  ClauseResult,
  ClauseStatus,
  Counterexample,
  NotSelected,
  RunInvocation,
  RunResult,
  RunTarget,
  RunTotals,
} from '../runner/results.ts';
import { isNotSelected } from '../harness/case/index.ts';
import { signatureMismatch, type Expectations, type KnownFailure } from './expectations.ts';
import { excusedFailure, judgeExpectations } from './known-failures.ts';
import { requestEconomy } from '../harness/case/index.ts';
import { scorecardOf } from './scorecard.ts';
import { exercisedOf } from './vacuity.ts';
import { checkRequirements, requirementLine, type Requirement } from './require.ts';
import { decideRun, type RunEnd } from '../runner/run-verdict.ts';

export const MAX_COUNTEREXAMPLES = 5;
export const MAX_NOTES = 10;
export const NOT_IN_CATALOG = '(not in catalog)';
/** Starts the note of an entry whose departure is shown gone (test:upstream looks for it). */
export const NOW_PASSES_NOTE = 'no longer occurs';

export interface AggregateOptions {
  readonly expectations?: Expectations;
}

export function aggregate(records: readonly CheckRecord[], catalog: readonly Clause[], opts: AggregateOptions = {}): ClauseResult[] {
  const byClause = groupBy(records, (r) => r.clause);
  const known = groupBy(opts.expectations?.knownFailures ?? [], (k) => k.clause);
  const results = catalog.map((c) =>
    withReason(c, clauseResult(c.id, c.section, c.summary, c.kind === 'unspecified', byClause.get(c.id) ?? [], known)),
  );
  // Records for ids the catalog lacks must stay visible (a typo in a check's clause id would
  // otherwise silently drop its failures); unknownClauseIds lets a self-test forbid them outright.
  for (const id of unknownClauseIds(records, catalog)) {
    results.push(clauseResult(id, '', NOT_IN_CATALOG, false, byClause.get(id) ?? [], known));
  }
  return results;
}

/** Said of a clause no record of the run speaks of, when the catalog gives no reason of its own. */
export const NO_CHECK_RAN =
  'no check of this run reached it: none that ran names it, or the one that does generated no case of it with this seed';

/**
 * A clause without a verdict says why: an informative clause is shown as such with the
 * catalog's reason; a gap keeps the reason a check gave (a timeout, a missing capability), else the
 * catalog's, else NO_CHECK_RAN.
 *   informative, no records -> { status: 'informative', notes: [reason] }
 */
function withReason(c: Clause, r: ClauseResult): ClauseResult {
  if (r.status !== 'notChecked') return r;
  if (c.informative !== undefined && r.checks === 0 && r.notes.length === 0) return { ...r, status: 'informative', notes: [c.informative] };
  if (r.notes.length > 0) return r;
  return { ...r, notes: [c.notCheckedWhy ?? NO_CHECK_RAN] };
}

/** Clause ids that records mention but the catalog does not list, sorted. */
export function unknownClauseIds(records: readonly CheckRecord[], catalog: readonly Clause[]): string[] {
  const ids = new Set(catalog.map((c) => c.id));
  return [...new Set(records.map((r) => r.clause))].filter((id) => !ids.has(id)).sort();
}

/** The status of a clause from its records' verdicts (runner/verdicts.ts, the one mapping). */
export const statusOf = clauseStatusOf;

function clauseResult(
  id: string,
  section: string,
  summary: string,
  unspecifiedClause: boolean,
  records: readonly CheckRecord[],
  known: ReadonlyMap<string, readonly KnownFailure[]>,
): ClauseResult {
  const status = statusOf(
    records.map((r) => r.verdict),
    unspecifiedClause,
  );
  const notes = records.flatMap((r) => (r.note === undefined ? [] : [r.note]));
  const errorChecks = [...new Set(records.filter((r) => r.verdict === 'error').map((r) => r.check))];
  if (unspecifiedClause && records.some((r) => r.verdict === 'fail')) {
    notes.unshift('a check reported a failure on a clause the spec leaves unspecified; recorded, not judged');
  }
  const entries = known.get(id);
  const expectation = entries === undefined ? undefined : judgeExpectations(entries, records, status);
  if (expectation !== undefined) notes.unshift(...expectationNotes(expectation));
  const result: ClauseResult = {
    id,
    section,
    summary,
    status,
    checks: records.reduce((n, r) => n + r.count, 0),
    counterexamples: pickCounterexamples(records, expectation?.regression === true ? unexcused(entries!) : undefined),
    notes: capNotes(notes),
    errorChecks: errorChecks.length > 0 ? errorChecks : undefined,
  };
  if (expectation === undefined) return result;
  return { ...result, expectation, ...(expectation.regression ? {} : { expectedFailure: true }) };
}

/** First the regression, then one note per entry (capNotes keeps the first ones). */
function expectationNotes(e: import('./known-failures.ts').ClauseExpectation): string[] {
  const out = e.unexcused.map((u) => `regression of a listed clause: observed ${u}`);
  for (const x of e.entries) {
    if (x.outcome === 'excused') out.push(`known failure (${x.excuses}): ${x.reason}`);
    else if (x.outcome === 'noLongerOccurs')
      out.push(
        `${NOW_PASSES_NOTE}: ${x.excuses} (${x.detail}); remove its entry${x.at !== undefined ? ` at ${x.at}` : ''} from the expectations file`,
      );
    else out.push(`known failure not exercised in this run: ${x.excuses} (${x.detail})`);
  }
  return out;
}

/** A listed clause's regression: whether no entry excuses a counterexample (the report shows those first). */
function unexcused(entries: readonly KnownFailure[]): (cx: Counterexample) => boolean {
  return (cx) => !entries.some((e) => signatureMismatch(e.observed, cx) === undefined);
}

/** One per (check, observed), the smallest reproduction of each, smallest first (`first` ones before all). */
function pickCounterexamples(records: readonly CheckRecord[], first?: (cx: Counterexample) => boolean): Counterexample[] {
  const best = new Map<string, Counterexample>();
  for (const r of records) {
    const cx = r.counterexample;
    if (cx === undefined) continue;
    const key = `${cx.check}\u0000${cx.observed}`;
    const prior = best.get(key);
    if (prior === undefined || cx.requestCount < prior.requestCount) best.set(key, cx);
  }
  // Array.prototype.sort is stable: equal sizes keep the order the checks reported them in.
  const rank = (cx: Counterexample) => (first?.(cx) === true ? 0 : 1);
  return [...best.values()].sort((a, b) => rank(a) - rank(b) || a.requestCount - b.requestCount).slice(0, MAX_COUNTEREXAMPLES);
}

function capNotes(notes: readonly string[]): string[] {
  const unique = [...new Set(notes)];
  if (unique.length <= MAX_NOTES) return unique;
  return [...unique.slice(0, MAX_NOTES - 1), `(${unique.length - (MAX_NOTES - 1)} more notes not shown)`];
}

export interface BuildRunArgs {
  readonly records: readonly CheckRecord[];
  readonly catalog: readonly Clause[];
  readonly profile: string;
  readonly seed: number;
  readonly server: string | null;
  readonly nodeagentLoader: string | null;
  /** Which target this was (embedded or external), named for a person, and the version it reported. */
  readonly target?: Omit<RunTarget, 'server' | 'nodeagentLoader'>;
  readonly invocation?: RunInvocation;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly version: string;
  /** Infrastructure trouble outside any clause (target unreachable, cleanup failed, ...). */
  readonly errors: readonly string[];
  readonly expectations?: Expectations;
  readonly footprint?: import('../harness/case/index.ts').RunFootprint;
  readonly leftovers?: readonly import('../runner/results.ts').RunLeftover[];
  /** The checks the run selected, with their clauses: the vacuity guard measures against them. */
  readonly selected?: readonly { readonly id: string; readonly clauses: readonly string[] }[];
  /** `--require` minimums on the scorecard. */
  readonly require?: readonly Requirement[];
  /** Set when the run stopped before its checks (the preflight's line): notTested, whatever else holds. */
  readonly refused?: string;
  /** How the run ended before its checks did (timeout, signal, a broken precondition). */
  readonly end?: RunEnd;
  readonly cleanupCommand?: string;
  /** The capability map of the probe before the checks (runner/capability-gate.ts). */
  readonly capabilities?: readonly import('../runner/results.ts').CapabilityEntry[];
}

export function buildRunResult(args: BuildRunArgs): RunResult {
  const judged = withBlockedGaps(
    aggregate(args.records, args.catalog, args.expectations ? { expectations: args.expectations } : {}),
    args.capabilities ?? [],
  );
  const times = args.footprint ? clauseTimes(args.records, args.footprint) : undefined;
  const timed = times ? judged.map((c) => (times.has(c.id) ? { ...c, timeMs: Math.round(times.get(c.id)!) } : c)) : judged;
  const known = args.expectations?.knownFailures;
  const exercised =
    args.selected !== undefined && args.refused === undefined
      ? exercisedOf(args.records, args.selected, known !== undefined ? { excused: (r) => excusedFailure(known, r) } : {})
      : undefined;
  const card = scorecardOf(args.footprint, exercised);
  const silent = undecidedDelivery({
    opened: card.watches.opened,
    delivering: card.watches.delivering ?? 0,
    undelivered: args.records
      .filter((r) => r.clause === 'rest:6.1.1' && r.verdict === 'inconclusive')
      .reduce((n, r) => n + Math.max(1, r.count), 0),
  });
  // The passes of a run whose every stream stayed silent are cases that owed nothing: no pass of delivery.
  const clauses =
    silent === undefined
      ? timed
      : timed.map((c) =>
          c.id === 'rest:6.1.1' && c.status === 'passed' ? { ...c, status: 'inconclusive' as const, notes: [silent, ...c.notes] } : c,
        );
  const required = args.require !== undefined && args.require.length > 0 ? checkRequirements(card, args.require) : undefined;
  const scorecard = required !== undefined ? { ...card, require: required } : card;
  // A feature the spec requires but bounds in no time (watch delivery), not seen within the run's bound:
  // never a failure, and never a conformant run either.
  const unseen = (args.capabilities ?? [])
    .filter((e) => e.state === 'notServed' && e.required && featureById(e.feature).unbounded === true)
    .map((e) => `not served within the run's bound: ${e.title} (${e.evidence}); the clauses that need it were not judged`);
  // The rules are runner/run-verdict.ts's (docs/verdict-rules.md): a regression is reported whatever
  // else holds; these lines then say what the run left undone.
  const decision = decideRun({
    regressions: regressionsOf(clauses),
    errors: args.errors.length > 0 || clauses.some((c) => c.status === 'error'),
    notTested: [
      ...(args.refused !== undefined ? [args.refused] : []),
      ...(exercised?.notTested === true ? [exercised.line] : []),
      ...(silent !== undefined ? [silent] : []),
      ...unseen,
      ...[requirementLine(required ?? [])].filter((l): l is string => l !== undefined),
    ],
    end: args.end,
  });
  return {
    tool: 'svc-conformance',
    version: args.version,
    profile: args.profile,
    seed: args.seed,
    verdict: decision.verdict,
    notTested: decision.notTested.length > 0 ? [...decision.notTested] : undefined,
    incomplete: decision.incomplete,
    target: { server: args.server, nodeagentLoader: args.nodeagentLoader, ...args.target },
    invocation: args.invocation,
    startedAt: args.startedAt,
    durationMs: args.durationMs,
    totals: totalsOf(clauses),
    clauses,
    errors: [...args.errors],
    footprint: args.footprint ? { ...args.footprint, perVerdict: requestEconomy(args.records, clauses, args.footprint) } : undefined,
    leftovers: args.leftovers === undefined ? undefined : [...args.leftovers],
    cleanupCommand: args.cleanupCommand,
    ...notSelectedOf(args.records, clauses),
    capabilities: args.capabilities === undefined ? undefined : [...args.capabilities],
    scorecard: args.footprint !== undefined || args.selected !== undefined || required !== undefined ? scorecard : undefined,
  };
}

/** The components the run was not given, from the notes of their records: one entry each, absent when none. */
function notSelectedOf(records: readonly CheckRecord[], clauses: readonly ClauseResult[]): { notSelected?: NotSelected[] } {
  const checks = new Map<string, Set<string>>();
  for (const r of records) {
    if (r.note === undefined || !isNotSelected(r.note)) continue;
    const set = checks.get(r.note) ?? new Set<string>();
    set.add(r.check);
    checks.set(r.note, set);
  }
  if (checks.size === 0) return {};
  return {
    notSelected: [...checks].map(([reason, ids]) => ({
      reason,
      checks: [...ids],
      clauses: clauses.filter((c) => c.status === 'notChecked' && c.notes[0] === reason).length,
    })),
  };
}

/**
 * A clause no check reached, in a run where checks were blocked by features not served: a blocked
 * check may have judged it beyond the clauses it declares, so the gap names the blocking, not "no check
 * reached it" alone.
 */
function withBlockedGaps(clauses: ClauseResult[], capabilities: readonly import('../runner/results.ts').CapabilityEntry[]): ClauseResult[] {
  const blocking = capabilities.filter((e) => e.blocks.length > 0);
  if (blocking.length === 0) return clauses;
  const checks = blocking.reduce((n, e) => n + e.blocks.length, 0);
  const note = `no check that ran reached it; ${checks} check${checks === 1 ? ' was' : 's were'} not run, blocked by ${blocking.map((e) => e.feature).join(', ')} not served (a check may judge clauses beyond those it declares)`;
  return clauses.map((c) =>
    c.status === 'notChecked' && c.notes.length === 1 && c.notes[0] === NO_CHECK_RAN ? { ...c, notes: [note] } : c,
  );
}

/**
 * A check's wall time split evenly across the clauses it recorded, summed per clause: each clause's
 * JUnit case gets a real share, and the cases of a run add up to the checks' time, not more.
 *   check a (4 s) recorded x, y; check b (1 s) recorded y  ->  x 2 s, y 3 s
 */
export function clauseTimes(
  records: readonly CheckRecord[],
  footprint: import('../harness/case/index.ts').RunFootprint,
): Map<string, number> {
  const clausesOf = new Map<string, Set<string>>();
  for (const r of records) {
    let set = clausesOf.get(r.check);
    if (!set) clausesOf.set(r.check, (set = new Set()));
    set.add(r.clause);
  }
  const out = new Map<string, number>();
  for (const c of footprint.checks) {
    const clauses = clausesOf.get(c.check);
    if (!clauses || clauses.size === 0) continue;
    for (const id of clauses) out.set(id, (out.get(id) ?? 0) + c.wallMs / clauses.size);
  }
  return out;
}

/**
 * nonconformant: some clause failed and the expectations file does not list it (a regression);
 * else error: infrastructure trouble, in the run or on some clause, means we cannot vouch for it;
 * else conformant. Failures come first so a flaky network never hides a real regression.
 */
export function verdictOf(clauses: readonly ClauseResult[], errors: readonly string[]): RunResult['verdict'] {
  return decideRun({
    regressions: regressionsOf(clauses),
    errors: errors.length > 0 || clauses.some((c) => c.status === 'error'),
    notTested: [],
  }).verdict;
}

/** The clauses failed beyond the expectations file: what makes a run nonconformant. */
export function regressionsOf(clauses: readonly ClauseResult[]): string[] {
  return clauses.filter((c) => c.status === 'failed' && c.expectedFailure !== true).map((c) => c.id);
}

/** Clauses by shown status (reports/areas.ts): a known failure under `known`, so `failed` is what fails the run. */
export function totalsOf(clauses: readonly ClauseResult[]): RunTotals {
  const totals: RunTotals = {
    passed: 0,
    failed: 0,
    known: 0,
    unspecified: 0,
    inconclusive: 0,
    skipped: 0,
    notChecked: 0,
    informative: 0,
    error: 0,
    notServed: 0,
    blocked: 0,
  };
  for (const c of clauses) totals[shownStatus(c)] += 1;
  return totals;
}

/** A clause's status as every report shows it: a failure the expectations file excuses is `known`, never `failed`. */
export type ShownStatus = ClauseStatus | 'known';

export function shownStatus(c: Pick<ClauseResult, 'status' | 'expectedFailure'>): ShownStatus {
  return c.status === 'failed' && c.expectedFailure === true ? 'known' : c.status;
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list === undefined) out.set(k, [item]);
    else list.push(item);
  }
  return out;
}
