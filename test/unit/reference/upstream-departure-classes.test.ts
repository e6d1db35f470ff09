// Two departures of kube-apiserver 1.24 found on fresh seeds, named by the model so that an
// expectations entry excuses exactly them: a watch with resourceVersion unset served from a watch cache
// that is behind the request, and an apply that empties a list refused because the server stored the
// list as null. Each class is given to its departure and withheld from near misses.
import { describe, expect, it } from 'vitest';
import { judgeWatch, type ObservedEvent, type WatchExpectation } from '../../../reference/watch-oracle.ts';
import { emptiedListTags, judgeWrite, type Expected } from '../../../reference/apply/index.ts';
import { a10, a12, b11, ctx, NS, observed } from './model-fixtures.ts';
import type { ObjectVersion } from '../../../reference/objects.ts';

const ev = (type: string, v: ObjectVersion): ObservedEvent => ({
  type,
  object: observed(v),
  raw: { kind: 'ConfigMap', metadata: { name: v.name, namespace: NS, resourceVersion: v.rv } },
});
const deleted = (v: ObjectVersion): ObservedEvent => ({ type: 'DELETED', object: observed(v), raw: { kind: 'ConfigMap' } });
const mostRecent = (requestIndex: number): WatchExpectation => ({
  semantic: 'GetStateAndStartAtMostRecent',
  clause: 'rest:4.5/watch/unset',
  requestIndex,
  bookmarksRequested: false,
  kind: 'ConfigMap',
  apiVersion: 'v1',
});
const judged = (events: ObservedEvent[], at = 3) => judgeWatch(ctx(), mostRecent(at), events).judgements;

// History: #0 {} #1 {a@10} #2 {a@10,b@11} #3 {a@12,b@11} #4 {b@11}; the watch is requested at #3.
describe('watch-start-stale: Most Recent started from a state older than the request', () => {
  it('the state of #2 and then every later change: the start cell fails with the class, the itemizing does not', () => {
    const js = judged([ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), deleted(a12)]);
    const cell = js.find((j) => j.clause === 'rest:4.5/watch/unset')!;
    expect(cell).toMatchObject({ verdict: 'fail', class: 'watch-start-stale', input: 'watch-most-recent' });
    expect(js.find((j) => j.clause === 'rest:4.5/meaning/get-state-start')).toMatchObject({ verdict: 'fail', class: 'watch-start-stale' });
    expect(js.some((j) => j.clause === 'rest:6.1.1' && j.verdict === 'fail')).toBe(false);
  });

  it('near misses keep no class: an old state with a change missing is a gap (rest:6.1.1)', () => {
    const js = judged([ev('ADDED', a10), ev('ADDED', b11), deleted(a12)]);
    expect(js.some((j) => j.verdict === 'fail' && j.clause === 'rest:6.1.1')).toBe(true);
    expect(js.some((j) => j.class === 'watch-start-stale')).toBe(false);
  });

  it('a start at the request passes and records the input', () => {
    const js = judged([ev('ADDED', a12), ev('ADDED', b11), deleted(a12)]);
    expect(js.filter((j) => j.verdict === 'fail')).toEqual([]);
    expect(js.find((j) => j.clause === 'rest:4.5/watch/unset')).toMatchObject({ verdict: 'pass', input: 'watch-most-recent' });
  });

  it('Get State and Start at Any may start from the old state: no failure at all', () => {
    const any: WatchExpectation = { ...mostRecent(3), semantic: 'GetStateAndStartAtAny', clause: 'rest:4.5/watch/0' };
    const js = judgeWatch(ctx(), any, [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), deleted(a12)]).judgements;
    expect(js.filter((j) => j.verdict === 'fail')).toEqual([]);
  });
});

describe('emptied-list-refused: an apply that leaves a list with no items', () => {
  it('tags a list that held items and is left empty, nowhere else', () => {
    expect(emptiedListTags({ spec: { l: [{ name: 'p' }] } }, { spec: { l: [] } })).toEqual({
      input: 'apply-empties-list',
      class: 'emptied-list-refused',
    });
    expect(emptiedListTags({ spec: { l: ['a'] } }, { spec: { l: ['b'] } })).toBeUndefined();
    expect(emptiedListTags({ spec: { l: [] } }, { spec: { l: [] } })).toBeUndefined();
    // A nested struct emptied, or removed by the model, is stored as null by 1.24 too (fresh seed 2001513194, ha).
    expect(emptiedListTags({ spec: { s: { a: 1 } } }, { spec: { s: {} } })).toEqual({
      input: 'apply-empties-list',
      class: 'emptied-list-refused',
    });
    expect(emptiedListTags({ spec: { s: { a: 1 }, k: 1 } }, { spec: { k: 1 } })).toEqual({
      input: 'apply-empties-list',
      class: 'emptied-list-refused',
    });
    expect(emptiedListTags({ spec: { s: { a: 1 } } }, { spec: { s: { a: 2 } } })).toBeUndefined();
    // The model may remove the emptied list and its parent where upstream keeps the key with null.
    expect(emptiedListTags({ spec: { l: ['a'] } }, { spec: {} })).toEqual({ input: 'apply-empties-list', class: 'emptied-list-refused' });
    expect(emptiedListTags({ spec: { l: ['a'], m: { k: 'v' } } }, {})).toEqual({
      input: 'apply-empties-list',
      class: 'emptied-list-refused',
    });
    expect(emptiedListTags({ spec: { m: { k: 'v' } } }, {})).toBeUndefined();
    expect(emptiedListTags({ spec: { l: ['a'] } }, { spec: { l: ['a'] } })).toBeUndefined();
  });

  const schema = { type: 'map', fields: {} } as never;
  const written = (refusal?: ReturnType<typeof emptiedListTags>): Expected => ({
    kind: 'written',
    object: { spec: { l: [] } },
    managed: [],
    ...(refusal ? { refusal } : {}),
  });
  const refusedBody = { kind: 'Status', message: 'spec.l: Invalid value: "null": spec.l in body must be of type array: "null"' };

  it('a refusal of such an apply fails with the class and its status; a refusal of another write carries none', () => {
    const tags = emptiedListTags({ spec: { l: ['a'] } }, { spec: { l: [] } });
    const js = judgeWrite(written(tags), 422, refusedBody, schema, 'v1', ['rest:4.7.3']);
    expect(js).toEqual([
      expect.objectContaining({ clause: 'rest:4.7.3', verdict: 'fail', class: 'emptied-list-refused', observedStatus: 422 }),
    ]);
    expect(judgeWrite(written(), 422, refusedBody, schema, 'v1', ['rest:4.7.3'])[0]!.class).toBeUndefined();
  });
});
