/**
 * A clause of the spec, as data (docs/architecture.md "Clause ids"). The catalog is the single list the report,
 * the coverage figures and the docs read.
 */
import type { ClauseId } from './clause-ids.ts';

export type SpecDoc = 'rest' | 'node';

export interface Clause {
  /** `rest:4.4.3`, `rest:4.5/list/unset/limit-continue/other`, `node:2.2/maxPods`. */
  readonly id: ClauseId;
  readonly doc: SpecDoc;
  /** Section number as printed in the spec: `4.4`. */
  readonly section: string;
  /** One line, in our words. */
  readonly summary: string;
  /**
   * `normative`: something a target can get wrong; `unspecified`: the spec says "not shown" (the report
   * records what the target did, never fails it); `informative`: description with nothing to check.
   */
  readonly kind: 'normative' | 'unspecified' | 'informative';
  /**
   * Why no black-box test can judge it (descriptive text, terminology, a "not shown" note with nothing to
   * record, an obligation of clients or of the release process): set exactly when `kind` is
   * `informative`. The report shows such a clause as informative with this reason, never as a gap.
   */
  readonly informative?: string;
  /** A normative clause no check judges yet: why not (the report's note on its `notChecked`). */
  readonly notCheckedWhy?: string;
}
