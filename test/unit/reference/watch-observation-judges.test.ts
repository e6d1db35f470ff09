// The judges the watch checks hand their observations to (every verdict in reference/):
// how a watch was answered, its documents, a finished or resumed stream, the 410 cases, the relist.
// Each with what must hold and a near miss that must fail.
import { describe, expect, it } from 'vitest';
import {
  judgeBookmarkRequest,
  judgeFinishedWatch,
  judgeWatchDocuments,
  judgeWatchOpened,
  type ObservedEvent,
  type WatchExpectation,
} from '../../../reference/watch-oracle.ts';
import {
  judgeGoneCell,
  judgeGoneResume,
  judgeRelistAnswer,
  judgeRelistedWatch,
  judgeTooOldRefused,
} from '../../../reference/watch-recovery.ts';
import { a10, a12, b11, ctx, history, NS, observed } from './model-fixtures.ts';
import type { ObjectVersion } from '../../../reference/objects.ts';

const ev = (type: string, v: ObjectVersion, rv = v.rv): ObservedEvent => ({
  type,
  object: observed(v, { rv }),
  raw: { kind: 'ConfigMap', metadata: { name: v.name, namespace: NS, resourceVersion: rv } },
});
const shown = (js: readonly { verdict: string; clause: string }[]) => js.map((j) => `${j.verdict} ${j.clause}`);
const failures = (js: readonly { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const exactFrom = (at: number): WatchExpectation => ({
  semantic: 'StartAtExact',
  clause: 'rest:4.5/watch/other',
  at,
  requestIndex: at,
  bookmarksRequested: false,
  kind: 'ConfigMap',
  apiVersion: 'v1',
});
const resumed = [ev('MODIFIED', a12), ev('DELETED', a12, '13')];

describe('judgeWatchOpened (rest:4.8, rest:4.3/watch)', () => {
  it('passes a 200 and fails any other answer under both clauses', () => {
    expect(shown(judgeWatchOpened(200))).toEqual(['pass rest:4.8/watch-response', 'pass rest:4.3/watch']);
    expect(shown(judgeWatchOpened(403))).toEqual(['fail rest:4.8/watch-response', 'fail rest:4.3/watch']);
  });
});

describe('judgeWatchDocuments (rest:4.8)', () => {
  it('passes a stream that parsed and fails one that did not, naming what failed', () => {
    expect(shown(judgeWatchDocuments(undefined))).toEqual(['pass rest:4.8/watch-response']);
    const [j] = judgeWatchDocuments('line 2: Unexpected token');
    expect(j).toMatchObject({ verdict: 'fail', clause: 'rest:4.8/watch-response', observed: 'line 2: Unexpected token' });
  });
});

describe('judgeFinishedWatch', () => {
  const also = { clause: 'rest:6.1.2', expected: 'resumed' } as const;
  it('passes a complete stream, and its promising clause with it', () => {
    const js = judgeFinishedWatch(ctx(history()), exactFrom(2), resumed, undefined, also);
    expect(failures(js)).toEqual([]);
    expect(shown(js).at(-1)).toBe('pass rest:6.1.2');
    expect(js.some((j) => j.clause === 'rest:4.8/watch-response' && j.expected === 'JSON event documents')).toBe(false);
  });
  it('fails a stream with a lost event, or one whose documents did not parse, under the promising clause too', () => {
    expect(failures(judgeFinishedWatch(ctx(history()), exactFrom(2), [resumed[1]!], undefined, also))).toEqual([
      'rest:6.1.1',
      'rest:6.1.2',
    ]);
    expect(failures(judgeFinishedWatch(ctx(history()), exactFrom(2), resumed, 'line 3: bad', also))).toEqual([
      'rest:4.8/watch-response',
      'rest:6.1.2',
    ]);
    expect(failures(judgeFinishedWatch(ctx(history()), exactFrom(2), resumed, 'line 3: bad'))).toEqual(['rest:4.8/watch-response']);
  });
});

describe('judgeBookmarkRequest (rest:6.1/BOOKMARK, rest:4.3/allowWatchBookmarks)', () => {
  it('passes an unasked watch without bookmarks and an asked watch that was served', () => {
    expect(shown(judgeBookmarkRequest(false, 200, resumed))).toEqual(['pass rest:6.1/BOOKMARK']);
    expect(shown(judgeBookmarkRequest(true, 200, [...resumed, ev('BOOKMARK', b11)]))).toEqual(['pass rest:4.3/allowWatchBookmarks']);
  });
  it('fails a bookmark nobody asked for, and an asked watch that was refused', () => {
    expect(shown(judgeBookmarkRequest(false, 200, [ev('BOOKMARK', b11)]))).toEqual(['fail rest:6.1/BOOKMARK']);
    expect(shown(judgeBookmarkRequest(true, 400, []))).toEqual(['fail rest:4.3/allowWatchBookmarks']);
  });
});

describe('410 Gone for a watch cell, a resume, a too-old version', () => {
  it('a cell with a learned version: 410 once it may be gone; without a version: never', () => {
    const h = history(); // snapshot #1 written at t=1 ms
    expect(failures(judgeGoneCell(h, 1, 1001, 1000, 'rest:4.5/watch/other'))).toEqual([]);
    expect(failures(judgeGoneCell(h, 1, 999, 1000, 'rest:4.5/watch/other'))).toEqual(['rest:6.1.4', 'rest:4.5/watch/other']);
    expect(failures(judgeGoneCell(h, undefined, 1001, 1000, 'rest:4.5/watch/unset'))).toEqual(['rest:4.5/watch/unset']);
  });
  it('a resume: the 410 is judged under rest:6.1.4 and carries rest:6.1.2 with it', () => {
    const h = history();
    expect(shown(judgeGoneResume(h, 1, 1001, 1000))).toEqual(['pass rest:7/410', 'pass rest:6.1.4', 'pass rest:6.1.2']);
    expect(failures(judgeGoneResume(h, 1, 999, 1000))).toEqual(['rest:6.1.4', 'rest:6.1.4', 'rest:6.1.2']);
  });
  it('a too-old version neither gone nor served fails rest:6.1.3 and rest:7/410', () => {
    expect(shown(judgeTooOldRefused(500))).toEqual(['fail rest:6.1.3', 'fail rest:7/410']);
  });
});

describe('the relist (rest:6.1.2, rest:6.1.3)', () => {
  it('judgeRelistAnswer: 200 with a collection resourceVersion and items; a near miss fails', () => {
    expect(shown(judgeRelistAnswer('rest:6.1.3', 200, { metadata: { resourceVersion: '12' }, items: [] }))).toEqual(['pass rest:6.1.3']);
    expect(shown(judgeRelistAnswer('rest:6.1.3', 200, { metadata: {}, items: [] }))).toEqual(['fail rest:6.1.3']);
    expect(shown(judgeRelistAnswer('rest:6.1.3', 200, { metadata: { resourceVersion: '12' } }))).toEqual(['fail rest:6.1.3']);
    expect(shown(judgeRelistAnswer('rest:6.1.3', 500, { metadata: { resourceVersion: '12' }, items: [] }))).toEqual(['fail rest:6.1.3']);
  });
  it('judgeRelistedWatch: the informer and the stream agree with the history; a lost event or a parse error fails', () => {
    const h = history();
    const base = {
      list0: [observed(a10), observed(b11)],
      list1: [observed(b11)],
      now: [b11],
      isOurs: () => true,
      clause: 'rest:6.1.3' as const,
      ctx: ctx(h),
      exp: exactFrom(2),
    };
    expect(failures(judgeRelistedWatch({ ...base, events: resumed, parseError: undefined }))).toEqual([]);
    expect(failures(judgeRelistedWatch({ ...base, events: [resumed[0]!], parseError: undefined }))).toContain('rest:6.1.3');
    expect(failures(judgeRelistedWatch({ ...base, events: resumed, parseError: 'line 1: bad' }))).toEqual(['rest:4.8/watch-response']);
  });
});

// rest:6.1: a BOOKMARK says "all changes up to the carried metadata.resourceVersion were already sent".
// Upstream 1.24 under CPU load sent a bookmark between two creations of an Any watch; the model had
// read the stream as starting at the later state (creations look like more synthetic ADDED) and
// called the bookmark early. History: #0 {} #1 {a@10} #2 {a@10, b@11} #3 {a@12, b@11} #4 {b@11}.
describe('bookmarks of a stream that fits several starts (rest:6.1/BOOKMARK)', () => {
  const any: WatchExpectation = {
    semantic: 'GetStateAndStartAtAny',
    clause: 'rest:4.5/watch/0',
    requestIndex: 0,
    bookmarksRequested: true,
    kind: 'ConfigMap',
    apiVersion: 'v1',
  };
  const bookmark = (rv: string): ObservedEvent => ({
    type: 'BOOKMARK',
    object: { ...observed(a10, { rv }), key: '', name: '', namespace: undefined, uid: undefined },
    raw: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: rv } },
  });
  const bookmarkVerdicts = (events: ObservedEvent[]) =>
    judgeFinishedWatch(ctx(history()), any, events, undefined)
      .filter((j) => j.clause === 'rest:6.1/BOOKMARK')
      .map((j) => j.verdict);
  const rest = [ev('MODIFIED', a12), ev('DELETED', a12, '13')];

  it("started at {a}: a bookmark at a's version before ADDED b is on time", () => {
    expect(bookmarkVerdicts([ev('ADDED', a10), bookmark('10'), ev('ADDED', b11), ...rest])).toEqual(['pass', 'pass', 'pass']);
  });
  it('the same for Most Recent (watch-bookmarks asks rv unset): requested at #1, b created while watching', () => {
    const mostRecent: WatchExpectation = {
      ...any,
      semantic: 'GetStateAndStartAtMostRecent',
      clause: 'rest:4.5/watch/unset',
      requestIndex: 1,
    };
    const verdicts = (events: ObservedEvent[]) =>
      judgeFinishedWatch(ctx(history()), mostRecent, events, undefined)
        .filter((j) => j.clause === 'rest:6.1/BOOKMARK')
        .map((j) => j.verdict);
    expect(verdicts([ev('ADDED', a10), bookmark('10'), ev('ADDED', b11), ...rest])).toEqual(['pass', 'pass', 'pass']);
    expect(verdicts([ev('ADDED', a10), bookmark('11'), ev('ADDED', b11), ...rest])).toContain('fail');
  });

  it('a bookmark past a change not yet sent fails under every start', () => {
    expect(bookmarkVerdicts([ev('ADDED', a10), bookmark('11'), ev('ADDED', b11), ...rest])).toContain('fail');
    expect(bookmarkVerdicts([ev('ADDED', a10), ev('ADDED', b11), bookmark('12'), ...rest])).toContain('fail');
    // On time after the change it names, and versions never move backwards.
    expect(bookmarkVerdicts([ev('ADDED', a10), ev('ADDED', b11), bookmark('11'), ev('MODIFIED', a12), bookmark('12'), rest[1]!])).toEqual([
      'pass',
      'pass',
      'pass',
      'pass',
      'pass',
      'pass',
    ]);
    expect(bookmarkVerdicts([ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), bookmark('12'), bookmark('10'), rest[1]!])).toContain(
      'fail',
    );
  });
});
