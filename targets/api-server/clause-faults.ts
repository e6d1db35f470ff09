/**
 * Planted faults that give a passed clause a fault failing it (oracle strength: a pass means something
 * only if a server breaking exactly what the clause states fails it). Kept apart from faults.ts, which
 * spreads them into its table; `npm run fault-coverage` lists the passed clauses still without one.
 */
import type { Fault } from './faults.ts';

export const clauseFaults = [
  {
    name: 'table-default-columns-renamed',
    clause: 'rest:2.5.1',
    description: 'the default Table calls its second column "Age" (type date, the creationTimestamp in its cells) instead of "Created At"',
    checks: ['table-shape'],
    alsoReportedAs: [],
  },
  {
    name: 'watch-too-old-empty',
    clause: 'rest:6.1.3',
    description: 'a watch from a version older than the history is answered 200 with an empty stream that ends at once: the 410 Gone swallowed',
    checks: ['watch-too-old', 'watch-too-old-found'],
    alsoReportedAs: ['rest:7/410'],
  },
] as const satisfies readonly Fault[];
