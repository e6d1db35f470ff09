/**
 * A watch as the suite runs it: open the stream, read events in the background while the case goes
 * on writing, wait until what arrived accounts for every write (or a bound passes), then close and
 * hand the events to the model. The stream is parsed by document, never by chunk.
 */
import { JsonDocumentStream } from '../transport/index.ts';
import { readObject, type ObservedObject } from '../../reference/objects.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { unreadableEvent, type ObservedEvent } from '../../reference/watch-oracle.ts';
import type { QueryPair, StreamResponse } from '../transport/index.ts';
import type { CaseContext } from '../case/index.ts';
import { CheckNotApplicable } from '../case/index.ts';
import { currentIndex, visibleObjects, type History } from '../../reference/history.ts';
import { eventualWindowOf } from '../case/index.ts';

export interface WatchSession {
  readonly status: number;
  readonly events: ObservedEvent[];
  /** Set when the body stopped being JSON documents. */
  readonly parseError: () => string | undefined;
  /** True once the server ended the body (a 410 answer, a timeout). */
  readonly ended: () => boolean;
  /**
   * Why the stream stopped being readable as the spec's events (an unknown spelling of a type, an
   * object that is no JSON object, a body that is no JSON), or undefined: once set, no wait goes on.
   */
  readonly unreadable: () => string | undefined;
  /** The watched collection, where a marker write lands in the stream's scope. */
  readonly rt: ResourceType;
  readonly path: string;
  /** Index of each resource's history when the watch was opened: writes after it are the ones it must deliver in order. */
  readonly openedAt: ReadonlyMap<string, number>;
  /** Waits until `done(events)` holds or `ms` pass; true if it held. */
  until(done: (events: readonly ObservedEvent[]) => boolean, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openWatch(cx: CaseContext, rt: ResourceType, path: string, query: readonly QueryPair[]): Promise<WatchSession> {
  const target = cx.env.target;
  if (!target.openStream) throw new CheckNotApplicable(['rest:4.3/watch'], 'the target client cannot stream responses');
  const openedAt = new Map([...cx.histories].map(([r, h]) => [r, currentIndex(h)] as const));
  const res: StreamResponse = await target.openStream({ method: 'GET', path, query: [['watch', '1'], ...query] });
  const events: ObservedEvent[] = [];
  const parser = new JsonDocumentStream();
  let wake: (() => void) | undefined;
  let ended = false;
  let unreadable: string | undefined;
  const reading = (async () => {
    if (res.status !== 200) return;
    for await (const chunk of res.chunks) {
      for (const doc of parser.push(chunk)) {
        const d = (typeof doc === 'object' && doc !== null ? doc : {}) as { type?: unknown; object?: unknown };
        const object: ObservedObject = readObject(rt, d.object);
        events.push({ type: d.type, object, raw: d.object });
        unreadable ??= unreadableEvent({ type: d.type, raw: d.object });
      }
      unreadable ??= parser.error;
      wake?.();
    }
  })().finally(() => {
    ended = true;
    wake?.();
  });
  return {
    status: res.status,
    rt,
    path,
    openedAt,
    events,
    parseError: () => parser.error,
    ended: () => ended,
    unreadable: () => unreadable,
    async until(done, ms) {
      const deadline = cx.env.now() + ms;
      while (!done(events)) {
        if (ended || unreadable !== undefined) return false;
        const left = deadline - cx.env.now();
        if (left <= 0) return false;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.min(left, 50));
        });
      }
      return true;
    },
    async close() {
      res.close();
      await reading.catch(() => undefined);
    },
  };
}

/**
 * The suite's view of what a stream delivered so far, replayed onto a starting state: key -> rv.
 * Used only to decide when to stop waiting; the verdict comes from the model.
 */
