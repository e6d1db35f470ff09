/**
 * The shape of a planted fault of the reference node-agent loader: what both fault tables (faults.ts,
 * field-faults.ts) hold.
 */
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import type { DefaultChange } from './default-faults.ts';

export interface NodeagentFault {
  readonly name: string;
  /** Clauses a suite may report the fault under (the first is the one it breaks). */
  readonly clauses: readonly ClauseId[];
  readonly description: string;
  readonly skip?: readonly string[];
  /** The checks that can see it (a self-test runs only these). */
  readonly checks: readonly string[];
  /** A default the loader prints otherwise for a field left out (default-faults.ts). */
  readonly defaultChange?: DefaultChange;
}
