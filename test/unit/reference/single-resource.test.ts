// rest:4: a write whose body lists several objects may be refused or read as one object, never write several.
import { describe, expect, it } from 'vitest';
import { judgeMultiResourceWrite } from '../../../reference/single-resource.ts';

const verdict = (js: ReturnType<typeof judgeMultiResourceWrite>) => js.map((j) => `${j.clause} ${j.verdict}`);

describe('judgeMultiResourceWrite', () => {
  it('a refusal, or one object written, passes', () => {
    expect(verdict(judgeMultiResourceWrite({ verb: 'create', items: ['a', 'b'] }, 400, []))).toEqual(['rest:4/single-resource-verbs pass']);
    expect(verdict(judgeMultiResourceWrite({ verb: 'create', items: ['a', 'b'] }, 201, ['b']))).toEqual([
      'rest:4/single-resource-verbs pass',
    ]);
    expect(verdict(judgeMultiResourceWrite({ verb: 'update', items: ['a', 'b'] }, 400, ['a']))).toEqual([
      'rest:4/single-resource-verbs pass',
    ]);
  });
  it('a create that wrote two items fails, with the need a reproducer checks', () => {
    const [j] = judgeMultiResourceWrite({ verb: 'create', items: ['a', 'b'] }, 201, ['a', 'b']);
    expect(j).toMatchObject({ verdict: 'fail', observed: 'status 201; afterwards the list holds a, b' });
    expect(j!.needs?.[0]?.test).toEqual({
      kind: 'allOf',
      tests: [
        { kind: 'anyOf', tests: [2, 4].map((cls) => ({ kind: 'statusClass', at: { page: 0 }, cls })) },
        { kind: 'length', at: 'judged', path: ['items'], atMost: 1 },
      ],
    });
  });
  it('an update that wrote an item besides the object it addressed fails (no need: the list length is not the whole rule)', () => {
    const [j] = judgeMultiResourceWrite({ verb: 'update', items: ['a', 'b'] }, 200, ['a', 'b']);
    expect(j!.verdict).toBe('fail');
    expect(j!.needs).toBeUndefined();
    expect(judgeMultiResourceWrite({ verb: 'update', items: ['a', 'b'] }, 200, ['b'])[0]!.verdict).toBe('fail');
  });
  it("objects outside the list's items are not the write's", () => {
    expect(judgeMultiResourceWrite({ verb: 'create', items: ['a', 'b'] }, 201, ['a', 'other'])[0]!.verdict).toBe('pass');
  });
});