export function replayedState(
  start: ReadonlyMap<string, string>,
  events: readonly ObservedEvent[],
  isOurs: (key: string) => boolean,
): Map<string, string> {
  const state = new Map(start);
  for (const e of events) {
    if (e.type === 'BOOKMARK' || !isOurs(e.object.key)) continue;
    if (e.type === 'ADDED' || e.type === 'MODIFIED') state.set(e.object.key, String(e.object.rv));
    else state.delete(e.object.key);
  }
  return state;
}

/** Whether a stream accounted for every write, and if not, why the observation stopped (the oracle's `cutOff`). */
export interface CatchUp {
  readonly caughtUp: boolean;
  readonly cutOff?: string;
}

/**
 * Where a watch's stream starts: at a snapshot of the history (it named that snapshot's resourceVersion,
 * so it owes every write after it, those made before it opened too), or at the state the server holds
 * when it opens (no resourceVersion, or `0`: synthetic ADDED events, then the writes after it opened).
 */
export type WatchStart = { readonly snapshot: number } | 'current state';

/**
 * Waits until the stream accounts for every write of the history since `from`, then a little longer so
 * a duplicate or stray event is seen too. The spec bounds no delivery time: the wait is the run's
 * eventual window, and a stream that has not caught up by then is handed to the oracle as cut off (a
 * missing tail is inconclusive there, not a failure). `namespace`: the watch covers one namespace of
 * several the case wrote in; only its writes are awaited.
 */
export async function waitCaughtUp(
  cx: CaseContext,
  session: WatchSession,
  res: string,
  from: WatchStart,
  namespace?: string,
): Promise<CatchUp> {
  const h = cx.history(res);
  const within = (key: string) => namespace === undefined || key.startsWith(`${namespace}/`);
  const isOurs = (key: string) => h.everKeys.has(key) && !h.tainted.has(key) && within(key);
  const target = new Map(
    visibleObjects(h, currentIndex(h))
      .filter((v) => within(v.key))
      .map((v) => [v.key, v.rv]),
  );
  const same = (a: Map<string, string>) => a.size === target.size && [...target].every(([k, v]) => a.get(k) === v);
  const windowMs = eventualWindowOf(cx.env);
  // A watch from a snapshot owes the writes made before it was opened too: a resumed watch whose gap
  // writes created and deleted an object (state unchanged) and then nothing else looked caught up with no
  // event at all, and was judged at once, so a slow or silent stream failed rest:6.1.1 ("missing ADDED")
  // instead of being waited for.
  const start =
    from === 'current state' ? new Map<string, string>() : new Map(visibleObjects(h, from.snapshot).map((v) => [v.key, v.rv] as const));
  const expected = writesAfter(h, from === 'current state' ? (session.openedAt.get(res) ?? 0) : from.snapshot, isOurs);
  let decided: string | undefined;
  let marker: string | undefined;
  // The state alone is not enough: a create then a delete (or writes that restore a value) leave it as
  // it was, so a silent stream would look caught up; every write the watch owes must have arrived too.
  const delivered = (evs: readonly ObservedEvent[]) =>
    expected.every((rv) => evs.some((e) => (e.type === 'ADDED' || e.type === 'MODIFIED') && String(e.object.rv) === rv));
  const caughtUpWith = (evs: readonly ObservedEvent[]) => same(replayedState(start, evs, isOurs)) && delivered(evs);
  const done = (evs: readonly ObservedEvent[]) =>
    caughtUpWith(evs) ||
    (decided = orderBroken(expected, evs)) !== undefined ||
    (marker !== undefined && evs.some((e) => e.type === 'ADDED' && e.object.name === marker));
  const t0 = cx.env.now();
  const broken = () => {
    const why = session.unreadable();
    return why === undefined ? undefined : { caughtUp: false, cutOff: `the suite stopped waiting once the stream had decided (${why})` };
  };
  let caughtUp = await session.until(done, Math.min(windowMs, MARKER_AFTER_MS));
  if (broken() !== undefined) return broken()!;
  if (!caughtUp && !session.ended()) {
    marker = await writeMarker(cx, session);
    caughtUp = await session.until(done, Math.max(0, windowMs - (cx.env.now() - t0)));
    if (broken() !== undefined) return broken()!;
  }
  if (decided !== undefined) return { caughtUp: false, cutOff: `the suite stopped waiting once the stream had decided (${decided})` };
  // Everything before the marker was delivered, if the stream is ordered: what is missing is a gap.
  if (caughtUp && !caughtUpWith(session.events)) return { caughtUp: false };
  await session.until(() => false, caughtUp ? 100 : 0);
  if (caughtUp) return { caughtUp };
  return {
    caughtUp,
    cutOff: session.ended() ? 'the server ended the stream' : `the suite waited ${windowMs} ms for the rest (--eventual-window widens it)`,
  };
}

