// rest:6.1.2 / 6.1.3 / 6.1.4: resume, 410 only for versions that may be gone, the informer property,
// and a saved watch history judged again from its JSON alone.
import { describe, expect, it } from 'vitest';
import { alsoAgainst } from '../../../reference/judgement.ts';
import {
  classifyWatchStart,
  historyUpTo,
  judgeFutureWatch,
  judgeGoneWatch,
  judgeInformer,
  judgeTooOldEndedEmpty,
  replayInformer,
} from '../../../reference/watch-recovery.ts';
import { recheckWatchEvidence, watchEvidence } from '../../../reference/watch-evidence.ts';
import { judgeWatch, type ObservedEvent, type WatchExpectation } from '../../../reference/watch-oracle.ts';
import { fail, inconclusive, pass } from '../../../reference/judgement.ts';
import { a10, a12, b11, ctx, history, NS, observed } from './model-fixtures.ts';
import type { ObjectVersion } from '../../../reference/objects.ts';

const ev = (type: string, v: ObjectVersion, rv = v.rv): ObservedEvent => {
  const object = observed(v, { rv });
  return { type, object, raw: { kind: 'ConfigMap', metadata: { name: v.name, namespace: NS, resourceVersion: rv } } };
};
const isOurs = () => true;
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

describe('410 Gone (rest:6.1.3, rest:6.1.4, rest:7/410)', () => {
  it('recognises both upstream forms and tells a stream from a refusal', () => {
    expect(classifyWatchStart(410, [])).toEqual({ kind: 'gone' });
    const error: ObservedEvent = { type: 'ERROR', object: observed(a10), raw: { kind: 'Status', code: 410, reason: 'Expired' } };
    expect(classifyWatchStart(200, [error])).toEqual({ kind: 'gone' });
    expect(classifyWatchStart(200, [])).toEqual({ kind: 'served' });
    expect(classifyWatchStart(200, [ev('ADDED', a10)])).toEqual({ kind: 'served' });
    expect(classifyWatchStart(403, [])).toEqual({ kind: 'refused', status: 403 });
  });

  it('accepts 410 only once the version is older than the window', () => {
    const h = history(); // snapshot #1 written at t=1 ms
    expect(failures(judgeGoneWatch(h, 1, 1001, 1000, 'rest:6.1.3'))).toEqual([]);
    expect(failures(judgeGoneWatch(h, 1, 999, 1000, 'rest:6.1.3'))).toEqual(['rest:6.1.4', 'rest:6.1.3']);
  });

  // Found by the stale-any variation: an rv="0" list may return a revision from long before the case,
  // which the suite can only map to snapshot #0; the target may have compacted it at any time.
  it('accepts 410 at once for a version of the state before the first write (snapshot #0)', () => {
    const h = history();
    expect(failures(judgeGoneWatch(h, 0, 2, 1000, 'rest:6.1.3'))).toEqual([]);
    expect(failures(judgeGoneWatch(h, 1, 2, 1000, 'rest:6.1.3'))).toEqual(['rest:6.1.4', 'rest:6.1.3']);
  });

  it('adds the promising clause to a served stream that fails', () => {
    expect(alsoAgainst('rest:6.1.2', 'resume', [pass('rest:6.1.1', 'x')]).map((j) => `${j.verdict} ${j.clause}`)).toEqual([
      'pass rest:6.1.1',
      'pass rest:6.1.2',
    ]);
    expect(failures(alsoAgainst('rest:6.1.2', 'resume', [fail('rest:6.1.1', 'x', 'y')]))).toEqual(['rest:6.1.1', 'rest:6.1.2']);
  });
});

describe('resume (rest:6.1.2)', () => {
  it('a stream closed at #2 is judged against the history up to #2, its resumption from #2 against the rest', () => {
    const h = history();
    const firstHalf = [ev('ADDED', a10), ev('ADDED', b11)];
    expect(failures(judgeWatch(ctx(historyUpTo(h, 2)), exactFrom(0), firstHalf).judgements)).toEqual([]);
    expect(failures(judgeWatch(ctx(h), exactFrom(0), firstHalf).judgements)).toEqual(['rest:6.1.1']);
    const resumed = [ev('MODIFIED', a12), ev('DELETED', a12, '13')];
    expect(failures(judgeWatch(ctx(h), exactFrom(2), resumed).judgements)).toEqual([]);
    // Resuming and getting the last change of the first stream again is a duplicate.
    expect(failures(judgeWatch(ctx(h), exactFrom(2), [ev('ADDED', b11), ...resumed]).judgements)).toEqual(['rest:6.1.1']);
  });
});

