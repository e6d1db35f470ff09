// rest:4.5 Not older than + rest:7: a read at a version the server has not caught up with may wait and
// answer 504 (upstream's per-type watch cache). The judge must call that inconclusive for a
// version learned from a collection, and still reject the near misses: a 504 for the version of a write
// of the type itself, a 504 without the spec's text, and 504 for other semantics.
import { describe, expect, it } from 'vitest';
import { learnRv } from '../../../reference/history.ts';
import { judgeNotCaughtUp } from '../../../reference/read-oracle.ts';
import { TOO_LARGE_TEXT } from '../../../reference/error-rules.ts';
import { ctx, history } from './model-fixtures.ts';

const CELL = 'rest:4.5/get/other';
const upstream504 = { status: 504, bodyText: `{"message":"Timeout: ${TOO_LARGE_TEXT}: 31850, current: 31846"}`, retryAfter: '1' };
const verdictOf = (js: { verdict: string; clause: string }[] | undefined, clause: string) => js?.find((j) => j.clause === clause)?.verdict;

describe('judgeNotCaughtUp (rest:4.5 Not older than, rest:7/504)', () => {
  // #2 is {a@10, b@11}; "r2" is a collection resourceVersion a list taught the model for #2.
  const learned = ctx(learnRv(history(), 'r2', 2));

  it('a 504 at a version learned from a collection is inconclusive, never a pass or a failure', () => {
    const js = judgeNotCaughtUp(learned, { semantic: 'NotOlderThan', at: 2, clause: CELL }, 'r2', upstream504);
    expect(verdictOf(js, CELL)).toBe('inconclusive');
    expect(js!.filter((j) => j.verdict === 'fail')).toEqual([]);
    expect(verdictOf(js, 'rest:7.2')).toBe('pass');
  });

  it('near miss: a 504 at the resourceVersion of a write of this type fails the cell', () => {
    // "11" is b's own write (snapshot #2 was made by it): the type has seen that version.
    const js = judgeNotCaughtUp(learned, { semantic: 'NotOlderThan', at: 2, clause: CELL }, '11', upstream504);
    expect(verdictOf(js, CELL)).toBe('fail');
  });

  it("near miss: a 504 without the spec's text fails rest:7.2", () => {
    const js = judgeNotCaughtUp(learned, { semantic: 'NotOlderThan', at: 2, clause: CELL }, 'r2', { ...upstream504, bodyText: 'Timeout' });
    expect(verdictOf(js, CELL)).toBe('inconclusive');
    expect(verdictOf(js, 'rest:7.2')).toBe('fail');
  });

  it('leaves other answers and other semantics to the read judges', () => {
    expect(
      judgeNotCaughtUp(learned, { semantic: 'NotOlderThan', at: 2, clause: CELL }, 'r2', { ...upstream504, status: 200 }),
    ).toBeUndefined();
    expect(judgeNotCaughtUp(learned, { semantic: 'MostRecent', clause: 'rest:4.5/get/unset' }, undefined, upstream504)).toBeUndefined();
    expect(
      judgeNotCaughtUp(learned, { semantic: 'Exact', at: 2, clause: 'rest:4.5/list/exact/no-limit/other' }, 'r2', upstream504),
    ).toBeUndefined();
  });
});
