/**
 * The read oracle (reference/read-oracle.ts) over a read's scope as plain data, for the run's record
 * (reference/judges.ts): the namespaces and selector a read covered instead of a predicate, and of the
 * versions from before the case only those the answer showed. Same verdicts as the oracle on the
 * context the harness would build.
 */
import { currentIndex, visibleObjects, type History } from './history.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { judgeRelistedWatch } from './watch-recovery.ts';
import { matchesLabels, parseLabelSelector } from './label-selector.ts';
import type { ObservedObject } from './objects.ts';
import {
  judgeGet,
  judgeListSnapshot,
  judgeNotCaughtUp,
  judgePages,
  type ReadContext,
  type ReadExpectation,
  type ObservedPage,
} from './read-oracle.ts';
import type { RequestScope } from './scope.ts';
import { judgeFinishedWatch, judgeWatch, type ObservedEvent, type WatchExpectation } from './watch-oracle.ts';

export interface ReadScope {
  readonly history: History;
  readonly knownKeys: ReadonlySet<string>;
  /** The namespaces the read covered; an object elsewhere is not the read's. */
  readonly namespaces: readonly string[];
  readonly selector?: string;
  /** Versions from before the case among those the answer showed (the oracle asks only about those). */
  readonly priorVersions?: ReadonlySet<string>;
  readonly scope?: RequestScope;
}

export function readContextOf(d: ReadScope): ReadContext {
  const parsed = d.selector === undefined ? undefined : parseLabelSelector(d.selector);
  if (parsed && !parsed.ok) throw new Error(`generator produced an invalid selector ${d.selector}: ${parsed.error}`);
  return {
    history: d.history,
    knownKeys: d.knownKeys,
    priorVersions: d.priorVersions,
    inScope: (v) =>
      d.namespaces.includes(v.namespace ?? '') && (parsed === undefined || (parsed.ok && matchesLabels(parsed.selector, v.content.labels))),
    scope: d.scope,
  };
}

/** Of the case's prior versions (`has`), those among the objects an answer showed. */
export function priorAmong(prior: { has(v: string): boolean }, objects: readonly ObservedObject[]): Set<string> {
  return new Set(objects.flatMap((o) => (typeof o.rv === 'string' && prior.has(o.rv) ? [o.rv] : [])));
}

export const judgeGetIn = (d: ReadScope, exp: ReadExpectation, key: string, observed: Parameters<typeof judgeGet>[3]) =>
  judgeGet(readContextOf(d), exp, key, observed);
export const judgeListSnapshotIn = (d: ReadScope, exp: ReadExpectation, observed: Parameters<typeof judgeListSnapshot>[2]) =>
  judgeListSnapshot(readContextOf(d), exp, observed);
export const judgePagesIn = (d: ReadScope, exp: ReadExpectation, pages: readonly ObservedPage[], opts: Parameters<typeof judgePages>[3]) =>
  judgePages(readContextOf(d), exp, pages, opts);
export const judgeNotCaughtUpIn = (
  d: ReadScope,
  exp: ReadExpectation,
  requestedRv: string | undefined,
  r: Parameters<typeof judgeNotCaughtUp>[3],
) => judgeNotCaughtUp(readContextOf(d), exp, requestedRv, r);

/** The watch oracle over a watch's scope as data: a watch of one namespace is `namespaces: [ns]`. */
export const judgeWatchIn = (d: ReadScope, exp: WatchExpectation, events: readonly ObservedEvent[]) =>
  judgeWatch(readContextOf(d), exp, events);
export const judgeFinishedWatchIn = (
  d: ReadScope,
  exp: WatchExpectation,
  events: readonly ObservedEvent[],
  parseError: string | undefined,
  also?: Parameters<typeof judgeFinishedWatch>[4],
) => judgeFinishedWatch(readContextOf(d), exp, events, parseError, also);

/**
 * An informer's relist and rewatch (judgeRelistedWatch) over data: the watch's scope, and `after`, the
 * history once the second list was read, whose visible objects of `ns` the cache must converge to and
 * whose keys tell the suite's objects (written by it, not tainted) from any others.
 */
export function judgeRelistedWatchIn(o: {
  readonly d: ReadScope;
  readonly exp: WatchExpectation;
  readonly parseError: string | undefined;
  readonly list0: readonly ObservedObject[];
  readonly events: readonly ObservedEvent[];
  readonly list1: readonly ObservedObject[];
  readonly after: History;
  readonly ns: string;
  readonly clause: ClauseId;
  readonly cutOff?: string | undefined;
}) {
  const now = visibleObjects(o.after, currentIndex(o.after)).filter((v) => v.namespace === o.ns);
  const isOurs = (k: string) => o.after.everKeys.has(k) && !o.after.tainted.has(k);
  return judgeRelistedWatch({
    list0: o.list0,
    events: o.events,
    list1: o.list1,
    now,
    isOurs,
    clause: o.clause,
    cutOff: o.cutOff,
    ctx: readContextOf(o.d),
    exp: o.exp,
    parseError: o.parseError,
  });
}
