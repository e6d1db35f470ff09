// Why: cases reuse a few pooled namespaces. A read at rv="0" (Any) may be served from any past
// state, one from before the case leased the namespace included; the model holds only the case's own
// states, so such an answer is inconclusive. Answers at the case's own versions are judged as before.
import { describe, expect, it } from 'vitest';
import { judgeGet, judgeListSnapshot, learnableIndex } from '../../../reference/read-oracle.ts';
import { judgeWatch } from '../../../reference/watch-oracle.ts';
import { a10, ctx, observed } from './model-fixtures.ts';

const verdicts = (js: readonly { verdict: string; clause: string }[]) => js.map((j) => `${j.clause}:${j.verdict}`);
const prior = { ...ctx(), priorVersions: new Set(['7']) };
const old = observed({ ...a10, rv: '7' });
const clause = 'rest:4.5/list/unset/no-limit/0' as const;

describe('reads of a reused namespace', () => {
  it('a list at Any showing versions of an earlier lessee is inconclusive; the same at MostRecent fails', () => {
    expect(verdicts(judgeListSnapshot(prior, { semantic: 'Any', clause }, { collectionRv: '99', items: [old] }).judgements)).toEqual([
      `${clause}:inconclusive`,
    ]);
    expect(verdicts(judgeListSnapshot(prior, { semantic: 'MostRecent', clause }, { collectionRv: '99', items: [old] }).judgements)).toEqual(
      [`${clause}:fail`],
    );
  });

  it('a version nobody answered before is no excuse: a corrupted object at Any still fails', () => {
    const corrupt = observed({ ...a10, rv: '8' });
    expect(verdicts(judgeListSnapshot(prior, { semantic: 'Any', clause }, { collectionRv: '99', items: [corrupt] }).judgements)).toEqual([
      `${clause}:fail`,
    ]);
    expect(verdicts(judgeGet(prior, { semantic: 'Any', clause: 'rest:4.5/get/0' }, a10.key, { status: 200, object: corrupt }))).toEqual([
      'rest:4.5/get/0:fail',
    ]);
    expect(verdicts(judgeGet(prior, { semantic: 'Any', clause: 'rest:4.5/get/0' }, a10.key, { status: 200, object: old }))).toEqual([
      'rest:4.5/get/0:inconclusive',
    ]);
  });

  it('a watch at Any that starts from an earlier lessee state is inconclusive, not a 6.1.1 failure', () => {
    const exp = {
      semantic: 'GetStateAndStartAtAny' as const,
      clause: 'rest:4.5/watch/0' as const,
      requestIndex: 0,
      bookmarksRequested: false,
      kind: 'ConfigMap',
      apiVersion: 'v1',
    };
    const events = [{ type: 'ADDED', object: old, raw: {} }];
    expect(verdicts(judgeWatch(prior, exp, events).judgements).filter((v) => !v.startsWith('rest:2.5'))).toEqual([
      'rest:4.5/watch/0:inconclusive',
    ]);
    expect(verdicts(judgeWatch(ctx(), exp, events).judgements).filter((v) => !v.startsWith('rest:2.5'))).toEqual(['rest:6.1.1:fail']);
  });
});

describe('what an Any list teaches about its collection resourceVersion', () => {
  // Seen in CI under the stale-any variation: an Any list of one pooled namespace, served from before the
  // lease, was empty of the case's objects and taught "its version is the case's start (#0)"; an Exact
  // list of another pooled namespace at that version then rightly showed an earlier lessee's objects.
  it('an Any list matched to the starting state is not learned in reused namespaces', () => {
    expect(learnableIndex(prior, 'Any', 0)).toBeUndefined();
    expect(learnableIndex(prior, 'GetStateAndStartAtAny', 0)).toBeUndefined();
  });

  it('is learned at any later state, in fresh namespaces, and for every other semantic', () => {
    expect(learnableIndex(prior, 'Any', 2)).toBe(2);
    expect(learnableIndex(ctx(), 'Any', 0)).toBe(0);
    expect(learnableIndex(prior, 'MostRecent', 0)).toBe(0);
    expect(learnableIndex(prior, 'Exact', 0)).toBe(0);
    expect(learnableIndex(prior, 'Any', undefined)).toBeUndefined();
  });
});