describe('informer property', () => {
  it('replays ADDED/MODIFIED and treats any other type as a deletion (its name is not shown)', () => {
    const cache = replayInformer(
      [observed(a10)],
      [ev('ADDED', b11), ev('MODIFIED', a12), ev('GONE-ISH', a12, '13'), ev('BOOKMARK', b11)],
      isOurs,
    );
    expect([...cache]).toEqual([[b11.key, '11']]);
  });

  it('passes when list0 + events = list1 = the history, and fails a lost event', () => {
    const base = { list0: [observed(a10)], list1: [observed(b11)], now: [b11], isOurs, clause: 'rest:6.1.1' as const };
    expect(failures(judgeInformer({ ...base, events: [ev('ADDED', b11), ev('MODIFIED', a12), ev('DELETED', a12, '13')] }))).toEqual([]);
    expect(failures(judgeInformer({ ...base, events: [ev('ADDED', b11), ev('MODIFIED', a12)] }))).toEqual(['rest:6.1.1', 'rest:6.1.1']);
  });
});

describe('saved watch histories', () => {
  it('judge the same from JSON as from the live model, pass and fail', () => {
    const h = history();
    const good = [ev('MODIFIED', a12), ev('DELETED', a12, '13')];
    const bad = [ev('DELETED', a12, '13')];
    for (const events of [good, bad]) {
      // The suite's watches name the namespace of their path (the scope rule); a saved history does too.
      const live = judgeWatch({ ...ctx(h), scope: { namespace: NS } }, exactFrom(2), events).judgements;
      const saved = JSON.parse(
        JSON.stringify(watchEvidence({ history: h, knownKeys: new Set(['app']), namespace: NS }, exactFrom(2), events)),
      );
      expect(recheckWatchEvidence(saved)).toEqual(live);
    }
    expect(
      failures(
        recheckWatchEvidence(
          JSON.parse(JSON.stringify(watchEvidence({ history: h, knownKeys: new Set(['app']), namespace: NS }, exactFrom(2), bad))),
        ),
      ),
    ).toEqual(['rest:6.1.1']);
  });

  it('refuses JSON that is not a watch history', () => {
    expect(() => recheckWatchEvidence({ format: 'other' } as never)).toThrow(/not a watch history/);
  });
});

describe('a watch from a version not reached yet (rest:6.1.5)', () => {
  const verdicts = (status: number, events: ObservedEvent[]) =>
    judgeFutureWatch(status, events, isOurs).map((j) => `${j.verdict} ${j.clause}`);
  it('may wait or be refused with 504; it may not start from now, and 410 is for old versions only', () => {
    expect(verdicts(200, [])).toEqual(['pass rest:6.1.5']);
    expect(verdicts(200, [ev('BOOKMARK', a10)])).toEqual(['pass rest:6.1.5']);
    expect(verdicts(504, [])).toEqual(['pass rest:7/504', 'pass rest:6.1.5']);
    expect(verdicts(200, [ev('MODIFIED', a12)])).toEqual(['fail rest:6.1.1']);
    expect(verdicts(410, [])).toEqual(['fail rest:7/410']);
    expect(verdicts(400, [])).toEqual(['unspecified rest:6.1.5']);
  });
});

describe('a too-old version: the 410 swallowed (rest:6.1.3)', () => {
  it('streams that all end empty fail rest:6.1.3 and rest:7/410, naming how the version left the history', () => {
    const js = judgeTooOldEndedEmpty(3, 2, 'the compaction hook ran');
    expect(js.map((j) => `${j.verdict} ${j.clause}`)).toEqual(['fail rest:6.1.3', 'fail rest:7/410']);
    expect(js[0]!.observed).toContain('3 watches');
    expect(js[0]!.observed).toContain('the compaction hook ran');
  });

  it('a stream that stopped short passes no clause that promises the whole behaviour', () => {
    // The summary clause of a stream judged inconclusive is inconclusive: the behaviour was not seen to work.
    const short = alsoAgainst('rest:6.1.3', 'the changes after it', [
      inconclusive('rest:4.5/watch/other', 'every write after #1', 'stopped short'),
    ]);
    expect(short.map((j) => `${j.verdict} ${j.clause}`)).toEqual(['inconclusive rest:4.5/watch/other', 'inconclusive rest:6.1.3']);
    const mixed = alsoAgainst('rest:6.1.3', 'x', [inconclusive('rest:4.5/watch/other', 'a', 'b'), fail('rest:6.1.1', 'c', 'd')]);
    expect(mixed.at(-1)!.verdict).toBe('fail');
    expect(alsoAgainst('rest:6.1.3', 'x', [pass('rest:6.1.1', 'c')]).at(-1)!.verdict).toBe('pass');
  });
});
