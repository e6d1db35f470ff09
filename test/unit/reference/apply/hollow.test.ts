// Empty maps and lists sent or left out (reference/apply/hollow.ts): an upstream kube-apiserver drops
// `data: {}` (Go omitempty) and, the field being gone, nobody owns `.data`. The judge accepts that form
// and the model's own, carries on from the target's, and still rejects answers that differ in content.
import { describe, expect, it } from 'vitest';
import {
  adoptHollowForm,
  alignedExpectation,
  hollowForNull,
  configMapSchema,
  encodeManagedFields,
  expectedOf,
  fixtureSchema,
  hollowMismatch,
  isHollow,
  judgeWrite,
  mergePatch,
  startingManagedFields,
  update,
  withTrackedPart,
  type ManagedEntry,
  type WriteOutcome,
} from '../../../../reference/apply/index.ts';
import { FieldSet } from '../../../../reference/apply/index.ts';
import { profiles } from '../../../../reference/profile.ts';

const NOW = '2026-01-01T00:00:00Z';
const cm = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'o', labels: { run: 'r' } },
  ...extra,
});
const created = update({
  live: undefined,
  managed: [],
  object: cm(),
  manager: 'creator',
  schema: configMapSchema,
  apiVersion: 'v1',
  now: NOW,
});

/** `merge patch {"data":{"k1":null}}` on a ConfigMap without data, by mgr-a: the model says `data: {}`. */
const patched = update({
  live: created.object,
  managed: created.managed,
  object: mergePatch(created.object, { data: { k1: null } }) as Record<string, unknown>,
  manager: 'mgr-a',
  schema: configMapSchema,
  apiVersion: 'v1',
  now: NOW,
});
/** PUT data {k1} by mgr-a, then a JSON patch removing /data/k1: the model keeps `data: {}` owned by mgr-a. */
const put = update({
  live: created.object,
  managed: created.managed,
  object: cm({ data: { k1: 'v1' } }),
  manager: 'mgr-a',
  schema: configMapSchema,
  apiVersion: 'v1',
  now: NOW,
});
const removed = update({
  live: put.object,
  managed: put.managed,
  object: cm({ data: {} }),
  manager: 'mgr-a',
  schema: configMapSchema,
  apiVersion: 'v1',
  now: NOW,
});

const answer = (out: WriteOutcome, body: Record<string, unknown>, managed: readonly ManagedEntry[] = out.managed) => ({
  ...cm(body),
  metadata: { name: 'o', labels: { run: 'r' }, managedFields: encodeManagedFields(managed) },
});
const failures = (out: WriteOutcome, json: unknown) =>
  judgeWrite(expectedOf(out), 200, json, configMapSchema, 'v1', ['rest:4.1/patch'])
    .filter((j) => j.verdict === 'fail')
    .map((j) => `${j.clause}: ${j.observed}`);
const creatorOnly = (out: WriteOutcome) => out.managed.filter((e) => e.manager === 'creator');

