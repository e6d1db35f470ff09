/**
 * The exception a check throws when the target departs from the model. fast-check shrinks on it; the
 * runner turns the final (smallest) one into a counterexample. Everything in it is data.
 */
import type { Judgement } from '../../reference/judgement.ts';
import type { Exchange } from '../transport/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

/** A 5xx the case handed to its judges before it failed (harness/case/case-context.ts). */
export interface ServerErrorSeen {
  readonly request: string;
  readonly status: number;
  readonly repeated: boolean;
  /** The request itself, to send once more in the same state when the case has failed (runner/run-check.ts). */
  readonly sent?: import('../transport/index.ts').TargetRequest;
}

/**
 * Which recorded answers the failing judgements were made on, by exchange seq: `judged` the latest
 * answer when the judge ran, `pages` the pages of a paged list in order (what a need's `at` names).
 */
export interface AnswersJudged {
  readonly judged?: number;
  readonly pages?: readonly number[];
}

export class ClauseViolation extends Error {
  /**
   * `evidence`: plain JSON the model judged (a watch history), saved with the counterexample.
   * `serverErrors`: the 5xx answers the case judged; a failure that may rest on an unrepeated one is
   * replayed before it stands (runner/run-check.ts). `answersJudged`: which answers the judgements
   * were made on, so their needs can name requests of the counterexample.
   */
  constructor(
    readonly failures: readonly Judgement[],
    readonly exchanges: readonly Exchange[],
    readonly evidence?: unknown,
    readonly serverErrors: readonly ServerErrorSeen[] = [],
    readonly answersJudged: AnswersJudged = {},
  ) {
    super(failures.map((f) => `${f.clause}: expected ${f.expected}; observed ${f.observed}`).join('\n'));
    this.name = 'ClauseViolation';
  }

  /** An excused failure the case met before this one and went on past (harness/case/case-context.ts): reported too. */
  excusedEarlier?: ClauseViolation;
  /** The write's 5xx came again when the write was sent once more in the case's own state: an answer of that state. */
  repeatedInPlace?: true;
  /** How many of the case's described steps were begun when it failed (checks that send them one by one). */
  stepsSent?: number;
  /** The judge call of the check's journal that failed (harness/case/judge-record.ts). */
  journalEntry?: number;
}

/**
 * A check that cannot run against this target. `notChecked` (default): the suite could not decide
 * (no release reported, opaque versions...). `skipped`: the target does not offer an optional
 * capability the clauses are about (no CustomResourceDefinitions, a group version it does not serve).
 */
export class CheckNotApplicable extends Error {
  constructor(
    readonly clauses: readonly ClauseId[],
    readonly reason: string,
    readonly verdict: 'notChecked' | 'skipped' | 'inconclusive' = 'notChecked',
  ) {
    super(reason);
    this.name = 'CheckNotApplicable';
  }
}
