/**
 * Watch events for a client that asked for Tables (`kubectl get -w` sends the Table media type
 * first, then application/json): each event's object is a one-row Table with the same columns as
 * the list's Table, so kubectl keeps the header it printed for the list (it printed its own header
 * again when the events carried plain objects). BOOKMARK and ERROR events keep their objects (a
 * resourceVersion holder and a Status). Only where a list of the same collection is answered as a
 * Table (encodeResponse: the core router's types), so the list's header and the watch's columns agree.
 *
 * Upstream 1.24 sends the columns with the first event only (`columnDefinitions: null` after it).
 * Every event carries them here: kubectl drops the first event of a watch on one object, so against
 * upstream `kubectl get cm one --watch-only --output-watch-events` prints rows without their cells
 * (seen with kubectl 1.32); kubectl prints the header once either way (it reprints only on columns
 * that differ).
 *
 *   ADDED    {kind: Table, columnDefinitions: [Name, Created At], rows: [{cells: [a, ...]}]}
 *   MODIFIED {kind: Table, columnDefinitions: [Name, Created At], rows: [{cells: [a, ...]}]}
 */
import type { IncomingMessage } from 'node:http';
import { isRecord } from '../../reference/objects.ts';
import { chooseRepresentation, tableOf } from './negotiate.ts';
import { route } from './router.ts';
import type { ServerState } from './state.ts';
import type { WatchEvent } from './watch-event.ts';

/** The framing of every client that did not ask for Tables: events as they are. */
export const plainFraming = (ev: WatchEvent): WatchEvent => ev;

/** `plainFraming` for every other client, so their streams stay byte for byte what they were. */
export function watchFraming(st: ServerState, req: IncomingMessage): (ev: WatchEvent) => WatchEvent {
  const tables =
    route(st.profile, new URL(req.url ?? '/', 'http://reference').pathname).kind !== 'none' &&
    chooseRepresentation(st, req.headers.accept, 'list') === 'table';
  if (!tables) return plainFraming;
  return (ev) =>
    ev.type === 'BOOKMARK' || ev.type === 'ERROR' || !isRecord(ev.object) ? ev : { type: ev.type, object: tableOf(st, ev.object) };
}
