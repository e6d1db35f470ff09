// A version older than the history window, found (no hook, no wait): dated by the server's own
// timestamps, never by comparing versions; and what a watch and an Exact list from it may answer.
import { describe, expect, it } from 'vitest';
import { datedObject, judgeOldVersionExact, judgeOldVersionWatch, oldVersionCandidate } from '../../../reference/old-versions.ts';

const t0 = Date.parse('2026-11-28T10:00:00Z');
const ns = (name: string, rv: string, created: string, times: string[] = []) => ({
  metadata: { name, resourceVersion: rv, creationTimestamp: created, managedFields: times.map((time) => ({ manager: 'm', time })) },
});
const verdicts = (js: { verdict: string; clause: string }[]) => js.map((j) => `${j.verdict} ${j.clause}`);

describe('an object unchanged for longer than the history window', () => {
  it('is dated by its latest recorded change: creationTimestamp or any managedFields time', () => {
    expect(datedObject(ns('default', '7', '2026-11-28T10:00:00Z'))).toEqual({ name: 'default', rv: '7', lastChangeMs: t0 });
    expect(datedObject(ns('default', '7', '2026-11-28T10:00:00Z', ['2026-11-28T10:05:00Z']))!.lastChangeMs).toBe(t0 + 300_000);
    expect(datedObject(ns('default', '7', '2026-11-28T10:00:00Z', ['yesterday']))).toBeUndefined();
    expect(datedObject({ metadata: { name: 'x', creationTimestamp: '2026-11-28T10:00:00Z' } })).toBeUndefined();
  });

  it('is the one unchanged for longest, if that is longer than the window (with a second to spare); else a wait', () => {
    const objs = [
      { name: 'young', rv: 'b', lastChangeMs: t0 + 9000 },
      { name: 'old', rv: 'a', lastChangeMs: t0 },
    ];
    expect(oldVersionCandidate(objs, t0 + 10_000, 3000)).toEqual({ kind: 'found', name: 'old', rv: 'a', ageMs: 10_000 });
    // Whole-second timestamps: an age of window + 1 s could be a rounding, so it is waited past.
    expect(oldVersionCandidate(objs, t0 + 4000, 3000)).toEqual({ kind: 'wait', ms: 1000 });
    expect(oldVersionCandidate([], t0, 3000)).toEqual({ kind: 'none' });
  });
});

describe('a watch and an Exact list from that version', () => {
  const about = 'namespace default ...';
  it('410 passes; the change after it delivered passes rest:6.1.3 only; streams all ending empty fail; a silent one decides nothing', () => {
    expect(verdicts(judgeOldVersionWatch({ kind: 'gone' }, about))).toEqual(['pass rest:6.1.3', 'pass rest:7/410']);
    expect(verdicts(judgeOldVersionWatch({ kind: 'delivered' }, about))).toEqual(['pass rest:6.1.3']);
    expect(verdicts(judgeOldVersionWatch({ kind: 'endedEmpty', attempts: 3 }, about))).toEqual(['fail rest:6.1.3', 'fail rest:7/410']);
    expect(verdicts(judgeOldVersionWatch({ kind: 'refused', status: 500 }, about))).toEqual(['fail rest:6.1.3', 'fail rest:7/410']);
    expect(verdicts(judgeOldVersionWatch({ kind: 'silent', waitedMs: 1000 }, about))).toEqual(['inconclusive rest:6.1.3']);
  });

  it('an Exact list is 410 or the state at that version: its resourceVersion, none of what was made after', () => {
    expect(verdicts(judgeOldVersionExact(410, undefined, 0, '1', about))).toEqual(['pass rest:4.5/meaning/exact', 'pass rest:7/410']);
    expect(verdicts(judgeOldVersionExact(200, '1', 0, '1', about))).toEqual(['pass rest:4.5/meaning/exact']);
    expect(verdicts(judgeOldVersionExact(200, '9', 0, '1', about))).toEqual(['fail rest:4.5/meaning/exact']);
    expect(verdicts(judgeOldVersionExact(200, '1', 1, '1', about))).toEqual(['fail rest:4.5/meaning/exact']);
    expect(verdicts(judgeOldVersionExact(400, undefined, 0, '1', about))).toEqual(['fail rest:4.5/meaning/exact']);
  });
});
