/**
 * A judgement is the model's verdict on one observation for one clause: as in Elle (`pass`, `fail`,
 * `unspecified` where the spec says "not shown" or has no row, `inconclusive` where the observation
 * cannot decide the clause). `expected` renders
 * the model's acceptable set; `observed` what the target did. Plain data: the harness records it and
 * the report formats it.
 */
import type { ClauseId } from './catalog/clause-ids.ts';
import type { JudgementValues } from './value-diff.ts';
import type { InputClass, ObservationClassName } from './observations.ts';
import type { AnswerNeed } from './answer-checks.ts';

export type { ClauseId } from './catalog/clause-ids.ts';

export interface Judgement extends JudgementValues, ObservationTags {
  readonly clause: ClauseId;
  readonly verdict: 'pass' | 'fail' | 'unspecified' | 'inconclusive';
  readonly expected: string;
  readonly observed: string;
  /**
   * For a failure: what a later answer to the same requests must do for the failure to be gone, as
   * data the standalone reproducer evaluates (reference/answer-checks.ts). Absent where the rule
   * rests on more than the answers (the model's history): the reproducer then cannot decide.
   */
  readonly needs?: readonly AnswerNeed[];
}

/**
 * What an expectations signature can match, and what a run exercised (reference/observations.ts): the
 * model's name for the kind of departure (on a failure), the kind of input judged (pass or fail), and
 * the status and Status reason of the answer where the judge saw them.
 */
export interface ObservationTags {
  readonly class?: ObservationClassName;
  readonly input?: InputClass;
  readonly observedStatus?: number;
  readonly observedReason?: string;
}
/** What a judge may attach to a failure: the compared values, their diff, and the answer needed. */
export type FailureValues = JudgementValues & { readonly needs?: readonly AnswerNeed[] };

// `values`: the compared values and their structured diff (reference/value-diff.ts), where objects are
// compared; data first, rendered by reports/. Optional, so every judge keeps its one-line prose.
export const pass = (clause: ClauseId, expected: string, observed = 'as expected', values?: JudgementValues): Judgement => ({
  clause,
  verdict: 'pass',
  expected,
  observed,
  ...values,
});
export const fail = (clause: ClauseId, expected: string, observed: string, values?: FailureValues): Judgement => ({
  clause,
  verdict: 'fail',
  expected,
  observed,
  ...values,
});
export const unspecified = (clause: ClauseId, expected: string, observed: string, values?: JudgementValues): Judgement => ({
  clause,
  verdict: 'unspecified',
  expected,
  observed,
  ...values,
});
/**
 * The observation cannot decide the clause: an eventual effect the spec bounds in no time did not show
 * within the window the run was given (the window is named in `expected`), or the target answered in a
 * way the spec allows but that proves nothing either way. Never a pass (Jepsen's `unknown`).
 */
export const inconclusive = (clause: ClauseId, expected: string, observed: string, values?: JudgementValues): Judgement => ({
  clause,
  verdict: 'inconclusive',
  expected,
  observed,
  ...values,
});

/** `check(cond, ...)`: pass when the condition holds, fail otherwise; keeps judges one line per rule. */
export function rule(clause: ClauseId, holds: boolean, expected: string, observed: string, values?: FailureValues): Judgement {
  return holds ? pass(clause, expected, observed) : fail(clause, expected, observed, values);
}

/**
 * The overall verdict of `js` also under `clause`: for a clause whose promise is exactly that the
 * judged behaviour works (a resumed watch is usable; `pretty` combined with `dryRun` changes nothing).
 * Failed if any failed, else inconclusive if any was, else passed.
 */
export function alsoAgainst(clause: ClauseId, expected: string, js: readonly Judgement[]): Judgement[] {
  const failed = js.filter((j) => j.verdict === 'fail');
  // The summary judgement is of the same input, and of the same kind of answer as its first failure.
  const input = js.find((j) => j.input !== undefined)?.input;
  // Nothing failed but something was left undecided (a stream that stopped short): the behaviour was
  // not seen to work, so the clause is not passed either.
  const undecided = js.filter((j) => j.verdict === 'inconclusive');
  if (failed.length === 0 && undecided.length > 0)
    return [...js, { ...inconclusive(clause, expected, undecided.map((j) => `${j.clause}: ${j.observed}`).join('; ')), input }];
  if (failed.length === 0) return [...js, { ...pass(clause, expected), input }];
  const { class: cls, observedStatus, observedReason } = failed[0]!;
  return [
    ...js,
    {
      ...fail(clause, expected, failed.map((j) => `${j.clause}: ${j.observed}`).join('; ')),
      input,
      class: cls,
      observedStatus,
      observedReason,
    },
  ];
}

/**
 * The judgements with their input class, and with `cls` on each failure (a pass keeps only the input:
 * it shows the input was sent and answered right). Status and reason are kept on failures only.
 *
 *   tagged([rule('rest:4.4.1', false, ...)], { input: 'limit-below-count', class: 'limit-ignored' })
 *     -> the failure carries both, so an entry excusing limit-ignored matches it
 */
export function tagged(js: readonly Judgement[], tags: ObservationTags): Judgement[] {
  const { class: cls, input, observedStatus, observedReason } = tags;
  return js.map((j) => {
    if (j.verdict === 'fail') {
      // The tags' input replaces the judge's own; its class, status and reason only fill what the judge left out.
      return {
        ...j,
        input: input ?? j.input,
        class: j.class ?? cls,
        observedStatus: j.observedStatus ?? observedStatus,
        observedReason: j.observedReason ?? observedReason,
      };
    }
    return j.verdict === 'pass' && input !== undefined ? { ...j, input } : j;
  });
}

/** The Status reason of an error answer's body (`{"kind":"Status","reason":"Invalid"}`), if any. */
export function statusReasonOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const r = (json as { reason?: unknown }).reason;
  return typeof r === 'string' && r !== '' ? r : undefined;
}

/** Thrown by the model for situations it deliberately does not model: reported as not checked. */
export class UnsupportedByModel extends Error {
  constructor(
    readonly clause: ClauseId,
    message: string,
  ) {
    super(message);
    this.name = 'UnsupportedByModel';
  }
}

/**
 * An effect the spec promises with no time bound, not seen within the window the suite waited: the
 * same inconclusive verdict under each clause that depends on it.
 */
export function notSeenWithin(clauses: readonly ClauseId[], effect: string, windowMs: number, observed: string): Judgement[] {
  return clauses.map((c) =>
    inconclusive(c, `${effect}, within the ${windowMs} ms the suite waited (--eventual-window widens it)`, observed),
  );
}
