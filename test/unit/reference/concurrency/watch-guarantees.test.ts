// Why: each watch guarantee is shown on a hand-made history that must pass and on the near miss a
// real implementation ships (a poller that skips a late commit, a slow watcher that loses events, a
// bookmark ahead of an undelivered event, a list that disagrees with the watch at one version).
import { describe, expect, it } from 'vitest';
import { checkWatchGuarantees, type Guarantee } from '../../../../reference/concurrency/watch-guarantees.ts';
import { judgeConcurrentHistory } from '../../../../reference/concurrency/judge.ts';
import {
  CONCURRENT_HISTORY_FORMAT,
  type ConcurrentHistory,
  type RecordedEvent,
  type RecordedOp,
  type RecordedWatch,
} from '../../../../reference/concurrency/history-types.ts';

const NS = 'ns1';
const write = (
  id: number,
  name: string,
  token: string,
  rv: string,
  call: number,
  ret: number | undefined,
  kind: 'create' | 'update' = 'update',
): RecordedOp => ({
  id,
  client: `c${id % 3}`,
  key: `${NS}/${name}`,
  input: { kind, token },
  output: ret === undefined ? { status: 'unknown' } : { status: 'ok', rv },
  sent: { w: token },
  call,
  ret,
});
const ev = (token: string, name: string, rv: string, at: number, type = 'MODIFIED'): RecordedEvent => ({
  type,
  key: `${NS}/${name}`,
  token,
  rv,
  data: { w: token },
  at,
});
const bookmark = (rv: string, at: number): RecordedEvent => ({ type: 'BOOKMARK', rv, at });
const watch = (id: string, events: RecordedEvent[], over: Partial<RecordedWatch> = {}): RecordedWatch => ({
  id,
  client: id,
  namespaces: [NS],
  start: { kind: 'exact', rv: '1' },
  startKnownAt: 0,
  bookmarksRequested: true,
  slow: false,
  opened: 0,
  events,
  end: 'stopped',
  ...over,
});
const history = (ops: RecordedOp[], watches: RecordedWatch[], lists: ConcurrentHistory['lists'] = []): ConcurrentHistory => ({
  format: CONCURRENT_HISTORY_FORMAT,
  ops,
  watches,
  lists,
});
const kinds = (h: ConcurrentHistory): Guarantee[] => [...new Set(checkWatchGuarantees(h).map((v) => v.guarantee))].sort();

// Three sequential writes to two objects: a (rv 2) -> b (rv 3) -> c (rv 4).
const ops = [write(1, 'x', 'a', '2', 10, 20, 'create'), write(2, 'y', 'b', '3', 30, 40, 'create'), write(3, 'x', 'c', '4', 50, 60)];
const good = [ev('a', 'x', '2', 21), ev('b', 'y', '3', 41), ev('c', 'x', '4', 61)];

describe('watch guarantees: a correct history passes', () => {
  it('one watcher, every write once and in order, with a bookmark after the event it covers', () => {
    expect(kinds(history(ops, [watch('w1', [...good.slice(0, 2), bookmark('3', 45), good[2]!])]))).toEqual([]);
  });

  it('the verdict names every exercised guarantee as passed', () => {
    const v = judgeConcurrentHistory(history(ops, [watch('w1', [...good.slice(0, 2), bookmark('3', 45), good[2]!])]));
    expect(v.judgements.filter((j) => j.verdict !== 'pass')).toEqual([]);
    expect(v.judgements.map((j) => j.clause)).toEqual(
      expect.arrayContaining(['rest:6.1.1', 'rest:6.1/BOOKMARK', 'rest:4.5/meaning/most-recent']),
    );
  });

  it('a stream that ends with 410 before the last write is no gap', () => {
    expect(kinds(history(ops, [watch('w1', good.slice(0, 1), { end: 'gone' })]))).toEqual([]);
  });

  it('concurrent writes may be shown in either order', () => {
    const concurrent = [write(1, 'x', 'a', '2', 10, 50, 'create'), write(2, 'y', 'b', '3', 20, 40, 'create')];
    expect(kinds(history(concurrent, [watch('w1', [ev('b', 'y', '3', 41), ev('a', 'x', '2', 51)])]))).toEqual([]);
  });
});

