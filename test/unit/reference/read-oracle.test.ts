// The read oracle must accept every observation the spec allows and reject the near misses a buggy
// server would produce (docs/oracle.md). Each row: semantic, requested index, observation, verdict.
import { describe, expect, it } from 'vitest';
import { acceptableRange } from '../../../reference/history.ts';
import { judgeGet, judgeListSnapshot, judgePages, judgeRemaining, type ListSemantic } from '../../../reference/read-oracle.ts';
import { a10, a12, b11, ctx, history, observed, snapshotItems } from './model-fixtures.ts';

const verdicts = (js: { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const CELL = 'rest:4.5/list/unset/limit/other' as const;
const NOT_OLDER = 'rest:4.5/meaning/not-older-than' as const;

type Row = [name: string, semantic: ListSemantic, at: number | undefined, snapshot: number, collectionRv: string, ok: boolean];
// Snapshots: #0 {} #1 {a@10} #2 {a@10,b@11} #3 {a@12,b@11} #4 {b@11}; collection rvs "r<i>" are unknown to the model.
const rows: Row[] = [
  ['Most Recent: the newest snapshot', 'MostRecent', undefined, 4, 'r', true],
  ['Most Recent near miss: one write behind', 'MostRecent', undefined, 3, 'r', false],
  ['Any: the newest', 'Any', undefined, 4, 'r', true],
  ['Any: the oldest (stale is allowed)', 'Any', undefined, 0, 'r', true],
  ['Any: a middle one', 'Any', undefined, 2, 'r', true],
  ['Not older than #2: #2 itself', 'NotOlderThan', 2, 2, 'r', true],
  ['Not older than #2: newer', 'NotOlderThan', 2, 4, 'r', true],
  ['Not older than #2 near miss: #1', 'NotOlderThan', 2, 1, 'r', false],
  ['Exact #3: #3 with its rv', 'Exact', 3, 3, '12', true],
  ['Exact #3 near miss: newest items under the requested rv', 'Exact', 3, 4, '12', false],
  ['Exact #3 near miss: right items, another collection rv', 'Exact', 3, 3, '13', false],
];

describe('judgeListSnapshot: acceptable sets per rest:4.5 meaning', () => {
  it.each(rows)('%s', (_n, semantic, at, snapshot, collectionRv, ok) => {
    const exp = { semantic, clause: CELL, at };
    const r = judgeListSnapshot(ctx(), exp, {
      collectionRv,
      items: snapshotItems[snapshot]!,
      ...(semantic === 'Exact' ? { requestedRv: '12' } : {}),
    });
    expect(verdicts(r.judgements).length === 0).toBe(ok);
    if (ok) expect(r.matchedIndex).toBe(snapshot);
    else expect(verdicts(r.judgements)).toContain(CELL);
  });

  it('rejects a torn read: items of two different snapshots', () => {
    const r = judgeListSnapshot(
      ctx(),
      { semantic: 'Any', clause: CELL },
      { collectionRv: 'x', items: [observed(a10), observed(b11, { rv: '99' })] },
    );
    expect(verdicts(r.judgements)).toEqual([CELL]);
  });

  it('rejects changed content under an unchanged resourceVersion', () => {
    const r = judgeListSnapshot(
      ctx(),
      { semantic: 'MostRecent', clause: CELL },
      { collectionRv: 'x', items: [observed(b11, { body: { k: 'tampered' } })] },
    );
    expect(verdicts(r.judgements)).toEqual([CELL]);
  });

  it('rejects a duplicated item and a changed uid', () => {
    expect(
      verdicts(
        judgeListSnapshot(ctx(), { semantic: 'MostRecent', clause: CELL }, { collectionRv: 'x', items: [observed(b11), observed(b11)] })
          .judgements,
      ),
    ).toEqual([CELL]);
    expect(
      verdicts(
        judgeListSnapshot(ctx(), { semantic: 'MostRecent', clause: CELL }, { collectionRv: 'x', items: [observed(b11, { uid: 'other' })] })
          .judgements,
      ),
    ).toEqual([CELL]);
  });

  it('ignores foreign objects and server-added labels, which the spec allows', () => {
    const foreign = { ...observed(b11), key: 'ns1/kube-root-ca.crt', name: 'kube-root-ca.crt' };
    const extraLabel = observed(b11, { labels: { app: 'web', 'added-by-admission': 'yes' } });
    const r = judgeListSnapshot(ctx(), { semantic: 'MostRecent', clause: CELL }, { collectionRv: 'x', items: [foreign, extraLabel] });
    expect(verdicts(r.judgements)).toEqual([]);
  });

  it('uses a learned collection rv: it pins the snapshot it denotes', () => {
    const h = { ...history(), rvIndex: new Map([...history().rvIndex, ['r2', 2]]) };
    // Items of #2 under rv r2 are fine for Any; the same rv with #3's items is not.
    expect(
      verdicts(judgeListSnapshot(ctx(h), { semantic: 'Any', clause: CELL }, { collectionRv: 'r2', items: snapshotItems[2]! }).judgements),
    ).toEqual([]);
    expect(
      verdicts(judgeListSnapshot(ctx(h), { semantic: 'Any', clause: CELL }, { collectionRv: 'r2', items: snapshotItems[3]! }).judgements),
    ).toEqual([CELL]);
    // A learned rv older than the Not-older-than bound is a failure even with acceptable items, of the
    // cell and of the meaning it chose (the collection resourceVersion is what Not older than promises).
    expect(
      verdicts(
        judgeListSnapshot(ctx(h), { semantic: 'NotOlderThan', at: 3, clause: CELL }, { collectionRv: 'r2', items: snapshotItems[4]! })
          .judgements,
      ),
    ).toEqual([CELL, NOT_OLDER]);
  });
});

describe('judgePages (rest:4.4)', () => {
  const page = (items: number[], rv: string, cont: string, remaining?: number) => ({
    collectionRv: rv,
    continueToken: cont,
    remainingItemCount: remaining,
    items: items.map((i) => [observed(a12), observed(b11)][i]!),
  });
  const exp = { semantic: 'MostRecent' as const, clause: CELL, range: acceptableRange(history(), 'MostRecent') };
  const h3 = () => ({ ...history(), snapshots: history().snapshots.slice(0, 4) }); // newest: {a@12, b@11}

  it('accepts a correct two-page traversal with exact remainingItemCount', () => {
    const r = judgePages(ctx(h3()), { ...exp, range: { lo: 3, hi: 3 } }, [page([0], 'r', 't', 1), page([1], 'r', '')], {
      limit: 1,
      selector: false,
    });
    expect(verdicts(r.judgements)).toEqual([]);
    expect(r.matchedIndex).toBe(3);
  });

  it.each([
    ['a page over the limit', [page([0, 1], 'r', '')], 1, false, 'rest:4.4.1'],
    ['pages with different collection rvs', [page([0], 'r', 't'), page([1], 's', '')], 1, false, 'rest:4.4.3'],
    ['a continue token on the last non-empty page', [page([0, 1], 'r', 't'), page([], 'r', '')], 2, false, 'rest:2.3/metadata.continue'],
    ['remainingItemCount off by one', [page([0], 'r', 't', 2), page([1], 'r', '')], 1, false, 'rest:4.4.6'],
    ['remainingItemCount with a selector', [page([0], 'r', 't', 1), page([1], 'r', '')], 1, true, 'rest:4.4.6'],
    ['remainingItemCount on the last page', [page([0], 'r', 't', 1), page([1], 'r', '', 0)], 1, false, 'rest:4.4.6'],
    ['an item twice across pages', [page([0], 'r', 't'), page([0, 1], 'r', '')], 2, false, 'rest:4.4.3'],
  ] as const)('rejects %s', (_n, pages, limit, selector, clause) => {
    const r = judgePages(ctx(h3()), { ...exp, range: { lo: 3, hi: 3 } }, pages, { limit, selector });
    expect(verdicts(r.judgements)).toContain(clause);
  });

  it('treats a trailing empty page as unspecified when a selector narrowed the list', () => {
    const r = judgePages(ctx(h3()), { ...exp, range: { lo: 3, hi: 3 } }, [page([0, 1], 'r', 't'), page([], 'r', '')], {
      limit: 2,
      selector: true,
    });
    expect(verdicts(r.judgements)).toEqual([]);
    expect(r.judgements.some((j) => j.verdict === 'unspecified' && j.clause === 'rest:2.3/metadata.continue')).toBe(true);
  });

  it('accepts short pages and pages without remainingItemCount (both allowed)', () => {
    const r = judgePages(ctx(h3()), { ...exp, range: { lo: 3, hi: 3 } }, [page([], 'r', 't'), page([0], 'r', 't'), page([1], 'r', '')], {
      limit: 2,
      selector: false,
    });
    expect(verdicts(r.judgements)).toEqual([]);
  });

  it('judgeRemaining: absent is fine mid-list, must be absent when complete', () => {
    expect(
      judgeRemaining({ remainingItemCount: undefined }, { later: 3, last: false, selector: false, paged: true, page: 1 })[0]!.verdict,
    ).toBe('pass');
    expect(judgeRemaining({ remainingItemCount: 3 }, { later: 0, last: true, selector: false, paged: false, page: 1 })[0]!.verdict).toBe(
      'fail',
    );
  });
});

describe('judgeGet', () => {
  const G = 'rest:4.5/get/other' as const;
  it('Most Recent: the current version; near miss: the previous one', () => {
    const h3 = { ...history(), snapshots: history().snapshots.slice(0, 4) };
    expect(verdicts(judgeGet(ctx(h3), { semantic: 'MostRecent', clause: G }, a12.key, { status: 200, object: observed(a12) }))).toEqual([]);
    expect(verdicts(judgeGet(ctx(h3), { semantic: 'MostRecent', clause: G }, a12.key, { status: 200, object: observed(a10) }))).toEqual([
      G,
    ]);
  });
  it('a 4xx only where the object is absent in an acceptable snapshot; the code itself is open', () => {
    expect(verdicts(judgeGet(ctx(), { semantic: 'MostRecent', clause: G }, a12.key, { status: 404 }))).toEqual([]);
    expect(verdicts(judgeGet(ctx(), { semantic: 'MostRecent', clause: G }, a12.key, { status: 410 }))).toEqual([]);
    expect(verdicts(judgeGet(ctx(), { semantic: 'MostRecent', clause: G }, b11.key, { status: 404 }))).toEqual([G]);
    expect(verdicts(judgeGet(ctx(), { semantic: 'MostRecent', clause: G }, b11.key, { status: 500 }))).toEqual([G]);
    // 400 refuses the read itself: never "absent", even where an acceptable snapshot lacks the object.
    expect(verdicts(judgeGet(ctx(), { semantic: 'MostRecent', clause: G }, a12.key, { status: 400 }))).toEqual([G]);
  });
  it("Any accepts a removed object's old version; Not older than #3 does not accept #1", () => {
    expect(verdicts(judgeGet(ctx(), { semantic: 'Any', clause: G }, a10.key, { status: 200, object: observed(a10) }))).toEqual([]);
    expect(
      verdicts(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: G }, a10.key, { status: 200, object: observed(a10) })),
    ).toEqual([G, NOT_OLDER]);
    expect(
      verdicts(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: G }, a10.key, { status: 200, object: observed(a12) })),
    ).toEqual([]);
  });
});

describe('learning what a collection resourceVersion denotes', () => {
  it('learns only from an unambiguous match', () => {
    // #0 {} and #4 {b} differ, but under a selector that excludes b both look empty.
    const narrowed = { ...ctx(), inScope: () => false };
    const ambiguous = judgeListSnapshot(narrowed, { semantic: 'Any', clause: CELL }, { collectionRv: 'x', items: [] });
    expect(ambiguous.judgements.every((j) => j.verdict === 'pass')).toBe(true);
    expect(ambiguous.matchedIndex).toBeUndefined();
    const unique = judgeListSnapshot(ctx(), { semantic: 'Any', clause: CELL }, { collectionRv: 'x', items: snapshotItems[3]! });
    expect(unique.matchedIndex).toBe(3);
  });
});
