/**
 * What a client may rely on when a watch ends (rest:6.1.2, rest:6.1.3, rest:6.1.4, rest:7/410):
 * resuming from the last received resourceVersion continues the stream with nothing lost or repeated;
 * a version older than the retained history may get 410 Gone (and only such a version); after a 410
 * the client lists again and watches from the list's version, and its cache converges (the informer
 * property: the list at r0 plus the events from r0, replayed, equal the list at r1).
 *
 * 410 has two upstream forms and the spec fixes neither body: an HTTP 410 answer, or a 200 stream
 * whose first event is an ERROR carrying a Status with code 410 (what upstream's watch cache sends).
 */
import { mayHaveBeenCompacted, type History, type Snapshot } from './history.ts';
import { isRecord, showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { judgeWatch, judgeWatchDocuments, type ObservedEvent, type WatchExpectation } from './watch-oracle.ts';
import type { ReadContext } from './read-oracle.ts';
import { alsoAgainst, fail, inconclusive, pass, rule, unspecified, type Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';

/** The history as it stood after snapshot `n`: what a watch closed at that point had to deliver. */
export function historyUpTo(h: History, n: number): History {
  const snapshots: Snapshot[] = h.snapshots.slice(0, n + 1);
  return { ...h, snapshots, rvIndex: new Map([...h.rvIndex].filter(([, i]) => i <= n)) };
}

export type WatchStart = { readonly kind: 'gone' } | { readonly kind: 'served' } | { readonly kind: 'refused'; readonly status: number };

/** How a watch request was answered: 410 Gone in either form, a stream, or some other refusal. */
export function classifyWatchStart(status: number, events: readonly ObservedEvent[]): WatchStart {
  if (status === 410) return { kind: 'gone' };
  if (status !== 200) return { kind: 'refused', status };
  const first = events[0];
  if (first && first.type === 'ERROR' && isRecord(first.raw) && first.raw['code'] === 410) return { kind: 'gone' };
  return { kind: 'served' };
}

/** Judges a 410 Gone for the watch of snapshot `index`: acceptable only for a version that may be gone. */
export function judgeGoneWatch(h: History, index: number, nowMs: number, windowMs: number, clause: ClauseId): Judgement[] {
  if (mayHaveBeenCompacted(h, index, nowMs, windowMs))
    return [
      pass('rest:7/410', '410 Gone for a version older than the retained history'),
      pass(clause, '410 Gone once the version may have left the history'),
    ];
  const age = Math.round(nowMs - h.snapshots[index]!.atMs);
  return [
    fail('rest:6.1.4', `a version ${age} ms old is still in the history (window ${windowMs} ms)`, '410 Gone'),
    fail(clause, 'the watch is served: the version is younger than the history window', '410 Gone'),
  ];
}

/** An informer's cache: key -> resourceVersion, from a list and then the events after it. */
export function replayInformer(
  list: readonly ObservedObject[],
  events: readonly ObservedEvent[],
  isOurs: (key: string) => boolean,
): Map<string, string> {
  const cache = new Map<string, string>();
  for (const o of list) if (isOurs(o.key)) cache.set(o.key, String(o.rv));
  for (const e of events) {
    if (e.type === 'BOOKMARK' || !isOurs(e.object.key)) continue;
    if (e.type === 'ADDED' || e.type === 'MODIFIED') cache.set(e.object.key, String(e.object.rv));
    // Any other type for one of our objects is its deletion (rest:6.1.6: its name is not shown).
    else cache.delete(e.object.key);
  }
  return cache;
}

const showCache = (m: ReadonlyMap<string, string>) =>
  m.size === 0
    ? 'nothing'
    : [...m]
        .sort()
        .map(([k, rv]) => `${k}@${rv}`)
        .join(', ');

/**
 * The informer property (rest:6.1.1 with rest:6.1.2's "or the client can list again"): replaying the
 * events onto the first list gives exactly the second list, objects and resourceVersions, and both
 * are the suite's objects as the history says they are now.
 */
export function judgeInformer(o: {
  list0: readonly ObservedObject[];
  events: readonly ObservedEvent[];
  list1: readonly ObservedObject[];
  now: readonly ObjectVersion[];
  isOurs: (key: string) => boolean;
  clause: ClauseId;
  cutOff?: string | undefined;
}): Judgement[] {
  const replayed = replayInformer(o.list0, o.events, o.isOurs);
  const relisted = replayInformer(o.list1, [], o.isOurs);
  const truth = new Map(o.now.filter((v) => o.isOurs(v.key)).map((v) => [v.key, v.rv] as const));
  const same = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) =>
    a.size === b.size && [...a].every(([k, rv]) => b.get(k) === rv);
  // A stream that stopped short (the spec bounds no delivery time) cannot show convergence yet: the
  // stream's own verdict says whether what came is wrong; the cache's is inconclusive.
  const verdict = (holds: boolean, expected: string, observed: string) =>
    holds || o.cutOff === undefined
      ? rule(o.clause, holds, expected, observed)
      : inconclusive(o.clause, `${expected} (${o.cutOff})`, observed);
  return [
    verdict(
      same(replayed, relisted),
      `list at r0 + events from r0, replayed = the list at r1: ${showCache(relisted)}`,
      `replayed cache ${showCache(replayed)}`,
    ),
    verdict(
      same(replayed, truth),
      `the cache converges to the suite's objects as written: ${o.now.map(showVersion).join(', ') || 'none'}`,
      `replayed cache ${showCache(replayed)}`,
    ),
  ];
}

/**
 * rest:6.1.5 with rest:6.1.1: a watch from a version the target has not reached may wait until it
 * times out, or be refused (504, rest:7/504, or an ERROR event); it must not start from now instead,
 * since every write the suite makes meanwhile is older than the requested version. 410 is for
 * versions older than the history only.
 */
export function judgeFutureWatch(status: number, events: readonly ObservedEvent[], isOurs: (key: string) => boolean): Judgement[] {
  if (status === 504)
    return [
      pass('rest:7/504', '504 for a version that did not appear'),
      pass('rest:6.1.5', 'a watch for an unrecognized version: waited or refused'),
    ];
  if (status === 410)
    return [fail('rest:7/410', '410 Gone only for a version older than the retained history', '410 Gone for a version not reached yet')];
  if (status !== 200)
    return [
      unspecified(
        'rest:6.1.5',
        'a watch for an unrecognized version may wait until it times out; other answers are not shown',
        `status ${status}`,
      ),
    ];
  const delivered = events.filter((e) => e.type !== 'BOOKMARK' && e.type !== 'ERROR' && isOurs(e.object.key));
  if (delivered.length === 0) return [pass('rest:6.1.5', 'a watch for an unrecognized version: waited or refused')];
  return [
    fail(
      'rest:6.1.1',
      "only changes after the requested version: none of the suite's writes, all older than it",
      delivered.map((e) => `${String(e.type)} ${e.object.key}@${String(e.object.rv)}`).join(', '),
    ),
  ];
}

/** judgeFutureWatch with the suite's keys as data: those it wrote (`everKeys`) and whose state the model knows (not `tainted`). */
export function judgeFutureWatchIn(
  status: number,
  events: readonly ObservedEvent[],
  ours: Pick<History, 'everKeys' | 'tainted'>,
): Judgement[] {
  return judgeFutureWatch(status, events, (k) => ours.everKeys.has(k) && !ours.tainted.has(k));
}

/**
 * A watch cell answered 410 Gone: for a learned version, judgeGoneWatch (acceptable once the version
 * may be gone); for a watch without a version (`index` undefined), never: it starts from the current
 * state, which is always there.
 *
 *   judgeGoneCell(h, undefined, now, 1000, 'rest:4.5/watch/unset') -> [fail rest:4.5/watch/unset]
 */
export function judgeGoneCell(h: History, index: number | undefined, nowMs: number, windowMs: number, clause: ClauseId): Judgement[] {
  if (index !== undefined) return judgeGoneWatch(h, index, nowMs, windowMs, clause);
  return [fail(clause, 'a watch without a resourceVersion starts from the current state', '410 Gone')];
}

/**
 * A watch resumed from the last received version (rest:6.1.2) answered 410 Gone: judged as any 410
 * under rest:6.1.4, and the resume's promise holds only if that 410 does.
 *
 *   judgeGoneResume(h, n1, now, 1000) with the version younger than the window -> fails rest:6.1.4 and rest:6.1.2
 */
export function judgeGoneResume(h: History, index: number, nowMs: number, windowMs: number): Judgement[] {
  return alsoAgainst(
    'rest:6.1.2',
    'a watch resumes from the last received resourceVersion',
    judgeGoneWatch(h, index, nowMs, windowMs, 'rest:6.1.4'),
  );
}

/**
 * A watch from a version older than the history, answered neither 410 Gone nor with a stream
 * (classifyWatchStart 'refused'): wrong under rest:6.1.3 and rest:7/410.
 *
 *   judgeTooOldRefused(500) -> [fail rest:6.1.3, fail rest:7/410]
 */
export function judgeTooOldRefused(status: number): Judgement[] {
  return [
    fail('rest:6.1.3', '410 Gone for a version older than the history, or the exact stream', `status ${status}`),
    fail('rest:7/410', '410 Gone for a version older than the history', `status ${status}`),
  ];
}

/**
 * Every one of `attempts` watches from a version older than the history answered 200 and ended with no
 * event, though `changes` writes after that version were stored before the first opened: neither
 * 410 Gone nor the changes, so a client that resumes as rest:6.1.2 says never learns either (a server
 * that ends watches early still sends what it has first).
 *
 *   judgeTooOldEndedEmpty(3, 2, 'the compaction hook ran') -> [fail rest:6.1.3, fail rest:7/410]
 */
export function judgeTooOldEndedEmpty(attempts: number, changes: number, why: string): Judgement[] {
  const observed = `${attempts} watches from the version (older than the history: ${why}) each answered 200 and ended with no event, though ${changes} change(s) after it were stored before they opened`;
  return [
    fail('rest:6.1.3', '410 Gone for a version older than the history, or the changes after it', observed),
    fail('rest:7/410', '410 Gone for a version older than the history', observed),
  ];
}

/**
 * The list a client starts from or lists again with (rest:6.1.2, rest:6.1.3): 200 with a collection
 * resourceVersion and items; `body` is the parsed answer. Its content is judgeListSnapshot's.
 *
 *   judgeRelistAnswer('rest:6.1.3', 200, { metadata: {}, items: [] }) -> [fail rest:6.1.3]
 */
export function judgeRelistAnswer(clause: ClauseId, status: number, body: unknown): Judgement[] {
  const md = isRecord(body) && isRecord(body['metadata']) ? body['metadata'] : undefined;
  const holds = status === 200 && typeof md?.['resourceVersion'] === 'string' && isRecord(body) && Array.isArray(body['items']);
  return [rule(clause, holds, 'a list with a collection resourceVersion', `status ${status}`)];
}

/**
 * After a relist, the watch from the list's version seen two ways with one verdict: the informer's
 * cache (judgeInformer) and the event sequence against the history (judgeWatch), then a parse failure
 * of the stream's documents (rest:4.8) if there was one.
 *
 *   judgeRelistedWatch({ ...informer, ctx, exp, parseError: 'line 2: ...' }) -> ..., fail rest:4.8/watch-response
 */
export function judgeRelistedWatch(
  o: Parameters<typeof judgeInformer>[0] & {
    readonly ctx: ReadContext;
    readonly exp: WatchExpectation;
    readonly parseError: string | undefined;
  },
): Judgement[] {
  const informer = judgeInformer(o);
  const stream = judgeWatch(o.ctx, o.exp, o.events).judgements;
  return [...informer, ...stream, ...(o.parseError === undefined ? [] : judgeWatchDocuments(o.parseError))];
}
