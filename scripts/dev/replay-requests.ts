/**
 * The bench's bare replay of a whole run (scripts/dev/bench-replay.ts): which of the run's exchanges
 * are replayed, in what order, and how each recorded request goes on the wire again. Pure: exchanges
 * in, requests out.
 *
 * The replay server is a fresh one with a token of its own, so the run's own identity (recorded as
 * `Bearer <redacted>`) is sent with the new token, and a request made with a token nobody issued keeps
 * one nobody issued. The replay server numbers its writes on its own, so a request naming a recorded
 * resourceVersion names the version the replay's answer carried in its place (learnVersions).
 */
import { queryToString, serialiseBody, type Exchange, type QueryPair } from '../../harness/transport/index.ts';

export interface ReplayRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  /**
   * A watch (a stream, or a watch read to its end): its headers are waited for, then it is closed. In
   * the run such a read ended when the writes of other checks did; replayed alone it would wait.
   */
  readonly stream: boolean;
}

/** Headers undici sets itself, or that belong to the recorded connection. */
const WIRE_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/** A token the replay server never issued: what a request with the `unknown` identity sent. */
export const UNISSUED_TOKEN = 'svc-conformance-replay-unissued';

/**
 * The exchanges sent to `server` that reached it (a transport failure is not replayed), in the order
 * they were sent.
 */
export function replayOrder(tapped: readonly (readonly [server: string, e: Exchange])[], server: string): Exchange[] {
  return tapped
    .filter(([s, e]) => s === server && e.response !== undefined)
    .map(([, e]) => e)
    .sort((a, b) => a.startedAtMs - b.startedAtMs || a.seq - b.seq);
}

/** The server most of the exchanges went to: the run's API server (the daemons' ports get a few). */
export function mainServer(tapped: readonly (readonly [server: string, e: Exchange])[]): string | undefined {
  const counts = new Map<string, number>();
  for (const [s] of tapped) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

export function replayRequest(e: Exchange, token: string | undefined, versions: ReadonlyMap<string, string>): ReplayRequest {
  const r = e.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers ?? {}))
    if (!WIRE_HEADERS.has(name) && name !== 'authorization') headers[name] = value;
  const auth = r.headers?.['authorization'];
  if (auth !== undefined) {
    if (r.identity === 'unknown') headers['authorization'] = `Bearer ${UNISSUED_TOKEN}`;
    else if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
  }
  const query = (r.query ?? []).map(([k, v]): QueryPair => [k, k === 'resourceVersion' && v !== null ? (versions.get(v) ?? v) : v]);
  const body = serialiseBody(r.body);
  const watch = query.some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));
  return { method: r.method, path: r.path + queryToString(query), headers, body, stream: r.stream === true || watch };
}

/** The resourceVersions an answer carries: its own, then its items' in order. */
export function versionsOf(json: unknown): string[] {
  const b = json as { metadata?: { resourceVersion?: unknown }; items?: { metadata?: { resourceVersion?: unknown } }[] } | undefined;
  return [b?.metadata?.resourceVersion, ...(Array.isArray(b?.items) ? b.items.map((it) => it?.metadata?.resourceVersion) : [])].filter(
    (v): v is string => typeof v === 'string',
  );
}

/** Pairs the recorded answer's versions with the replayed answer's, position by position. */
export function learnVersions(recorded: unknown, replayed: unknown, versions: Map<string, string>): void {
  const theirs = versionsOf(recorded);
  if (theirs.length === 0) return;
  versionsOf(replayed).forEach((v, i) => {
    const was = theirs[i];
    if (was !== undefined) versions.set(was, v);
  });
}