/** How long a stream gets to catch up before the suite writes a marker behind the case's writes. */
const MARKER_AFTER_MS = 300;
let markers = 0;

/**
 * A write the model does not know (a foreign object to the oracle) made after the case's sequence, in
 * the watch's scope: in an ordered stream (rest:6.1.1) its event comes after every event of the
 * sequence, so once it arrives nothing of the sequence is still on its way and the wait ends instead
 * of running out its window. The pool deletes it with the case's objects. Undefined if not stored.
 */
async function writeMarker(cx: CaseContext, session: WatchSession): Promise<string | undefined> {
  const name = `zz-marker-${process.pid}-${++markers}`;
  const kind = session.rt.kind;
  const body = {
    apiVersion: apiVersionOf(session.rt),
    kind,
    metadata: { name, labels: cx.ownLabels },
    ...(kind === 'ConfigMap' ? { data: {} } : {}),
  };
  try {
    const r = await cx.env.target.send({ method: 'POST', path: session.path, body });
    return r.status >= 200 && r.status < 300 ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resourceVersions of the suite's own creates and updates made after the watch opened, in the order
 * the target acknowledged them (the suite serializes its writes). Removals are left out: the rv a
 * DELETED event carries need not be the one the delete answered.
 */
export function writesAfter(h: History, openedIndex: number, isOurs: (key: string) => boolean): string[] {
  const out: string[] = [];
  for (const snap of h.snapshots.slice(openedIndex + 1)) {
    const prev = h.snapshots[snap.index - 1]!;
    const changed = [...snap.objects].find(([k, v]) => prev.objects.get(k) !== v);
    // A write that left the object as it was (same rv: a no-op update) sends no event.
    if (
      changed &&
      snap.rv !== undefined &&
      isOurs(changed[0]) &&
      changed[1].rv === snap.rv &&
      prev.objects.get(changed[0])?.rv !== snap.rv &&
      !out.includes(snap.rv)
    )
      out.push(snap.rv);
  }
  return out;
}

/**
 * A stream that already broke the order the spec requires (rest:6.1.1: every change, in order, once)
 * need not be waited on: no later event can mend it. Said when an event of one of `expected` arrives
 * after a later one (disorder, or a repeat), or while an earlier one is still missing (a gap: in an
 * ordered stream it can no longer come).
 *   expected [a, b, c]; events a, c -> 'b was skipped: c came first';  events b, a -> 'a came after b'
 */
export function orderBroken(expected: readonly string[], events: readonly ObservedEvent[]): string | undefined {
  const position = new Map(expected.map((rv, i) => [rv, i] as const));
  let last = -1;
  for (const e of events) {
    const p = e.type === 'ADDED' || e.type === 'MODIFIED' ? position.get(String(e.object.rv)) : undefined;
    if (p === undefined) continue;
    if (p <= last) return `the event of resourceVersion ${expected[p]} came after that of ${expected[last]}`;
    if (p > last + 1) return `the event of resourceVersion ${expected[last + 1]} was skipped: ${expected[p]} came first`;
    last = p;
  }
  return undefined;
}
