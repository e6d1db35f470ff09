/**
 * The schema the apply model needs (rest:4.7.7-4.7.9): how each list and map is owned.
 *   list atomic  the whole list is one leaf with one owner; nothing inside is tracked (recursively)
 *   list set     unique scalars, each item owned on its own (`v:` elements)
 *   list map     objects identified by their key fields, each owned on its own (`k:` elements)
 *   map granular each field or entry owned on its own (`f:` elements); structs are maps with fields
 *   map atomic   the whole map or struct is one leaf
 *   untyped      no schema (rest:4.7.9): objects are granular, every list is atomic
 */
import { isRecord } from '../objects.ts';
import type { Profile } from '../profile.ts';
import { own } from './values.ts';

export type Schema =
  | { readonly type: 'scalar' }
  | { readonly type: 'list'; readonly listType: 'atomic' | 'set' | 'map'; readonly keys: readonly string[]; readonly items: Schema }
  | {
      readonly type: 'map';
      readonly mapType: 'atomic' | 'granular';
      readonly fields: Readonly<Record<string, Schema>>;
      readonly values: Schema | undefined;
    }
  | { readonly type: 'untyped' };

export const scalar: Schema = { type: 'scalar' };
export const untyped: Schema = { type: 'untyped' };
export const atomicList = (items: Schema = scalar): Schema => ({ type: 'list', listType: 'atomic', keys: [], items });
export const setList = (items: Schema = scalar): Schema => ({ type: 'list', listType: 'set', keys: [], items });
export const mapList = (keys: readonly string[], items: Schema): Schema => ({ type: 'list', listType: 'map', keys, items });
export const struct = (fields: Record<string, Schema>, mapType: 'atomic' | 'granular' = 'granular', values?: Schema): Schema => ({
  type: 'map',
  mapType,
  fields,
  values,
});
export const mapOf = (values: Schema = scalar, mapType: 'atomic' | 'granular' = 'granular'): Schema => ({
  type: 'map',
  mapType,
  fields: {},
  values,
});

/** Schema of a struct field or map entry; undeclared fields of a struct without values are untyped. */
export function fieldSchema(s: Schema & { type: 'map' }, name: string): { schema: Schema; declared: boolean } {
  const declared = own(s.fields, name) as Schema | undefined;
  if (declared) return { schema: declared, declared: true };
  return { schema: s.values ?? untyped, declared: false };
}

/** The concrete shape of a value under a schema; `leaf` for scalars, atomics and mismatches. */
export type Shape = 'leaf' | 'map' | 'list';

export function resolve(s: Schema, v: unknown): { shape: Shape; schema: Schema } {
  if (s.type === 'untyped') {
    if (isRecord(v)) return { shape: 'map', schema: { type: 'map', mapType: 'granular', fields: {}, values: untyped } };
    return { shape: 'leaf', schema: s };
  }
  if (s.type === 'map' && s.mapType === 'granular' && isRecord(v)) return { shape: 'map', schema: s };
  if (s.type === 'list' && s.listType !== 'atomic' && Array.isArray(v)) return { shape: 'list', schema: s };
  return { shape: 'leaf', schema: s };
}

/**
 * metadata.ownerReferences: no list type, but ObjectMeta's markers patchStrategy=merge and
 * patchMergeKey=uid, which rest:4.7.8 reads as a list map keyed by uid. `atomic`: the planted fault
 * patch-merge-key-ignored of the reference server (the markers not read: an atomic list).
 */
export function ownerReferencesSchema(atomic = false): Schema {
  const item = struct({ apiVersion: scalar, kind: scalar, name: scalar, uid: scalar, controller: scalar, blockOwnerDeletion: scalar });
  return atomic ? atomicList(item) : mapList(['uid'], item);
}

/** The tracked part of every object (rest:2.3): labels and annotations are granular string maps. */
export const metadataSchema: Schema = struct({
  labels: mapOf(scalar),
  annotations: mapOf(scalar),
  finalizers: setList(),
  ownerReferences: ownerReferencesSchema(),
});

/** rest:4.7.9: a custom resource without a schema: keys are fields, every list is atomic. */
export const unstructuredSchema: Schema = struct({ metadata: metadataSchema }, 'granular', untyped);

/** ConfigMap: `data` and `binaryData` are granular maps of strings. */
export const configMapSchema: Schema = struct({
  metadata: metadataSchema,
  data: mapOf(scalar),
  binaryData: mapOf(scalar),
  immutable: scalar,
});

/**
 * Reads an OpenAPI v3 schema node with the profile's extensions (rest:4.7.7), the
 * patchMergeStrategy/patchMergeKey fallback for lists without a list type (rest:4.7.8, written
 * `x-<product>-patch-strategy` / `x-<product>-patch-merge-key`), and preserve-unknown-fields
 * subtrees as untyped (rest:4.7.9).
 */
export function schemaFromOpenApi(node: unknown, profile: Profile): Schema {
  if (!isRecord(node)) return untyped;
  const ext = (name: string) => own(node, name);
  const type = own(node, 'type');
  if (type === 'array') {
    const items = schemaFromOpenApi(own(node, 'items'), profile);
    const listType = ext(profile.listTypeExtension);
    if (listType === 'set') return setList(items);
    if (listType === 'map') return mapList(stringList(ext(profile.listMapKeysExtension)), items);
    if (listType === undefined) {
      const strategy = ext(profile.patchStrategyExtension);
      const key = ext(profile.patchMergeKeyExtension);
      if (typeof strategy === 'string' && strategy.split(',').includes('merge') && typeof key === 'string') return mapList([key], items);
    }
    return atomicList(items);
  }
  if (type === 'object' || own(node, 'properties') !== undefined) {
    const mapType = ext(profile.mapTypeExtension) === 'atomic' ? 'atomic' : 'granular';
    const props = own(node, 'properties');
    const fields: Record<string, Schema> = {};
    if (isRecord(props))
      for (const k of Object.keys(props))
        Object.defineProperty(fields, k, { value: schemaFromOpenApi(props[k], profile), enumerable: true });
    const extra = own(node, 'additionalProperties');
    const values = isRecord(extra)
      ? schemaFromOpenApi(extra, profile)
      : ext(profile.preserveUnknownFieldsExtension) === true || !isRecord(props)
        ? untyped
        : undefined;
    return { type: 'map', mapType, fields, values };
  }
  if (type === undefined) return untyped;
  return scalar;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
