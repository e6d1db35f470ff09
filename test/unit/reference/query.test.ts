// rest:4.3: the query of a list request classified into the rest:4.5 cell it selects.
import { describe, expect, it } from 'vitest';
import { classifyList } from '../../../reference/query.ts';

describe('classifyList', () => {
  it.each([
    [[], { match: 'unset', paging: 'no-limit', rv: 'unset' }],
    [[['resourceVersion', '0']], { match: 'unset', paging: 'no-limit', rv: 'zero' }],
    [
      [
        ['resourceVersion', '42'],
        ['limit', '2'],
      ],
      { match: 'unset', paging: 'limit', rv: 'other' },
    ],
    [
      [
        ['limit', '2'],
        ['continue', 'tok'],
        ['resourceVersion', '42'],
      ],
      { match: 'unset', paging: 'limit-continue', rv: 'other' },
    ],
    [[['resourceVersionMatch', 'Exact']], { match: 'Exact', paging: 'no-limit', rv: 'unset' }],
    [
      [
        ['resourceVersionMatch', 'NotOlderThan'],
        ['resourceVersion', '0'],
        ['limit', '5'],
      ],
      { match: 'NotOlderThan', paging: 'limit', rv: 'zero' },
    ],
    [
      [
        ['limit', '3'],
        ['continue', ''],
      ],
      { match: 'unset', paging: 'limit', rv: 'unset' },
    ],
    [[['resourceVersion', '']], { match: 'unset', paging: 'no-limit', rv: 'unset' }],
  ] as const)('%j', (pairs, cell) => {
    const q = classifyList(pairs);
    expect(q.ok).toBe(true);
    if (q.ok) expect(q.cell).toEqual(cell);
  });

  it.each([
    [[['resourceVersionMatch', 'exact']], 'rest:4.3/resourceVersionMatch'],
    [[['limit', '0']], 'rest:4.3/limit'],
    [[['limit', '-1']], 'rest:4.3/limit'],
    [[['limit', 'ten']], 'rest:4.3/limit'],
    [[['continue', 'tok']], 'rest:4.5/list'],
    [
      [
        ['limit', '1'],
        ['limit', '2'],
      ],
      'rest:4.3',
    ],
  ] as const)('outside the spec: %j', (pairs, clause) => {
    const q = classifyList(pairs);
    expect(q).toMatchObject({ ok: false, clause });
  });

  it('keeps the parameters it parsed', () => {
    expect(
      classifyList([
        ['labelSelector', 'app=web'],
        ['limit', '7'],
        ['continue', 'abc'],
      ]),
    ).toMatchObject({ ok: true, limit: 7, continueToken: 'abc', labelSelector: 'app=web' });
  });
});
