// The long-chain judge must accept a correct chain and reject each near miss a storage layer
// produces after many pages: a repeated item, a skipped one, one created after the snapshot, one at a
// later version, a page that reports another collection version.
import { describe, expect, it } from 'vitest';
import { judgeLongChain, judgeSizedWrite } from '../../../reference/scale.ts';
import type { ObservedPage } from '../../../reference/read-oracle.ts';
import { b11, observed } from './model-fixtures.ts';

const obj = (name: string, rv: string) => observed({ ...b11, key: `ns/${name}`, name, namespace: 'ns', uid: `u-${name}`, rv });
const expected = new Map(['a', 'b', 'c', 'd'].map((n) => [`ns/${n}`, { uid: `u-${n}`, rv: '1' }]));
const page = (items: ReturnType<typeof obj>[], token: string, remaining?: number, rv = 'R'): ObservedPage => ({
  collectionRv: rv,
  continueToken: token,
  remainingItemCount: remaining,
  items,
});
const good = (): ObservedPage[] => [page([obj('a', '1'), obj('b', '1')], 't1', 2), page([obj('c', '1'), obj('d', '1')], '')];
const fails = (ps: ObservedPage[]) =>
  judgeLongChain(expected, (k) => k.startsWith('ns/'), ps, { limit: 2 })
    .filter((j) => j.verdict === 'fail')
    .map((j) => j.clause);

describe('judgeLongChain', () => {
  it('passes the snapshot, each item once, with exact remaining counts', () => {
    const js = judgeLongChain(expected, (k) => k.startsWith('ns/'), good(), { limit: 2 });
    expect(js.filter((j) => j.verdict === 'fail')).toEqual([]);
    expect(js.filter((j) => j.verdict === 'pass').map((j) => j.clause)).toContain('rest:4.4.3');
  });

  it.each([
    [
      'a repeated item',
      [page([obj('a', '1'), obj('b', '1')], 't1'), page([obj('b', '1'), obj('c', '1')], 't2'), page([obj('d', '1')], '')],
    ],
    ['a skipped item', [page([obj('a', '1'), obj('b', '1')], 't1'), page([obj('d', '1')], '')]],
    [
      'an item created after the first page',
      [page([obj('a', '1'), obj('b', '1')], 't1'), page([obj('c', '1'), obj('d', '1')], 't2'), page([obj('e', '9')], '')],
    ],
    [
      'an item at a version written after the first page',
      [page([obj('a', '1'), obj('b', '1')], 't1'), page([obj('c', '7'), obj('d', '1')], '')],
    ],
    [
      'a page reporting another collection version',
      [page([obj('a', '1'), obj('b', '1')], 't1'), page([obj('c', '1'), obj('d', '1')], '', undefined, 'R2')],
    ],
  ] as const)('fails rest:4.4.3 for %s', (_n, pages) => {
    expect(fails([...pages])).toEqual(['rest:4.4.3']);
  });

  it('fails an oversized page under rest:4.4.1 and a wrong remaining count under rest:4.4.6', () => {
    expect(fails([page([obj('a', '1'), obj('b', '1'), obj('c', '1')], 't1'), page([obj('d', '1')], '')])).toContain('rest:4.4.1');
    expect(fails([page([obj('a', '1'), obj('b', '1')], 't1', 3), page([obj('c', '1'), obj('d', '1')], '')])).toContain('rest:4.4.6');
  });

  it("ignores items that are not the suite's", () => {
    const foreign = { ...obj('root-ca', '5'), key: 'other/root-ca' };
    // The server counts it in remainingItemCount like any other item.
    const ps = [page([obj('a', '1'), obj('b', '1')], 't1', 3), page([obj('c', '1'), obj('d', '1'), foreign], '')];
    expect(judgeLongChain(expected, (k) => k.startsWith('ns/'), ps, { limit: 3 }).filter((j) => j.verdict === 'fail')).toEqual([]);
  });
});

describe('judgeSizedWrite', () => {
  it('records acceptance or refusal as unspecified (rest:8 names no size limit)', () => {
    for (const status of [201, 413, 422]) {
      const js = judgeSizedWrite({ bytes: 10, status, readBackStatus: status === 201 ? 200 : 404, readBackIntact: status === 201 });
      expect(js.map((j) => [j.clause, j.verdict])).toEqual([
        ['rest:8/rate-size-limits-not-shown', 'unspecified'],
        ['rest:4.1/post', 'pass'],
      ]);
    }
  });
  it('fails an accepted object that reads back changed, and a refused one that was stored', () => {
    expect(judgeSizedWrite({ bytes: 10, status: 201, readBackStatus: 200, readBackIntact: false }).some((j) => j.verdict === 'fail')).toBe(
      true,
    );
    expect(judgeSizedWrite({ bytes: 10, status: 413, readBackStatus: 200, readBackIntact: true }).some((j) => j.verdict === 'fail')).toBe(
      true,
    );
  });
});
