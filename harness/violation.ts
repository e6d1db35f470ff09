/**
 * The exception a check throws when the target departs from the model. fast-check shrinks on it; the
 * runner turns the final (smallest) one into a counterexample. Everything in it is data.
 */
import type { Judgement } from '../reference/judgement.ts';
import type { Exchange } from './exchange.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export class ClauseViolation extends Error {
  /** `evidence`: plain JSON the model judged (a watch history), saved with the counterexample. */
  constructor(readonly failures: readonly Judgement[], readonly exchanges: readonly Exchange[], readonly evidence?: unknown) {
    super(failures.map((f) => `${f.clause}: expected ${f.expected}; observed ${f.observed}`).join('\n'));
    this.name = 'ClauseViolation';
  }
}

/**
 * A check that cannot run against this target. `notChecked` (default): the suite could not decide
 * (no release reported, opaque versions...). `skipped`: the target does not offer an optional
 * capability the clauses are about (no CustomResourceDefinitions, a group version it does not serve).
 */
export class CheckNotApplicable extends Error {
  constructor(readonly clauses: readonly ClauseId[], readonly reason: string, readonly verdict: 'notChecked' | 'skipped' = 'notChecked') {
    super(reason);
    this.name = 'CheckNotApplicable';
  }
}
