/**
 * `?watch=1` on a collection (rest:4.3 watch, rest:4.5 watch table, rest:4.8 watch response, rest:6.1):
 * 200 with a chunked series of JSON event documents. State-starting watches begin with a synthetic
 * ADDED per existing object; Start at Exact sends only later changes; deletions are sent the upstream
 * way (DELETED with the last state), which the spec leaves open. Bookmarks only when asked.
 */
import { isRecord } from '../../reference/objects.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decideWatch, rvColumn } from '../../reference/rv-semantics.ts';
import { matchesLabels, parseLabelSelector } from '../../reference/label-selector.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { has, varies, type ServerState } from './state.ts';
import { lacks } from './partial-modes.ts';
import { present, scanPrefixFor } from './reads.ts';
import { fieldFilter } from './field-selectors.ts';
import { plainFraming, watchFraming } from './watch-table.ts';
import type { WatchEvent } from './watch-event.ts';
import { badRequest, statusAnswer, type Answer } from './status.ts';
import type { ChangeEvent, StoredObject } from './store.ts';
import { withoutGeneratedMetadata } from './setup-partial-modes.ts';

type Pairs = readonly (readonly [string, string | null])[];

/** Bytes a watch may have queued for a slow reader before the slow-watcher-gap fault drops events. */
const SLOW_WATCHER_BUFFER = 32 * 1024;
/** bookmark-ahead on a watch without bookmarks: events still reach it late (nothing to claim past them). */
const BOOKMARK_AHEAD_DELAY_MS = 300;
const WATCH_SHORT_TIMEOUT_MS = 50;

/**
 * Planted fault of clause-faults.ts on one event: an event's object of another kind. The initial
 * state's synthetic ADDED events pass through the same writer.
 */
function eventAsPlanted(st: ServerState, ev: WatchEvent): WatchEvent {
  if (st.faults.size === 0 || ev.type === 'BOOKMARK') return ev;
  if (has(st, 'watch-lowercase-types')) return { ...ev, type: ev.type.toLowerCase() as WatchEvent['type'] };
  if (has(st, 'watch-event-object-kind-wrong') && isRecord(ev.object))
    return { ...ev, object: { ...ev.object, kind: `${String(ev.object['kind'])}List` } };
  return ev;
}

