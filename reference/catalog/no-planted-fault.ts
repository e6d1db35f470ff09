/**
 * Passed clauses that no planted fault of the reference targets can fail, and why (oracle strength:
 * every clause a default run passes either has a planted fault that fails it under that clause, or a
 * reason here). Read by `npm run fault-coverage` (scripts/dev/fault-coverage.ts), which lists the
 * passed clauses with neither.
 *
 * A reason must say why a server that breaks exactly what the clause states cannot be planted, or why
 * such a server would fail another clause first; "not done yet" is not a reason (those stay listed as
 * missing).
 */
import type { ClauseId } from './clause-ids.ts';

export const noPlantedFaultReasons: Readonly<Partial<Record<ClauseId, string>>> = {};
