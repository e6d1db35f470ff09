/**
 * A watch as the suite runs it: open the stream, read events in the background while the case goes
 * on writing, wait until what arrived accounts for every write (or a bound passes), then close and
 * hand the events to the model. The stream is parsed by document, never by chunk.
 */
import { JsonDocumentStream } from './json-stream.ts';
import { readObject, type ObservedObject } from '../reference/objects.ts';
import type { ResourceType } from '../reference/resources.ts';
import type { ObservedEvent } from '../reference/watch-oracle.ts';
import type { QueryPair, StreamResponse } from './exchange.ts';
import type { CaseContext } from './case-context.ts';
import { CheckNotApplicable } from './violation.ts';
import { currentIndex, visibleObjects } from '../reference/history.ts';
import { eventualWindowOf } from './check.ts';

export interface WatchSession {
  readonly status: number;
  readonly events: ObservedEvent[];
  /** Set when the body stopped being JSON documents. */
  readonly parseError: () => string | undefined;
  /** True once the server ended the body (a 410 answer, a timeout). */
  readonly ended: () => boolean;
  /** Waits until `done(events)` holds or `ms` pass; true if it held. */
  until(done: (events: readonly ObservedEvent[]) => boolean, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openWatch(cx: CaseContext, rt: ResourceType, path: string, query: readonly QueryPair[]): Promise<WatchSession> {
  const target = cx.env.target;
  if (!target.openStream) throw new CheckNotApplicable(['rest:4.3/watch'], 'the target client cannot stream responses');
  const res: StreamResponse = await target.openStream({ method: 'GET', path, query: [['watch', '1'], ...query] });
  const events: ObservedEvent[] = [];
  const parser = new JsonDocumentStream();
  let wake: (() => void) | undefined;
  let ended = false;
  const reading = (async () => {
    if (res.status !== 200) return;
    for await (const chunk of res.chunks) {
      for (const doc of parser.push(chunk)) {
        const d = (typeof doc === 'object' && doc !== null ? doc : {}) as { type?: unknown; object?: unknown };
        const object: ObservedObject = readObject(rt, d.object);
        events.push({ type: d.type, object, raw: d.object });
      }
      wake?.();
    }
  })().finally(() => {
    ended = true;
    wake?.();
  });
  return {
    status: res.status,
    events,
    parseError: () => parser.error,
    ended: () => ended,
    async until(done, ms) {
      const deadline = cx.env.now() + ms;
      while (!done(events)) {
        if (ended) return false;
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
export function replayedState(start: ReadonlyMap<string, string>, events: readonly ObservedEvent[], isOurs: (key: string) => boolean): Map<string, string> {
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
 * Waits until the stream accounts for every write of the history (replayed onto `start`, the state
 * the watch began from), then a little longer so a duplicate or stray event is seen too. The spec
 * bounds no delivery time: the wait is the run's eventual window, and a stream that has not caught up
 * by then is handed to the oracle as cut off (a missing tail is inconclusive there, not a failure).
 */
export async function waitCaughtUp(cx: CaseContext, session: WatchSession, res: string, start: ReadonlyMap<string, string>, namespace?: string): Promise<CatchUp> {
  const h = cx.history(res);
  // `namespace`: the watch covers one namespace of several the case wrote in; only its writes are awaited.
  const within = (key: string) => namespace === undefined || key.startsWith(`${namespace}/`);
  const isOurs = (key: string) => h.everKeys.has(key) && !h.tainted.has(key) && within(key);
  const target = new Map(visibleObjects(h, currentIndex(h)).filter((v) => within(v.key)).map((v) => [v.key, v.rv]));
  const same = (a: Map<string, string>) => a.size === target.size && [...target].every(([k, v]) => a.get(k) === v);
  const windowMs = eventualWindowOf(cx.env);
  const caughtUp = await session.until((evs) => same(replayedState(start, evs, isOurs)), windowMs);
  await session.until(() => false, caughtUp ? 100 : 0);
  if (caughtUp) return { caughtUp };
  return { caughtUp, cutOff: session.ended() ? 'the server ended the stream' : `the suite waited ${windowMs} ms for the rest (--eventual-window widens it)` };
}