/** Returns an Answer when the watch cannot start (it is then sent as a plain response). */
export async function serveWatch(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  pairs: Pairs,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Answer | undefined> {
  const param = (name: string) => pairs.find(([k]) => k === name)?.[1] ?? undefined;
  const rvText = param('resourceVersion');
  const bookmarks = (param('allowWatchBookmarks') === 'true' || has(st, 'bookmarks-unasked')) && !varies(st, 'no-bookmarks');
  const selText = param('labelSelector');
  const selector = selText === undefined ? undefined : parseLabelSelector(selText);
  if (selector && !selector.ok) return badRequest(`unable to parse requirement: ${selector.error}`);
  // kubectl get NAME --watch (and kubectl wait) watch with fieldSelector=metadata.name=NAME.
  const fields = fieldFilter(param('fieldSelector'), rt);
  if (typeof fields !== 'function') return badRequest(fields.error);
  const timeoutSeconds = Number(param('timeoutSeconds') ?? '0');
  const inScope = (o: StoredObject | null | undefined): o is StoredObject =>
    !!o &&
    fields(o) &&
    (selector === undefined || (selector.ok && matchesLabels(selector.selector, (o.metadata['labels'] ?? {}) as Record<string, string>)));
  const prefix = scanPrefixFor(st, rt, ns);
  // Planted fault watch-answers-400 (clause-faults.ts): watches of ConfigMaps refused.
  if (rt.plural === 'configmaps' && has(st, 'watch-answers-400'))
    return badRequest('watch is not supported for configmaps (planted fault)');
  // Planted fault bookmark-watch-refused (clause-faults.ts): the parameter taken for an unknown one.
  if (param('allowWatchBookmarks') !== undefined && has(st, 'bookmark-watch-refused'))
    return badRequest('unknown query parameter allowWatchBookmarks (planted fault)');

  // Hostile fault silent-watch: the stream opens and stays silent, however long the client waits.
  if (has(st, 'silent-watch')) {
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
    res.flushHeaders();
    return undefined;
  }
  const d = decideWatch(rvColumn(rvText));
  if (d.outcome !== 'serve') return badRequest('unsupported watch');
  let from = st.store.currentRevision;
  const initial: WatchEvent[] = [];
  if (d.semantic === 'StartAtExact') {
    const exact = startAtExact(st, rt, rvText, prefix, inScope, res);
    if ('answer' in exact) return exact.answer;
    from = exact.from;
    initial.push(...exact.initial);
  } else {
    if (d.semantic === 'GetStateAndStartAtAny' && varies(st, 'stale-any')) from = st.store.oldestRetained;
    if (!has(st, 'watch-no-synthetic-added')) {
      for (const e of st.store.list(prefix, from))
        if (inScope(e.obj)) initial.push({ type: 'ADDED', object: present(st, rt, e.obj, false) });
    }
  }
  return streamWatch(st, rt, req, res, { d, from, initial, bookmarks, inScope, prefix, timeoutSeconds });
}

/**
 * Start at Exact: the revision after which the watch starts (and the synthetic state a planted fault
 * sends), or what it answers instead: a 400, or `undefined` when the stream was already answered (a
 * too-old version's 410 in the stream, or a planted fault's empty stream).
 */
function startAtExact(
  st: ServerState,
  rt: ResourceType,
  rvText: string | undefined,
  prefix: string,
  inScope: WatchStart['inScope'],
  res: ServerResponse,
): { answer: Answer | undefined } | { from: number; initial: WatchEvent[] } {
  let from = st.store.currentRevision;
  const initial: WatchEvent[] = [];
  const rev = st.codec.parseRv(rvText!);
  if (rev === undefined) return { answer: badRequest(`invalid resource version ${JSON.stringify(rvText)}`) };
  // Planted fault watch-too-old-served-from-oldest: serves what it still has instead of 410.
  if (rev < st.store.oldestRetained && has(st, 'watch-too-old-served-from-oldest')) from = st.store.oldestRetained;
  else if (rev < st.store.oldestRetained && has(st, 'watch-too-old-empty')) {
    // Planted fault watch-too-old-empty: the 410 swallowed, an empty stream ended at once.
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
    res.end();
    return { answer: undefined };
  } else if (rev < st.store.oldestRetained) {
    // Upstream answers a too-old watch with an ERROR event carrying a 410 Status in a 200 stream.
    // Written as a stream event (compact, one line), not as a body: client-node's watch reads one JSON
    // document per line and missed the 410 when the pretty-json variation indented it.
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
    res.end(
      JSON.stringify({
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${rvText}`,
          reason: 'Expired',
          code: 410,
        },
      }) + '\n',
    );
    return { answer: undefined };
  } else from = exactStart(st, rev);
  if (has(st, 'watch-synthetic-on-exact')) {
    for (const e of st.store.list(prefix, Math.min(rev, st.store.currentRevision)))
      if (inScope(e.obj)) initial.push({ type: 'ADDED', object: present(st, rt, e.obj, false) });
  }
  return { from, initial };
}

/** Where a watch starts and what it sends: decided from its request before the stream opens. */
interface WatchStart {
  readonly d: Extract<ReturnType<typeof decideWatch>, { outcome: 'serve' }>;
  /** The revision the watch starts after. */
  readonly from: number;
  /** The synthetic ADDED events of the state at the start. */
  readonly initial: readonly WatchEvent[];
  readonly bookmarks: boolean;
  readonly inScope: (o: StoredObject | null | undefined) => o is StoredObject;
  /** The store keys of the watched collection. */
  readonly prefix: string;
  readonly timeoutSeconds: number;
}

/** Opens the stream and sends the state at the start, then follows the changes. */
async function streamWatch(
  st: ServerState,
  rt: ResourceType,
  req: IncomingMessage,
  res: ServerResponse,
  start: WatchStart,
): Promise<undefined> {
  const { d, from, initial, bookmarks } = start;
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
  // Headers go out now: a client waits for them before it writes what the watch should report.
  res.flushHeaders();
  let sent = 0;
  const frame = watchFraming(st, req);
  const write = (given: WatchEvent, shared?: ChangeEvent) => {
    sent++;
    let ev = eventAsPlanted(st, given);
    if (ev !== given) shared = undefined;
    if (has(st, 'watch-drop-events') && sent % 3 === 0) return;
    // A full send buffer (the client reads slowly) silently drops events instead of ending the watch.
    if (has(st, 'slow-watcher-gap') && ev.type !== 'BOOKMARK' && res.writableLength > SLOW_WATCHER_BUFFER) return;
    if (has(st, 'no-generated-metadata')) ev = withoutGeneratedMetadata(ev) as WatchEvent;
    const text =
      shared !== undefined && frame === plainFraming && !has(st, 'no-generated-metadata')
        ? sharedText(shared, rt, ev)
        : JSON.stringify(frame(ev)) + '\n';
    if (varies(st, 'watch-split-chunks')) {
      // Odd boundaries on purpose: a client must not assume one event per chunk.
      for (let i = 0; i < text.length; i += 7) res.write(text.slice(i, i + 7));
    } else res.write(text);
  };
  // bookmark-before-state: "all changes up to" the start revision claimed before the state is sent.
  if (has(st, 'bookmark-before-state') && bookmarks && initial.length > 0)
    write({ type: 'BOOKMARK', object: { kind: rt.kind, apiVersion: apiVersionOf(rt), metadata: { resourceVersion: st.codec.rv(from) } } });
  for (const ev of initial) write(ev);
  // bookmark-after-state: the promise holds at once (every change up to the start revision is in the
  // state just sent), and a change made while watching then comes after the bookmark.
  if (varies(st, 'bookmark-after-state') && bookmarks && d.semantic !== 'StartAtExact')
    write({ type: 'BOOKMARK', object: { kind: rt.kind, apiVersion: apiVersionOf(rt), metadata: { resourceVersion: st.codec.rv(from) } } });
  return followChanges(st, rt, req, res, start, write);
}

/**
 * Until the client goes or the request's timeoutSeconds pass; `short` (a legal variation): the server ends
 * every watch soon, as upstream ends each at its request timeout (rest:6.1 bounds no stream's length; a
 * client watches again from its last version).
 */
function watchEnded(req: IncomingMessage, res: ServerResponse, timeoutSeconds: number, short: boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const end = () => resolve();
    req.once('close', end);
    res.once('close', end);
    if (timeoutSeconds > 0) setTimeout(end, timeoutSeconds * 1000);
    if (short) setTimeout(end, WATCH_SHORT_TIMEOUT_MS).unref();
  });
}

/** Sends every change after the start as it is made (and bookmarks, when asked) until the watch ends. */
async function followChanges(
  st: ServerState,
  rt: ResourceType,
  req: IncomingMessage,
  res: ServerResponse,
  { from, bookmarks, inScope, prefix, timeoutSeconds }: WatchStart,
  write: (given: WatchEvent, shared?: ChangeEvent) => void,
): Promise<undefined> {
  let cursor = from;
  let held: WatchEvent | undefined;
  const toEvent = (c: ChangeEvent): WatchEvent | undefined => {
    const was = inScope(c.before);
    const is = inScope(c.after);
    if (!was && !is) return undefined;
    if (!is) {
      const last = c.before!;
      return {
        type: 'DELETED',
        object: present(st, rt, { ...last, metadata: { ...last.metadata, resourceVersion: st.codec.rv(c.rev) } }, false),
      };
    }
    return { type: was ? 'MODIFIED' : 'ADDED', object: present(st, rt, c.after!, false) };
  };
  const flush = () => {
    for (const c of st.store.changesAfter(cursor)) {
      cursor = c.rev;
      if (!c.key.startsWith(prefix)) continue;
      const ev = toEvent(c);
      if (!ev) continue;
      if (has(st, 'watch-reorder-events')) {
        // Holds every other event back and sends it after the next one.
        if (held) {
          write(ev);
          write(held);
          held = undefined;
        } else held = ev;
      } else write(ev, c);
    }
  };
  // Partial mode watch-delivery: the state was sent; no change after the start ever is.
  if (lacks(st, 'watch-delivery')) {
    await watchEnded(req, res, timeoutSeconds, false);
    if (!res.writableEnded) res.end();
    return undefined;
  }
  flush();
  // bookmark-ahead: bookmarks claim the newest revision, and the events they claim are sent only after
  // the bookmark (not after a delay raced against the bookmark timer, which a starved event loop lost):
  // every change made while the watch is open reaches it behind a bookmark past it.
  const ahead = has(st, 'bookmark-ahead');
  const unsubscribe = st.store.subscribe(
    ahead ? (bookmarks ? () => undefined : () => void setTimeout(flush, BOOKMARK_AHEAD_DELAY_MS)) : flush,
  );
  const bookmark = () => {
    const object: Record<string, unknown> = {
      kind: rt.kind,
      apiVersion: apiVersionOf(rt),
      metadata: { resourceVersion: st.codec.rv(ahead ? st.store.currentRevision : cursor) },
    };
    if (has(st, 'bookmark-extra-fields')) (object['metadata'] as Record<string, unknown>)['name'] = 'bookmark';
    write({ type: 'BOOKMARK', object });
    if (ahead) flush();
  };
  const timer = bookmarks ? setInterval(bookmark, st.bookmarkIntervalMs) : undefined;
  await watchEnded(req, res, timeoutSeconds, varies(st, 'watch-short-timeout'));
  unsubscribe();
  if (timer) clearInterval(timer);
  // bookmark-ahead: what the last bookmark claimed still reaches a watch its server ends.
  if (ahead && !res.writableEnded && !res.destroyed) flush();
  if (!res.writableEnded) res.end();
  return undefined;
}

/**
 * The text of a change's event as a plain-framed watch of `rt` sends it, made once for all of them: an
 * event is the same bytes for every such watcher (its type, the object as `rt` presents it), and
 * serialising a large object once per watcher was most of a busy watch's cost.
 */
const texts = new Map<ChangeEvent, Map<string, string>>();
/** Watchers are flushed right after each write, so only the newest changes' texts are asked for again. */
const TEXTS_KEPT = 64;
function sharedText(c: ChangeEvent, rt: ResourceType, ev: WatchEvent): string {
  let byWatcher = texts.get(c);
  if (!byWatcher) {
    if (texts.size >= TEXTS_KEPT) texts.delete(texts.keys().next().value!);
    texts.set(c, (byWatcher = new Map()));
  }
  const key = `${ev.type} ${rt.group}/${rt.version}/${rt.plural}/${rt.kind}`;
  let text = byWatcher.get(key);
  if (text === undefined) byWatcher.set(key, (text = JSON.stringify(ev) + '\n'));
  return text;
}

/** Where a Start at Exact watch begins: after `rev`, unless a planted fault moves it. */
function exactStart(st: ServerState, rev: number): number {
  const now = st.store.currentRevision;
  // A version not reached yet read as "from now on".
  if (has(st, 'watch-future-as-now') && rev > now) return now;
  // Replaying history for an older version reads "changes since rv" inclusively.
  if (has(st, 'watch-exact-inclusive') && rev < now) return Math.max(st.store.oldestRetained, rev - 1);
  return rev;
}

export const notWatchable = (): Answer => statusAnswer(405, 'MethodNotAllowed', 'watch is a GET on a collection');
