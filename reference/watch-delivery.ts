/**
 * Whether a run saw watch delivery at all (rest:6.1.1: "Events itemize operations (create, delete,
 * update, apply) that happened after the requested resourceVersion").
 *
 * Section 6.1 fixes no time within which an event must arrive (only BOOKMARK is said to be optional:
 * "neither interval nor sending at all is guaranteed"), so a stream that stays silent past the window
 * the run gave it, the suite's marker write behind the case acknowledged, is never a failure: that
 * case is inconclusive (reference/watch-oracle.ts). A case that owed no event passes on a silent
 * stream too, and so a run whose every stream stayed silent read as rest:6.1.1 passed, conformant.
 * Across a run, though, a silence that covers every stream means the run did not test delivery: not
 * a failure (the spec gives no bound to break), but no pass either (docs/architecture.md "Verdicts beyond pass and fail":
 * a verdict the suite cannot reach is never a pass). A single stream that delivered an event (a slow watch cache behind a
 * balancer delivers late, not never) and the clause stands as its cases left it.
 */
export interface RunWatchDelivery {
  /** Watches answered 200. */
  readonly opened: number;
  /** Of those, streams that carried at least one ADDED, MODIFIED or DELETED event. */
  readonly delivering: number;
  /** rest:6.1.1 cases left inconclusive: their stream had not delivered what it owed when the window ran out. */
  readonly undelivered: number;
}

/**
 * The reason the run's watch delivery is undecided, or undefined when some stream delivered (or no
 * stream owed anything).
 *   { opened: 40, delivering: 0, undelivered: 25 } -> 'no watch stream of the run delivered an event ...'
 *   { opened: 40, delivering: 1, undelivered: 25 } -> undefined
 */
export function undecidedDelivery(d: RunWatchDelivery): string | undefined {
  if (d.opened === 0 || d.delivering > 0 || d.undelivered === 0) return undefined;
  return `rest:6.1.1 undecided: none of the ${d.opened} watch streams of the run delivered an event, and ${d.undelivered} case(s) waited out their window for events of writes the suite made (the spec fixes no delivery time: not a failure, but the run did not test delivery; --eventual-window widens the window)`;
}
