// Every cell of the rest:4.5 get and list tables, end to end through the model: the decision for
// the cell, then the oracle on a right answer (must pass) and on a near miss a buggy server would
// give (must fail, under that cell's clause). History: #0 {} #1 {a@10} #2 {a@10,b@11} #3 {a@12,b@11} #4 {b@11}.
import { describe, expect, it } from 'vitest';
import { acceptableRange } from '../../../reference/history.ts';
import { judgeGet, judgeListSnapshot, judgePages, type ListSemantic } from '../../../reference/read-oracle.ts';
import { decideGet, decideList, listCells, statusAccepted, type Decision } from '../../../reference/rv-semantics.ts';
import { a10, a12, b11, ctx, history, observed, snapshotItems } from './model-fixtures.ts';

const failedClauses = (js: { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);

/** The rv a request names in the "other" column: write #2's, so older and newer snapshots both exist. */
const OTHER = { rv: '11', index: 2 };

/** For each semantic: a snapshot it accepts and a near miss it must refuse, with the collection rv sent. */
const answers: Record<Exclude<ListSemantic, 'ContinueExact'>, { right: [number, string]; nearMiss: [number, string] }> = {
  MostRecent: { right: [4, 'r4'], nearMiss: [3, 'r3'] },
  Any: { right: [1, 'r1'], nearMiss: [-1, 'torn'] },
  NotOlderThan: { right: [3, 'r3'], nearMiss: [1, 'r1'] },
  Exact: { right: [2, '11'], nearMiss: [4, '11'] },
};

function itemsOf(i: number) {
  // -1: a torn read, items of two snapshots at once.
  return i === -1 ? [observed(a12), observed(b11, { rv: '99' })] : snapshotItems[i]!;
}

function judgeServe(d: Extract<Decision, { outcome: 'serve' }>, paging: string, snap: [number, string]) {
  const h = history();
  const semantic = d.semantic as ListSemantic;
  const at = semantic === 'NotOlderThan' || semantic === 'Exact' ? OTHER.index : undefined;
  if (semantic === 'ContinueExact') {
    // The first page fixed snapshot #3; a right continuation stays there, a near miss drifts to #4.
    const exp = { semantic, clause: d.clause, at: 3, range: { lo: 3, hi: 3 } };
    const drift = snap[1] === 'drift';
    const pages = drift
      ? [
          { collectionRv: 'r3', continueToken: 't', remainingItemCount: undefined, items: [observed(a12)] },
          { collectionRv: 'r4', continueToken: '', remainingItemCount: undefined, items: [observed(b11)] },
        ]
      : [
          { collectionRv: 'r3', continueToken: 't', remainingItemCount: 1, items: [observed(a12)] },
          { collectionRv: 'r3', continueToken: '', remainingItemCount: undefined, items: [observed(b11)] },
        ];
    return judgePages(ctx(h), exp, pages, { limit: 1, selector: false }).judgements;
  }
  const exp = { semantic, clause: d.clause, range: acceptableRange(h, semantic, at), at };
  const [index, collectionRv] = snap;
  const requested = semantic === 'Exact' ? { requestedRv: OTHER.rv } : {};
  if (paging === 'limit') {
    const items = itemsOf(index);
    const pages =
      items.length <= 1
        ? [{ collectionRv, continueToken: '', remainingItemCount: undefined, items }]
        : [
            { collectionRv, continueToken: 't', remainingItemCount: undefined, items: items.slice(0, 1) },
            { collectionRv, continueToken: '', remainingItemCount: undefined, items: items.slice(1) },
          ];
    return judgePages(ctx(h), exp, pages, { limit: 1, selector: false, ...requested }).judgements;
  }
  return judgeListSnapshot(ctx(h), exp, { collectionRv, items: itemsOf(index), ...requested }).judgements;
}

describe('every list cell: right answer accepted, near miss rejected under the cell', () => {
  it.each(listCells().map((c) => [`${c.match}/${c.paging}/${c.rv}`, c] as const))('%s', (_name, cell) => {
    const d = decideList(cell);
    if (d.outcome === 'reject') {
      const right = d.statuses === '4xx' ? 422 : 400;
      expect(statusAccepted(d.statuses, right)).toBe(true);
      // Near misses: serving the request, or refusing it with the wrong kind of status.
      for (const wrong of d.statuses === '4xx' ? [200, 500] : [200, 422, 410]) expect(statusAccepted(d.statuses, wrong)).toBe(false);
      return;
    }
    expect(d.outcome).toBe('serve');
    if (d.outcome !== 'serve') return;
    const pair =
      d.semantic === 'ContinueExact'
        ? { right: [3, 'ok'] as [number, string], nearMiss: [4, 'drift'] as [number, string] }
        : answers[d.semantic as keyof typeof answers];
    expect(failedClauses(judgeServe(d, cell.paging, pair.right))).toEqual([]);
    const miss = failedClauses(judgeServe(d, cell.paging, pair.nearMiss));
    expect(miss.length).toBeGreaterThan(0);
    expect(miss.some((c) => c === d.clause || c === 'rest:4.4.3')).toBe(true);
  });
});

describe('every get cell: right answer accepted, near miss rejected', () => {
  it.each([
    ['unset', { status: 200, object: observed(b11) }, { status: 404 }],
    ['zero', { status: 200, object: observed(a10) }, { status: 200, object: observed(a10, { rv: '13' }) }],
    ['other', { status: 404 }, { status: 200, object: observed(a10) }],
  ] as const)('rv %s', (rv, right, nearMiss) => {
    const d = decideGet(rv);
    if (d.outcome !== 'serve') throw new Error('get cells always serve');
    const semantic = d.semantic as 'MostRecent' | 'Any' | 'NotOlderThan';
    // Key b for Most Recent (present now), key a otherwise (a@10 in #1-#2, a@12 in #3, gone in #4).
    const key = rv === 'unset' ? b11.key : a10.key;
    const exp = { semantic, clause: d.clause, ...(semantic === 'NotOlderThan' ? { at: 3 } : {}) };
    expect(failedClauses(judgeGet(ctx(), exp, key, right))).toEqual([]);
    // The Not-older-than near miss is an older version: it breaks the meaning as well as the cell.
    expect(failedClauses(judgeGet(ctx(), exp, key, nearMiss))).toEqual(
      semantic === 'NotOlderThan' ? [d.clause, 'rest:4.5/meaning/not-older-than'] : [d.clause],
    );
  });
});
