/**
 * A listed clause's records against its expectations entries (reports/expectations.ts). Pure.
 *
 * - Every failure must match the signature of some entry; one that matches none is a regression, shown
 *   with the observed answer and what the entries excuse.
 * - An entry whose departure did not show is "no longer occurring" only when the run sent the input
 *   class its observation class belongs to (reference/observations.ts), the answers to it conformed, and
 *   no condition of the entry was assumed; otherwise it was "not exercised in this run", which is never
 *   advice to remove it.
 *
 *   entry {class limit-ignored}; records: a pass of rest:4.5/list/unset/limit/0 with inputs {} (every
 *   rv="0" list held fewer items than its limit)  ->  notExercised, "the run sent no list with a limit
 *   below the number of items it returned"
 */
import type { CheckRecord, ClauseExpectation, ClauseStatus, Counterexample, EntryOutcome, EntryResult } from '../runner/results.ts';
import { INPUT_CLASSES, inputOf, OBSERVATION_CLASSES, type InputClass, type ObservationClass } from '../reference/observations.ts';
import { showObservation, showSignature, signatureMismatch, type KnownFailure } from './expectations.ts';

export type { ClauseExpectation, EntryOutcome, EntryResult };

export function judgeExpectations(
  entries: readonly KnownFailure[],
  records: readonly CheckRecord[],
  status: ClauseStatus,
): ClauseExpectation {
  const failures = records.filter((r) => r.verdict === 'fail').map((r) => observationOf(r));
  const excusedBy = new Map<KnownFailure, number>();
  const unexcused: string[] = [];
  for (const f of failures) {
    const matching = entries.filter((e) => signatureMismatch(e.observed, f) === undefined);
    for (const e of matching) excusedBy.set(e, (excusedBy.get(e) ?? 0) + 1);
    if (matching.length === 0) {
      const why = entries.map((e) => `${showSignature(e.observed)}: not ${signatureMismatch(e.observed, f)}`).join('; ');
      unexcused.push(`${showObservation(f)} (excused: ${why})`);
    }
  }
  const conformed = new Map<string, number>();
  for (const r of records)
    if (r.verdict === 'pass') for (const [k, n] of Object.entries(r.inputs ?? {})) conformed.set(k, (conformed.get(k) ?? 0) + n);
  const failedInputs = new Set(failures.flatMap((f) => (f.input === undefined ? [] : [f.input])));

  const results = entries.map((e): EntryResult => {
    const base = { excuses: showSignature(e.observed), reason: e.reason, source: e.source, at: e.at };
    const n = excusedBy.get(e);
    if (n !== undefined) return { ...base, outcome: 'excused', detail: `${n} failure${n === 1 ? '' : 's'} with this observation` };
    const shown = gone(e, conformed, failedInputs);
    if (shown !== undefined) return { ...base, outcome: 'noLongerOccurs', detail: shown };
    return {
      ...base,
      outcome: 'notExercised',
      detail: `${status === 'failed' ? "not among this run's failures" : 'did not occur'}; ${whyNotGone(e, conformed, failedInputs)}`,
    };
  });
  return { regression: unexcused.length > 0, unexcused, entries: results };
}

/** Why no run can show the entry's departure gone, when one of its classes says so. */
function undecidable(e: KnownFailure): string | undefined {
  return (e.observed?.class ?? []).map((c) => (OBSERVATION_CLASSES[c] as ObservationClass).undecidable).find((u) => u !== undefined);
}

/** The input classes the entry's departure belongs to (none without a class: the run cannot tell). */
function inputsOf(e: KnownFailure): InputClass[] {
  return [...new Set((e.observed?.class ?? []).map(inputOf))];
}

/** Why the departure is shown gone (the inputs sent, answered right), or undefined when it is not. */
function gone(e: KnownFailure, conformed: ReadonlyMap<string, number>, failedInputs: ReadonlySet<string>): string | undefined {
  const inputs = inputsOf(e);
  if (inputs.length === 0 || (e.assumed?.length ?? 0) > 0 || undecidable(e) !== undefined) return undefined;
  if (!inputs.every((i) => (conformed.get(i) ?? 0) > 0 && !failedInputs.has(i))) return undefined;
  return `the run sent ${inputs.map((i) => `${INPUT_CLASSES[i]} (${conformed.get(i)} answer${conformed.get(i) === 1 ? '' : 's'})`).join(' and ')}, and the answers conformed`;
}

function whyNotGone(e: KnownFailure, conformed: ReadonlyMap<string, number>, failedInputs: ReadonlySet<string>): string {
  const inputs = inputsOf(e);
  if (inputs.length === 0) return 'the entry names no observation class, so the run cannot tell whether it sent the input behind it';
  const hidden = undecidable(e);
  if (hidden !== undefined) return `never reported gone: ${hidden}`;
  const missing = inputs.filter((i) => (conformed.get(i) ?? 0) === 0);
  const answeredOtherwise = inputs.filter((i) => failedInputs.has(i));
  if (answeredOtherwise.length > 0)
    return `the run sent ${answeredOtherwise.map((i) => INPUT_CLASSES[i]).join(' and ')}, answered with another failure`;
  if (missing.length > 0) return `the run sent no ${missing.map((i) => INPUT_CLASSES[i].replace(/^an? /, '')).join(', nor ')}`;
  return `the input was sent and answered right, but the run assumed ${e.assumed!.join(' and ')}`;
}

/**
 * True when some entry of the record's clause excuses this failure by its signature: such a failure is
 * known (not replayed before it is reported); any other failure of a listed clause is a regression.
 */
export function excusedFailure(entries: readonly KnownFailure[], r: CheckRecord): boolean {
  return (
    r.verdict === 'fail' && entries.some((e) => e.clause === r.clause && signatureMismatch(e.observed, observationOf(r)) === undefined)
  );
}

function observationOf(r: CheckRecord): Counterexample | { observed: string; input?: undefined } {
  return r.counterexample ?? { observed: r.note ?? '(no counterexample recorded)' };
}

/** A listed clause's entries with one outcome, in clause order: what every report lists. */
export interface ListedEntry {
  readonly clause: string;
  readonly entry: EntryResult;
}

export function entriesWith(
  clauses: readonly { readonly id: string; readonly expectation?: ClauseExpectation }[],
  outcome: EntryOutcome,
): ListedEntry[] {
  return clauses.flatMap((c) =>
    (c.expectation?.entries ?? []).filter((e) => e.outcome === outcome).map((entry) => ({ clause: c.id, entry })),
  );
}

/**
 * The shards of one run (`merge-reports`): an entry is excused if any shard saw its departure, else no
 * longer occurring if any shard showed it gone, else not exercised; a regression anywhere stays one.
 */
export function mergeClauseExpectations(parts: readonly ClauseExpectation[]): ClauseExpectation {
  const rank: Record<EntryOutcome, number> = { excused: 0, noLongerOccurs: 1, notExercised: 2 };
  const byEntry = new Map<string, EntryResult>();
  for (const p of parts) {
    for (const e of p.entries) {
      const key = `${e.at ?? ''}\u0000${e.excuses}\u0000${e.reason}`;
      const prior = byEntry.get(key);
      if (prior === undefined || rank[e.outcome] < rank[prior.outcome]) byEntry.set(key, e);
    }
  }
  return {
    regression: parts.some((p) => p.regression),
    unexcused: [...new Set(parts.flatMap((p) => p.unexcused))],
    entries: [...byEntry.values()],
  };
}
