/**
 * The fixture type of the apply suites: one field per row of the rest:4.7.7 table, a list relying on
 * the patchMergeStrategy fallback (rest:4.7.8) and an untyped subtree (rest:4.7.9), written as an
 * OpenAPI v3 schema with the profile's extension names. The reference server serves it; a target
 * with custom resources gets it as a CustomResourceDefinition (without the fallback list, which only
 * built-in types can carry).
 */
import { namedGroup, type Profile } from '../profile.ts';
import type { ResourceType } from '../resources.ts';
import { metadataSchema, schemaFromOpenApi, struct, type Schema } from './schema.ts';

export function fixtureResource(profile: Profile): ResourceType {
  return { plural: 'applyfixtures', kind: 'ApplyFixture', group: namedGroup(profile, 'fixtures'), version: 'v1', namespaced: true };
}

const str = { type: 'string' };

export function fixtureOpenApi(profile: Profile, opts: { fallbackList: boolean } = { fallbackList: true }): Record<string, unknown> {
  const lt = profile.listTypeExtension;
  const keys = profile.listMapKeysExtension;
  const mt = profile.mapTypeExtension;
  const spec: Record<string, unknown> = {
    atomicList: { type: 'array', items: str, [lt]: 'atomic' },
    setList: { type: 'array', items: str, [lt]: 'set' },
    mapList: { type: 'array', [lt]: 'map', [keys]: ['name'], items: { type: 'object', properties: { name: str, value: str, note: str } } },
    multiKeyList: { type: 'array', [lt]: 'map', [keys]: ['name', 'port'], items: { type: 'object', properties: { name: str, port: { type: 'integer' }, value: str } } },
    plainList: { type: 'array', items: str },
    granularMap: { type: 'object', additionalProperties: str, [mt]: 'granular' },
    atomicMap: { type: 'object', additionalProperties: str, [mt]: 'atomic' },
    granularStruct: { type: 'object', properties: { a: str, b: str } },
    atomicStruct: { type: 'object', properties: { a: str, b: str }, [mt]: 'atomic' },
    free: { type: 'object', [profile.preserveUnknownFieldsExtension]: true },
  };
  if (opts.fallbackList) spec['legacyList'] = { type: 'array', [profile.patchStrategyExtension]: 'merge', [profile.patchMergeKeyExtension]: 'name', items: { type: 'object', properties: { name: str, value: str } } };
  return { type: 'object', properties: { spec: { type: 'object', properties: spec } } };
}

/** The tracked part's schema: metadata as every object has it, plus the fixture's body. */
export function fixtureSchema(profile: Profile): Schema {
  const body = schemaFromOpenApi(fixtureOpenApi(profile), profile);
  return body.type === 'map' ? struct({ ...body.fields, metadata: metadataSchema }) : body;
}

export const FIXTURE_FIELDS = ['atomicList', 'setList', 'mapList', 'multiKeyList', 'plainList', 'granularMap', 'atomicMap', 'granularStruct', 'atomicStruct', 'free', 'legacyList'] as const;
