// rest:4.5 "Not older than" is a meaning of its own: a read answered from before the version it named
// fails the meaning clause with its cell; a read wrong in another way (torn, tampered, refused, newer
// than an Exact read) fails its cell alone, and the other meanings never report it.
import { describe, expect, it } from 'vitest';
import { judgeGet, judgeListSnapshot } from '../../../reference/read-oracle.ts';
import { getAnswerAge, olderThanAsked, withAgeMeaning } from '../../../reference/read-age.ts';
import { fail, pass } from '../../../reference/judgement.ts';
import { a10, a12, b11, ctx, history, observed, snapshotItems } from './model-fixtures.ts';

const failed = (js: readonly { verdict: string; clause: string }[]) => js.filter((j) => j.verdict === 'fail').map((j) => j.clause);
const LIST = 'rest:4.5/list/unset/no-limit/other' as const;
const GET = 'rest:4.5/get/other' as const;
const NOT_OLDER = 'rest:4.5/meaning/not-older-than' as const;
// history(): #0 {} #1 {a@10} #2 {a@10,b@11} #3 {a@12,b@11} #4 {b@11}; "r<i>" learned as denoting #i.
const learned = () => ({ ...history(), rvIndex: new Map([...history().rvIndex, ['r1', 1], ['r2', 2], ['r4', 4]]) });

describe('rest:4.5/meaning/not-older-than fails with its cell when the answer is older than asked', () => {
  it('a list whose collection resourceVersion denotes a state before the one named', () => {
    const r = judgeListSnapshot(
      ctx(learned()),
      { semantic: 'NotOlderThan', at: 3, clause: LIST },
      { collectionRv: 'r2', items: snapshotItems[2]! },
    );
    expect(failed(r.judgements)).toEqual([LIST, NOT_OLDER]);
    const meaning = r.judgements.find((j) => j.clause === NOT_OLDER)!;
    const cell = r.judgements.find((j) => j.clause === LIST && j.verdict === 'fail')!;
    // The same answer, described the same way: an expectations entry signs both alike.
    expect({ ...meaning, clause: LIST }).toEqual(cell);
  });

  it('a list at or after the version named passes both; the meaning is not judged on items alone', () => {
    const ok = judgeListSnapshot(
      ctx(learned()),
      { semantic: 'NotOlderThan', at: 2, clause: LIST },
      { collectionRv: 'r4', items: snapshotItems[4]! },
    );
    expect(failed(ok.judgements)).toEqual([]);
    expect(ok.judgements.filter((j) => j.clause === NOT_OLDER).map((j) => j.verdict)).toEqual(['pass']);
    // Items of an older state under a collection resourceVersion not known to the model: "items carry no
    // such guarantee" (rest:4.5), so the cell judges them and the meaning is left alone.
    const itemsOnly = judgeListSnapshot(
      ctx(),
      { semantic: 'NotOlderThan', at: 3, clause: LIST },
      { collectionRv: 'unknown', items: snapshotItems[1]! },
    );
    expect(failed(itemsOnly.judgements)).toEqual([LIST]);
    // A collection resourceVersion at the newest state with tampered items is wrong, not old.
    const tampered = judgeListSnapshot(
      ctx(learned()),
      { semantic: 'NotOlderThan', at: 2, clause: LIST },
      { collectionRv: 'r4', items: [observed(b11, { body: { k: 'x' } })] },
    );
    expect(failed(tampered.judgements)).toEqual([LIST]);
  });

  it('an older answer of another meaning stays its cell alone', () => {
    const exact = judgeListSnapshot(
      ctx(learned()),
      { semantic: 'Exact', at: 3, clause: LIST },
      { collectionRv: 'r2', items: snapshotItems[2]! },
    );
    expect(failed(exact.judgements)).toEqual([LIST]);
    const mostRecent = judgeListSnapshot(
      ctx(learned()),
      { semantic: 'MostRecent', clause: LIST },
      { collectionRv: 'r1', items: snapshotItems[1]! },
    );
    expect(failed(mostRecent.judgements)).toEqual([LIST]);
  });

  it("a get showing the object's version from before the one named, or not found where it existed", () => {
    expect(
      failed(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: GET }, a10.key, { status: 200, object: observed(a10) })),
    ).toEqual([GET, NOT_OLDER]);
    // b did not exist at #1: a 404 at "not older than #2" (b's creation) is an answer from before it.
    expect(failed(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 2, clause: GET }, b11.key, { status: 404 }))).toEqual([GET, NOT_OLDER]);
    // 400 refuses the read, a 500 fails it: neither says anything about age.
    expect(failed(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 2, clause: GET }, b11.key, { status: 400 }))).toEqual([GET]);
    expect(failed(judgeGet(ctx(), { semantic: 'NotOlderThan', at: 2, clause: GET }, b11.key, { status: 500 }))).toEqual([GET]);
    // The current version with changed content, or a version the model never saw: wrong, not old.
    expect(
      failed(
        judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: GET }, a12.key, {
          status: 200,
          object: observed(a12, { body: { k: 'x' } }),
        }),
      ),
    ).toEqual([GET]);
    expect(
      failed(
        judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: GET }, a12.key, { status: 200, object: observed(a12, { rv: '99' }) }),
      ),
    ).toEqual([GET]);
    // At or after the version named: both pass.
    const ok = judgeGet(ctx(), { semantic: 'NotOlderThan', at: 3, clause: GET }, a12.key, { status: 200, object: observed(a12) });
    expect(ok.map((j) => `${j.clause} ${j.verdict}`)).toEqual([`${GET} pass`, `${NOT_OLDER} pass`]);
  });
});

describe('the age helpers', () => {
  it('older only when every snapshot the answer may be precedes the one asked for', () => {
    expect(olderThanAsked({ lo: 3, at: [1, 2] })).toBe(true);
    expect(olderThanAsked({ lo: 3, at: [2, 3] })).toBe(false);
    expect(olderThanAsked({ lo: 3, at: [] })).toBe(false);
  });

  it("repeats the cell's failure under the meaning only for Not older than, and only a failure", () => {
    const cellFail = fail(LIST, 'e', 'o');
    expect(withAgeMeaning({ semantic: 'NotOlderThan', clause: LIST }, [cellFail], { lo: 2, at: [1] }).map((j) => j.clause)).toEqual([
      LIST,
      NOT_OLDER,
    ]);
    expect(withAgeMeaning({ semantic: 'Any', clause: LIST }, [cellFail], { lo: 2, at: [1] })).toEqual([cellFail]);
    expect(withAgeMeaning({ semantic: 'NotOlderThan', clause: LIST }, [pass(LIST, 'e')], { lo: 2, at: [1] })).toEqual([pass(LIST, 'e')]);
  });

  it("a get's age: its own earlier write, or absence before the version named", () => {
    expect(getAnswerAge(history(), a10.key, 3, { status: 200, object: observed(a10) })).toEqual({ lo: 3, at: [1] });
    expect(getAnswerAge(history(), a12.key, 4, { status: 200, object: observed(a12) })).toEqual({ lo: 4, at: [3] });
    expect(getAnswerAge(history(), b11.key, 3, { status: 404 })).toEqual({ lo: 3, at: [0, 1] });
    expect(getAnswerAge(history(), b11.key, 3, { status: 400 })).toEqual({ lo: 3, at: [] });
  });
});
