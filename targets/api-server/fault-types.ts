/**
 * The shape of a planted fault of the reference server and the names of the generated fault families:
 * the fault table (faults.ts), its clause faults (clause-faults.ts) and its families (fault-families.ts)
 * all describe faults of this shape, so it lives apart from each of them.
 */
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export interface Fault {
  readonly name: string;
  /** The clause the bug breaks. */
  readonly clause: ClauseId;
  readonly description: string;
  /** Checks that must catch it (the self-tests and `npm run mutation` run these). */
  readonly checks: readonly string[];
  /** Other clauses a correct report may name for the same bug (the cell and its meaning, say). */
  readonly alsoReportedAs: readonly ClauseId[];
  /**
   * Options of the embedded server the catching run needs besides the fault (the self-tests, `npm run
   * mutation` and the docs generator start it so): `release: '1.21'` where the bug can only show
   * through a group version removed at the default release (admissionregistration v1beta1).
   */
  readonly target?: { readonly release?: string };
}

/** The names of the faults generated one per row of a spec table (fault-families.ts). */
export type FamilyFaultName =
  | `removed-version-served/${string}`
  | `cell-misread/${string}`
  | `object-garbled/${string}`
  | `event-rule-skipped/${string}`;
