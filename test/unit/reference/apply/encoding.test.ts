// rest:2.6 FieldsV1 and managedFields encoding, and the two non-apply patch models (rest:4.1).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeFieldsV1,
  decodeManagedFields,
  encodeFieldsV1,
  encodeManagedFields,
  FieldSet,
  isFieldsV1Error,
  jsonPatch,
  keyElement,
  mergePatch,
  valueElement,
  type Path,
} from '../../../../reference/apply/index.ts';

const elementArb = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => `f:${s}`),
  fc.record({ name: fc.string({ maxLength: 4 }), port: fc.integer({ min: 0, max: 9 }) }).map((k) => keyElement(k)),
  fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()).map(valueElement),
);
const setArb = fc.array(fc.array(elementArb, { minLength: 1, maxLength: 4 }), { maxLength: 12 }).map((ps) => FieldSet.of(ps as Path[]));

describe('FieldsV1', () => {
  it('writes leaves as {} and a member with children with "."', () => {
    const s = FieldSet.of([
      ['f:spec'],
      ['f:spec', 'f:x'],
      ['f:data', 'f:a'],
      ['f:l', 'k:{"name":"a"}'],
      ['f:l', 'k:{"name":"a"}', 'f:name'],
    ]);
    expect(encodeFieldsV1(s)).toEqual({
      'f:data': { 'f:a': {} },
      'f:l': { 'k:{"name":"a"}': { '.': {}, 'f:name': {} } },
      'f:spec': { '.': {}, 'f:x': {} },
    });
  });

  it('key elements sort their fields by name, as upstream', () => {
    expect(keyElement({ port: 80, name: 'p' })).toBe('k:{"name":"p","port":80}');
  });

  it('decode(encode(s)) = s for any set, keys like __proto__ included', () => {
    fc.assert(
      fc.property(setArb, (s) => {
        const back = decodeFieldsV1(JSON.parse(JSON.stringify(encodeFieldsV1(s))));
        expect(isFieldsV1Error(back)).toBe(false);
        expect((back as FieldSet).equals(s)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses what is not a path element', () => {
    expect(isFieldsV1Error(decodeFieldsV1({ 'x:y': {} }))).toBe(true);
    expect(isFieldsV1Error(decodeFieldsV1({ 'f:a': 1 }))).toBe(true);
    expect(isFieldsV1Error(decodeFieldsV1({ 'k:[1]': {} }))).toBe(true);
  });

  it('managedFields entries round trip with every rest:2.6 field', () => {
    const entries = [
      {
        manager: 'm',
        operation: 'Apply' as const,
        apiVersion: 'v1',
        time: '2026-01-01T00:00:00Z',
        fields: FieldSet.of([['f:data', 'f:a']]),
      },
    ];
    const wire = encodeManagedFields(entries);
    expect(wire[0]).toEqual({
      manager: 'm',
      operation: 'Apply',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {} } },
    });
    const back = decodeManagedFields(wire);
    expect(Array.isArray(back) && back[0]!.fields.equals(entries[0]!.fields)).toBe(true);
    expect(Array.isArray(decodeManagedFields([{ operation: 'Delete' }]))).toBe(false);
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  it('the RFC examples', () => {
    expect(mergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
    expect(mergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
    expect(mergePatch({ a: 'b' }, { a: null })).toEqual({});
    expect(mergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
    expect(mergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(mergePatch([1, 2], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(mergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });

  it('__proto__ and constructor are plain keys, and the target is untouched', () => {
    const target = JSON.parse('{"__proto__":{"x":1},"constructor":"c"}') as Record<string, unknown>;
    const out = mergePatch(target, JSON.parse('{"__proto__":{"y":2},"constructor":null}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":1,"y":2}}');
    expect(JSON.stringify(target)).toBe('{"__proto__":{"x":1},"constructor":"c"}');
  });

  it('patching with the patch twice is the same as once (idempotent)', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (t, p) => {
        const once = mergePatch(t, p);
        expect(JSON.stringify(mergePatch(once, p))).toBe(JSON.stringify(once));
      }),
      { numRuns: 200 },
    );
  });
});

describe('JSON patch (RFC 6902 through rfc6902)', () => {
  it('applies to a clone; a failing test fails the whole patch', () => {
    const target = { data: { a: '1' } };
    expect(
      jsonPatch(target, [
        { op: 'add', path: '/data/b', value: '2' },
        { op: 'remove', path: '/data/a' },
      ]),
    ).toEqual({ ok: true, value: { data: { b: '2' } } });
    expect(target).toEqual({ data: { a: '1' } });
    const failed = jsonPatch(target, [
      { op: 'add', path: '/data/b', value: '2' },
      { op: 'test', path: '/data/a', value: 'x' },
    ]);
    expect(failed.ok).toBe(false);
    expect(target).toEqual({ data: { a: '1' } });
    expect(jsonPatch(target, { op: 'add' }).ok).toBe(false);
    expect(jsonPatch(target, [{ op: 'remove', path: '/nope' }]).ok).toBe(false);
  });
});

describe('rest:4.7.5 the record a non-apply write starts from', () => {
  const live = [{ manager: 'a', operation: 'Apply' as const, apiVersion: 'v1', time: undefined, fields: FieldSet.of([['f:data', 'f:k']]) }];
  const decode = (v: unknown) => {
    const d = decodeManagedFields(v);
    return Array.isArray(d) ? d : { message: d.message };
  };
  it('[{}] (and [{}, {}]) resets; [], absent and undecodable keep the live record', async () => {
    const { startingManagedFields } = await import('../../../../reference/apply/index.ts');
    expect(startingManagedFields([{}], live, decode)).toEqual([]);
    expect(startingManagedFields([{}, {}], live, decode)).toEqual([]);
    expect(startingManagedFields([], live, decode)).toBe(live);
    expect(startingManagedFields(undefined, live, decode)).toBe(live);
    expect(startingManagedFields([{ operation: 'Delete' }], live, decode)).toBe(live);
    expect(startingManagedFields(encodeManagedFields([{ ...live[0]!, manager: 'b' }]), live, decode)[0]!.manager).toBe('b');
  });
});
