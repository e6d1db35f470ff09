/**
 * Clause ids as a type: `ClauseId` is the union of every catalog id, generated from the
 * catalog into clause-ids.ts (`npm run gen:clause-ids`), so a misspelt literal id does not compile.
 *
 * Ids the model builds from one of its tables (a field of the node-agent configuration, a daemon
 * option, a cell of the rest:4.5 tables, a row of the rest:9.4 removals) go through `tableClauseId`:
 * those tables are what the catalog itself is built from, and test/unit/reference/clause-ids.test.ts checks
 * every built id against the catalog. Ids read from outside (an expectations file, a saved history)
 * go through `parseClauseId`, which checks.
 */
import type { ClauseId } from './clause-ids.ts';

export type { ClauseId } from './clause-ids.ts';

/** An id built from a table the catalog is built from (no runtime check: that would be a cycle). */
export const tableClauseId = (id: string): ClauseId => id as ClauseId;
