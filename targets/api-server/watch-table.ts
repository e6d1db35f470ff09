/**
 * Watch events for a client that asked for Tables (`kubectl get -w` sends the Table media type
 * first, then application/json). As upstream kube-apiserver 1.24 frames them: each event's object is
 * a one-row Table; the first carries the column definitions, every later one `columnDefinitions:
 * null`, so kubectl keeps the header it printed for the list instead of printing its own again.
 * BOOKMARK and ERROR events keep their objects (a resourceVersion holder and a Status). Only where
 * a list of the same collection is answered as a Table (encodeResponse: the core router's types), so
 * the header kubectl printed for the list and the watch's columns are the same ones.
 *
 *   ADDED   {kind: Table, columnDefinitions: [Name, Created At], rows: [{cells: [a, ...]}]}
 *   MODIFIED {kind: Table, columnDefinitions: null, rows: [{cells: [a, ...]}]}
 */
import type { IncomingMessage } from 'node:http';
import { isRecord } from '../../reference/objects.ts';
import { chooseRepresentation, tableOf } from './negotiate.ts';
import { route } from './router.ts';
import type { ServerState } from './state.ts';
import type { WatchEvent } from './watch.ts';

/** The identity for every other client, so their streams stay byte for byte what they were. */
export function watchFraming(st: ServerState, req: IncomingMessage): (ev: WatchEvent) => WatchEvent {
  const tables = route(st.profile, new URL(req.url ?? '/', 'http://reference').pathname).kind !== 'none' && chooseRepresentation(st, req.headers.accept, 'list') === 'table';
  if (!tables) return (ev) => ev;
  let headed = false;
  return (ev) => {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR' || !isRecord(ev.object)) return ev;
    const table = tableOf(st, ev.object);
    if (headed) table['columnDefinitions'] = null;
    headed = true;
    return { type: ev.type, object: table };
  };
}