describe('watch guarantees: near misses fail', () => {
  it('scoped: a watch of ns1 shows a write made in ns10 (a key-prefix scan without the separator)', () => {
    const leaked: RecordedOp = { ...write(4, 'x', 'd', '5', 70, 80, 'create'), key: 'ns10/x' };
    const w = watch('w1', [...good, { ...ev('d', 'x', '5', 81, 'ADDED'), key: 'ns10/x' }]);
    expect(kinds(history([...ops, leaked], [w]))).toEqual(['scoped']);
    const list = {
      id: 9,
      client: 'l1',
      namespaces: [NS],
      rv: '5',
      items: [
        { key: `${NS}/x`, token: 'c' },
        { key: 'ns10/x', token: 'd' },
      ],
      call: 90,
      ret: 95,
    };
    expect(checkWatchGuarantees(history([...ops, leaked], [], [list])).map((x) => [x.guarantee, x.clause])).toContainEqual([
      'scoped',
      'rest:4.1/get-namespaced-collection',
    ]);
  });

  it('reliable: a write answered before a shown one is never shown (a poller of id > last skipping a late commit)', () => {
    expect(kinds(history(ops, [watch('w1', [good[1]!, good[2]!])]))).toEqual(['reliable']);
  });

  it('reliable: a slow watcher that silently loses events instead of ending', () => {
    expect(kinds(history(ops, [watch('slow', [good[0]!, good[2]!], { slow: true })]))).toEqual(['reliable']);
  });

  it('ordered: a write shown before one answered before it was sent', () => {
    expect(kinds(history(ops, [watch('w1', [good[1]!, good[0]!, good[2]!])]))).toEqual(['ordered']);
  });

  it("ordered: two watchers disagree on the order of one object's writes", () => {
    const concurrent = [write(1, 'x', 'a', '2', 10, 50), write(2, 'x', 'b', '3', 20, 40)];
    const h = history(concurrent, [
      watch('w1', [ev('a', 'x', '2', 51), ev('b', 'x', '3', 52)]),
      watch('w2', [ev('b', 'x', '3', 41), ev('a', 'x', '2', 51)]),
    ]);
    expect(kinds(h)).toEqual(['ordered']);
  });

  it('unique: a write shown twice', () => {
    expect(kinds(history(ops, [watch('w1', [...good, good[2]!])]))).toEqual(['unique']);
  });

  it('atomic: an event shows part of a write, another version, or a write no one made', () => {
    expect(kinds(history(ops, [watch('w1', [good[0]!, { ...good[1]!, data: {} }, good[2]!])]))).toEqual(['atomic']);
    expect(kinds(history(ops, [watch('w1', [good[0]!, { ...good[1]!, rv: '99' }, good[2]!])]))).toEqual(['atomic']);
    expect(kinds(history(ops, [watch('w1', [...good, ev('zz', 'x', '5', 70)])]))).toEqual(['atomic']);
  });

  it('bookmarkable: a bookmark at a version whose write is shown only after it', () => {
    expect(kinds(history(ops, [watch('w1', [good[0]!, bookmark('3', 42), good[1]!, good[2]!])]))).toEqual(['bookmarkable']);
  });

  it('resumable: a watch resumed from a shown version repeats or skips', () => {
    const first = watch('w1', good.slice(0, 1), { end: 'closed' });
    const resume = { resumedFrom: { watch: 'w1', rv: '2' }, start: { kind: 'exact' as const, rv: '2' }, startKnownAt: 21 };
    const ok = watch('w2', good.slice(1), resume);
    expect(kinds(history(ops, [first, ok]))).toEqual([]);
    const repeats = watch('w2', good, resume);
    expect(kinds(history(ops, [first, repeats]))).toEqual(['resumable']);
    const full = watch('w1', good, { end: 'closed' });
    const skips = watch('w3', [good[2]!], { ...resume, startKnownAt: 61 });
    expect(kinds(history(ops, [full, skips]))).toContain('resumable');
  });

  it('list vs watch: a list at V misses a write the watch showed at or before V', () => {
    const stateWatch = watch('w1', good, { start: { kind: 'state' }, startKnownAt: 0 });
    const agrees = {
      id: 9,
      client: 'l',
      namespaces: [NS],
      rv: '3',
      items: [
        { key: `${NS}/x`, token: 'a', rv: '2' },
        { key: `${NS}/y`, token: 'b', rv: '3' },
      ],
      call: 42,
      ret: 44,
    };
    expect(kinds(history(ops, [stateWatch], [agrees]))).toEqual([]);
    const misses = { ...agrees, items: [agrees.items[0]!] };
    expect(kinds(history(ops, [stateWatch], [misses]))).toEqual(['list-watch']);
  });
});

describe('judgeConcurrentHistory', () => {
  it('reports a precondition race as unspecified (the spec has no preconditions), not as a pass', () => {
    const race = [
      write(1, 'x', 'a', '1', 0, 1, 'create'),
      { ...write(2, 'x', 'b', '2', 2, 6), input: { kind: 'update' as const, token: 'b', precondition: '1' } },
      { ...write(3, 'x', 'c', '3', 3, 7), input: { kind: 'update' as const, token: 'c', precondition: '1' } },
    ];
    const v = judgeConcurrentHistory(history(race, []));
    expect(v.keys[0]?.verdict).toBe('precondition-anomaly');
    expect(v.judgements.map((j) => j.verdict)).toEqual(['unspecified']);
  });

  it('fails a stale consistent read under rest:4.5/meaning/most-recent', () => {
    const stale = [
      ...ops,
      {
        id: 4,
        client: 'r',
        key: `${NS}/x`,
        input: { kind: 'read' as const },
        output: { status: 'ok' as const, present: true, token: 'a', rv: '2' },
        call: 70,
        ret: 71,
      },
    ];
    const v = judgeConcurrentHistory(history(stale, []));
    expect(v.judgements.filter((j) => j.verdict === 'fail').map((j) => j.clause)).toEqual(['rest:4.5/meaning/most-recent']);
  });
});
