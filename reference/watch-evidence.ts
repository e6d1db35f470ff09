/**
 * A watch's recorded history as plain JSON, saved with a failing counterexample
 * (`results/histories/<check>-<clause>.json`) so it can be judged again later, by a newer model,
 * without the target: `recheckWatchEvidence(JSON.parse(file))`.
 */
import { visibleObjects, type History, type Snapshot } from './history.ts';
import { canonical, type ObjectVersion, type ObservedObject } from './objects.ts';
import { judgeWatch, type ObservedEvent, type WatchExpectation } from './watch-oracle.ts';
import { judgeInformer } from './watch-recovery.ts';
import type { Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';

export const WATCH_EVIDENCE_FORMAT = 'svc-conformance/watch-history@1';

export interface WatchEvidence {
  readonly format: typeof WATCH_EVIDENCE_FORMAT;
  /** The namespace the watch covered: the suite's objects in it are in scope. */
  readonly namespace: string;
  readonly knownKeys: readonly string[];
  readonly expectation: WatchExpectation;
  readonly history: {
    readonly snapshots: readonly {
      readonly index: number;
      readonly rv: string | null;
      readonly atMs: number;
      readonly objects: readonly ObjectVersion[];
    }[];
    readonly rvIndex: readonly (readonly [string, number])[];
    readonly tainted: readonly string[];
    readonly everKeys: readonly string[];
  };
  readonly events: readonly ObservedEvent[];
  /** For the informer property: the lists before and after the watch. */
  readonly lists?: { readonly list0: readonly ObservedObject[]; readonly list1: readonly ObservedObject[]; readonly clause: ClauseId };
}

export function watchEvidence(
  ctx: { history: History; knownKeys: ReadonlySet<string>; namespace: string },
  expectation: WatchExpectation,
  events: readonly ObservedEvent[],
  lists?: WatchEvidence['lists'],
): WatchEvidence {
  const h = ctx.history;
  return {
    format: WATCH_EVIDENCE_FORMAT,
    namespace: ctx.namespace,
    knownKeys: [...ctx.knownKeys],
    expectation,
    history: {
      snapshots: h.snapshots.map((s) => ({ index: s.index, rv: s.rv ?? null, atMs: s.atMs, objects: [...s.objects.values()] })),
      rvIndex: [...h.rvIndex],
      tainted: [...h.tainted],
      everKeys: [...h.everKeys],
    },
    events: events.map((e) => ({ type: e.type, object: e.object, raw: e.raw })),
    lists,
  };
}

export function historyOfEvidence(e: WatchEvidence): History {
  // The model tells an unchanged object by identity: one instance per distinct version, as recorded.
  const interned = new Map<string, ObjectVersion>();
  const intern = (o: ObjectVersion) => {
    const k = canonical(o);
    if (!interned.has(k)) interned.set(k, o);
    return interned.get(k)!;
  };
  const snapshots: Snapshot[] = e.history.snapshots.map((s) => ({
    index: s.index,
    rv: s.rv ?? undefined,
    atMs: s.atMs,
    objects: new Map(s.objects.map((o) => [o.key, intern(o)])),
  }));
  return { snapshots, rvIndex: new Map(e.history.rvIndex), tainted: new Set(e.history.tainted), everKeys: new Set(e.history.everKeys) };
}

/** Judges saved evidence again with the current model. */
export function recheckWatchEvidence(e: WatchEvidence): Judgement[] {
  if (e.format !== WATCH_EVIDENCE_FORMAT) throw new Error(`not a watch history: format ${JSON.stringify(e.format)}`);
  const history = historyOfEvidence(e);
  const inScope = (v: ObjectVersion) => v.namespace === e.namespace;
  const js = judgeWatch(
    { history, knownKeys: new Set(e.knownKeys), inScope, scope: { namespace: e.namespace } },
    e.expectation,
    e.events,
  ).judgements;
  if (e.lists) {
    const isOurs = (k: string) => history.everKeys.has(k) && !history.tainted.has(k);
    const now = visibleObjects(history, history.snapshots.length - 1).filter(inScope);
    js.push(...judgeInformer({ ...e.lists, events: e.events, now, isOurs }));
  }
  return js;
}
