// rest:4.5: the decision tables, cell by cell, written out literally so a slip in the model shows.
import { describe, expect, it } from 'vitest';
import { decideGet, decideList, decideWatch, listCells, listClause, rvColumn, statusAccepted } from '../../../reference/rv-semantics.ts';

const S = (semantic: string) => ({ outcome: 'serve', semantic });
const INVALID = { outcome: 'reject', statuses: '4xx' };
const BAD_REQUEST = { outcome: 'reject', statuses: [400] };

// [match, paging, rv] -> outcome, straight from the table in rest:4.5.
const listTable: [string, string, string, object][] = [
  ['unset', 'no-limit', 'unset', S('MostRecent')],
  ['unset', 'no-limit', 'zero', S('Any')],
  ['unset', 'no-limit', 'other', S('NotOlderThan')],
  ['unset', 'limit', 'unset', S('MostRecent')],
  ['unset', 'limit', 'zero', S('Any')],
  ['unset', 'limit', 'other', S('Exact')],
  ['unset', 'limit-continue', 'unset', S('ContinueExact')],
  ['unset', 'limit-continue', 'zero', S('ContinueExact')],
  ['unset', 'limit-continue', 'other', BAD_REQUEST],
  ['Exact', 'no-limit', 'unset', INVALID],
  ['Exact', 'no-limit', 'zero', INVALID],
  ['Exact', 'no-limit', 'other', S('Exact')],
  ['Exact', 'limit', 'unset', INVALID],
  ['Exact', 'limit', 'zero', INVALID],
  ['Exact', 'limit', 'other', S('Exact')],
  ['NotOlderThan', 'no-limit', 'unset', INVALID],
  ['NotOlderThan', 'no-limit', 'zero', S('Any')],
  ['NotOlderThan', 'no-limit', 'other', S('NotOlderThan')],
  ['NotOlderThan', 'limit', 'unset', INVALID],
  ['NotOlderThan', 'limit', 'zero', S('Any')],
  ['NotOlderThan', 'limit', 'other', S('NotOlderThan')],
];

describe('decideList (rest:4.5 list table)', () => {
  it.each(listTable)('%s / %s / rv %s', (match, paging, rv, want) => {
    const d = decideList({ match, paging, rv } as Parameters<typeof decideList>[0]);
    expect(d).toMatchObject(want);
    expect(d.clause).toBe(listClause(match as never, paging as never, rv as never));
  });

  it('enumerates exactly the 21 cells of the table', () => {
    expect(listCells()).toHaveLength(21);
    expect(new Set(listCells().map((c) => listClause(c.match, c.paging, c.rv))).size).toBe(21);
  });

  it('has no row for resourceVersionMatch with continue: unspecified, never a failure', () => {
    expect(decideList({ match: 'Exact', paging: 'limit-continue', rv: 'other' }).outcome).toBe('unspecified');
    expect(decideList({ match: 'NotOlderThan', paging: 'limit-continue', rv: 'zero' }).outcome).toBe('unspecified');
  });

  it('names cells the way the catalog does', () => {
    expect(listClause('unset', 'limit-continue', 'other')).toBe('rest:4.5/list/unset/limit-continue/other');
    expect(listClause('NotOlderThan', 'no-limit', 'zero')).toBe('rest:4.5/list/notolderthan/no-limit/0');
  });
});

describe('decideGet and decideWatch', () => {
  it.each([
    ['unset', 'MostRecent', 'GetStateAndStartAtMostRecent'],
    ['zero', 'Any', 'GetStateAndStartAtAny'],
    ['other', 'NotOlderThan', 'StartAtExact'],
  ] as const)('rv %s', (rv, get, watch) => {
    expect(decideGet(rv)).toMatchObject(S(get));
    expect(decideWatch(rv)).toMatchObject(S(watch));
  });
});

describe('rvColumn and statusAccepted', () => {
  it('classifies the parameter; the empty string counts as unset', () => {
    expect([undefined, '', '0', '00', '123', 'abc'].map(rvColumn)).toEqual(['unset', 'unset', 'zero', 'other', 'other', 'other']);
  });
  it('"Invalid" accepts any client error and nothing else; the 400 cell only 400', () => {
    expect([400, 422, 404, 499].every((s) => statusAccepted('4xx', s))).toBe(true);
    expect([200, 399, 500, 504].some((s) => statusAccepted('4xx', s))).toBe(false);
    expect(statusAccepted([400], 400)).toBe(true);
    expect(statusAccepted([400], 422)).toBe(false);
  });
});