describe('empty maps and lists: sent or left out', () => {
  it('the model keeps an empty data map and its owner (the form a server that keeps it shows)', () => {
    expect(patched.object['data']).toEqual({});
    expect(removed.object['data']).toEqual({});
    expect(removed.managed.find((e) => e.manager === 'mgr-a')?.fields.paths()).toEqual([['f:data']]);
  });

  it('accepts the upstream form: data left out, and no entry for the writer that owned only .data', () => {
    expect(failures(patched, answer(patched, {}, creatorOnly(patched)))).toEqual([]);
    expect(failures(removed, answer(removed, {}, creatorOnly(removed)))).toEqual([]);
    // ... and the model's own form, of course.
    expect(failures(removed, answer(removed, { data: {} }))).toEqual([]);
  });

  it('accepts null in place of the emptied map (upstream stores a free-form map an apply emptied so), and carries on from it', () => {
    expect(failures(removed, answer(removed, { data: null }))).toEqual([]);
    expect(hollowMismatch({ spec: { free: { m: {} } } }, { spec: { free: { m: null } } }).paths()).toEqual([['f:spec', 'f:free', 'f:m']]);
    expect(hollowMismatch({ spec: { free: {} } }, { spec: { free: { m: null } } }).paths()).toEqual([['f:spec', 'f:free', 'f:m']]);
    // null against content is no representation choice.
    expect(failures(put, answer(put, { data: null }))).not.toEqual([]);
    expect(hollowMismatch({ spec: { free: { m: { k: 'v' } } } }, { spec: { free: { m: null } } }).isEmpty()).toBe(true);
    // The sequence carries on from the empty map (upstream merges into it as into {}), not from a null scalar.
    expect(hollowForNull({ spec: { free: { m: null }, a: null } }, { spec: { free: { m: {} }, a: 'x' } })).toEqual({
      spec: { free: { m: {} }, a: null },
    });
  });

  it('rejects near misses: content in place of the empty map, or ownership wrong outside it', () => {
    expect(failures(removed, answer(removed, { data: { k1: 'v1' } }))).not.toEqual([]);
    expect(failures(removed, answer(removed, { data: { k1: 'v1' } }, creatorOnly(removed)))).not.toEqual([]);
    // data left out, but the creator's labels given to mgr-a: not a representation choice.
    const wrong: ManagedEntry[] = [
      { manager: 'mgr-a', operation: 'Update', apiVersion: 'v1', time: NOW, fields: creatorOnly(removed)[0]!.fields },
    ];
    expect(failures(removed, answer(removed, {}, wrong))).not.toEqual([]);
    // data left out and the creator's entry missing.
    expect(failures(removed, answer(removed, {}, []))).not.toEqual([]);
  });

  it("a sequence carries on from the target's form: the next write is predicted as for an absent map", () => {
    const aligned = alignedExpectation(removed, answer(removed, {}, creatorOnly(removed)), configMapSchema);
    expect(aligned.object['data']).toBeUndefined();
    expect(aligned.managed.map((e) => e.manager)).toEqual(['creator']);
    // mgr-b now writes data {k2}: it owns .data and .data.k2 (the map is new again), mgr-a nothing.
    const next = update({
      live: aligned.object,
      managed: startingManagedFields(undefined, aligned.managed, () => []),
      object: cm({ data: { k2: 'v' } }),
      manager: 'mgr-b',
      schema: configMapSchema,
      apiVersion: 'v1',
      now: NOW,
    });
    expect(next.managed.find((e) => e.manager === 'mgr-b')?.fields.equals(FieldSet.of([['f:data'], ['f:data', 'f:k2']]))).toBe(true);
  });

  it('adopts a kept empty map and its owner from the target where the model had none', () => {
    const model = { tracked: { spec: { a: 'x' } }, managed: [] as ManagedEntry[] };
    const owner: ManagedEntry = {
      manager: 'm',
      operation: 'Update',
      apiVersion: 'v1',
      time: undefined,
      fields: FieldSet.of([['f:spec', 'f:granularMap']]),
    };
    const a = adoptHollowForm(model, { tracked: { spec: { a: 'x', granularMap: {} } }, managed: [owner] });
    expect(a.tracked).toEqual({ spec: { a: 'x', granularMap: {} } });
    expect(a.managed.map((e) => e.fields.paths())).toEqual([[['f:spec', 'f:granularMap']]]);
  });

  it('hollow: [] and {} at any depth of maps; a null, an empty string or a list of empties is not', () => {
    expect([[], {}, { a: {} }, { a: { b: [] } }].every(isHollow)).toBe(true);
    expect([null, '', [{}], { a: null }, { a: '' }].some(isHollow)).toBe(false);
    expect(hollowMismatch({ spec: { m: {} } }, { spec: {} }).paths()).toEqual([['f:spec', 'f:m']]);
    expect(hollowMismatch({ spec: { m: {} } }, {}).paths()).toEqual([['f:spec']]);
    expect(hollowMismatch({ spec: { m: { k: 'v' } } }, {}).isEmpty()).toBe(true);
  });

  it('on the fixture type too: an emptied granular map left out is accepted, an emptied set list kept is accepted', () => {
    const schema = fixtureSchema(profiles.svc);
    const base = { apiVersion: 'v1', kind: 'ApplyFixture', metadata: { name: 'o' } };
    const first = update({
      live: undefined,
      managed: [],
      object: { ...base, spec: { granularMap: { k: '1' }, setList: ['a'] } },
      manager: 'a',
      schema,
      apiVersion: 'v1',
      now: NOW,
    });
    const emptied = update({
      live: first.object,
      managed: first.managed,
      object: { ...base, spec: { granularMap: {}, setList: [] } },
      manager: 'b',
      schema,
      apiVersion: 'v1',
      now: NOW,
    });
    const json = {
      ...withTrackedPart(emptied.object, { spec: { setList: [] } }),
      metadata: {
        name: 'o',
        managedFields: encodeManagedFields(
          emptied.managed.map((e) => ({ ...e, fields: e.fields.filter((p) => p[1] !== 'f:granularMap') })),
        ),
      },
    };
    expect(judgeWrite(expectedOf(emptied), 200, json, schema, 'v1', ['rest:4.7.7']).filter((j) => j.verdict === 'fail')).toEqual([]);
  });
});

describe('a reset combined with other changes (rest:4.7.5)', () => {
  it('ownership verdicts go to the ownership clause only; the stored object is judged under both', () => {
    const model = update({
      live: put.object,
      managed: [],
      object: cm({ data: { k1: 'v1', o1: 'v1' } }),
      manager: 'mgr-b',
      schema: configMapSchema,
      apiVersion: 'v1',
      now: NOW,
    });
    const judge = (json: unknown) =>
      judgeWrite(expectedOf(model), 200, json, configMapSchema, 'v1', ['rest:4.1/put', 'rest:4.7.5'], ['rest:4.7.5'])
        .filter((j) => j.verdict === 'fail')
        .map((j) => j.clause);
    // Upstream: the record reset and nothing recorded for the writer.
    expect(judge({ ...cm({ data: { k1: 'v1', o1: 'v1' } }) })).toEqual(['rest:4.7.5']);
    expect(judge({ ...cm({ data: { k1: 'v1' } }) })).toEqual(expect.arrayContaining(['rest:4.1/put', 'rest:4.7.5']));
    expect(judge(answer(model, { data: { k1: 'v1', o1: 'v1' } }))).toEqual([]);
  });
});
