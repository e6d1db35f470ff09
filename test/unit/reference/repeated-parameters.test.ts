// rest:4.3 gives each query parameter once: what a server makes of limit given twice is recorded, and
// whichever value it takes, its page holds at most the larger one (rest:4.3/limit).
import { describe, expect, it } from 'vitest';
import { judgeRepeatedLimit } from '../../../reference/repeated-parameters.ts';
import { evaluateNeeds, mapAt, type AnswerData } from '../../../reference/answer-checks.ts';

const verdicts = (js: ReturnType<typeof judgeRepeatedLimit>) => js.map((j) => [j.clause, j.verdict]);

describe('limit given twice', () => {
  it('a refusal is recorded, and judges no page', () => {
    const js = judgeRepeatedLimit([1, 2], 422, undefined);
    expect(verdicts(js)).toEqual([['rest:4.3', 'unspecified']]);
    expect(js[0]!.observed).toBe('422');
    expect(js[0]!.expected).toContain('limit given 2 times (1, then 2)');
  });

  it('a page as the first or the last value passes, and the record says which', () => {
    expect(verdicts(judgeRepeatedLimit([1, 2], 200, 1))).toEqual([
      ['rest:4.3', 'unspecified'],
      ['rest:4.3/limit', 'pass'],
    ]);
    expect(judgeRepeatedLimit([1, 2], 200, 1)[0]!.observed).toBe('200, 1 item (as the first value)');
    expect(judgeRepeatedLimit([2, 1], 200, 1)[0]!.observed).toBe('200, 1 item (as the last value)');
    expect(judgeRepeatedLimit([2, 1], 200, 0)[0]!.observed).toBe('200, 0 items (fewer than either value)');
  });

  it('a page larger than both values fails rest:4.3/limit; its need accepts a refusal or a page within the larger value', () => {
    const js = judgeRepeatedLimit([2, 1], 200, 3);
    expect(verdicts(js)).toEqual([
      ['rest:4.3', 'unspecified'],
      ['rest:4.3/limit', 'fail'],
    ]);
    expect(js[1]!.observed).toBe('200, 3 items (more than either value)');
    const needs = js[1]!.verdict === 'fail' ? (js[1]!.needs ?? []) : [];
    const judgedAt0 = needs.map((n) => ({ ...n, test: mapAt(n.test, (a) => (a === 'judged' ? { request: 0 } : a)) }));
    const holds = (a: AnswerData) => evaluateNeeds(judgedAt0, () => a)[0]!.ok;
    expect(holds({ status: 200, headers: {}, body: { items: [1, 2, 3] } })).toBe(false);
    expect(holds({ status: 200, headers: {}, body: { items: [1, 2] } })).toBe(true);
    expect(holds({ status: 422, headers: {}, body: {} })).toBe(true);
  });

  it('a 2xx without an items list is recorded only (the envelope rows judge its shape)', () => {
    expect(verdicts(judgeRepeatedLimit([1, 2], 200, undefined))).toEqual([['rest:4.3', 'unspecified']]);
  });
});
