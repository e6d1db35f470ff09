/**
 * The fixture type of the apply suites: one field per row of the rest:4.7.7 table and an untyped
 * subtree (rest:4.7.9), written as an OpenAPI v3 schema with the profile's extension names; the
 * suite installs it as a CustomResourceDefinition. The model tests also use a list relying on the
 * patchMergeStrategy fallback (rest:4.7.8), which only built-in types can carry.
 */
import { namedGroup, type Profile } from '../profile.ts';
import type { ResourceType } from '../resources.ts';
import { metadataSchema, schemaFromOpenApi, struct, type Schema } from './schema.ts';

/**
 * The suite's own group for its fixture types, in both profiles: outside the product's groups, which a
 * server may reserve (upstream refuses definitions in `*.k8s.io` without an API-review approval
 * annotation), under the `.test` domain that RFC 2606 keeps for testing.
 */
export const FIXTURE_GROUP = 'fixtures.svc-conformance.test';

/**
 * The group of a run's fixture types: one per run (`r<run-id>.fixtures.svc-conformance.test`), so two
 * runs against one cluster never share a cluster-scoped definition that the first to finish would delete.
 */
export function fixtureGroup(_profile: Profile, runId?: string): string {
  return runId === undefined ? FIXTURE_GROUP : `r${runId}.${FIXTURE_GROUP}`;
}

export function fixtureResource(profile: Profile, runId?: string): ResourceType {
  return { plural: 'applyfixtures', kind: 'ApplyFixture', group: fixtureGroup(profile, runId), version: 'v1', namespaced: true };
}

const str = { type: 'string' };

export function fixtureOpenApi(profile: Profile, opts: { fallbackList: boolean } = { fallbackList: true }): Record<string, unknown> {
  const lt = profile.listTypeExtension;
  const keys = profile.listMapKeysExtension;
  const mt = profile.mapTypeExtension;
  // Key fields are required: upstream refuses map-list keys that are neither required nor defaulted.
  const spec: Record<string, unknown> = {
    atomicList: { type: 'array', items: str, [lt]: 'atomic' },
    setList: { type: 'array', items: str, [lt]: 'set' },
    mapList: {
      type: 'array',
      [lt]: 'map',
      [keys]: ['name'],
      items: { type: 'object', required: ['name'], properties: { name: str, value: str, note: str } },
    },
    multiKeyList: {
      type: 'array',
      [lt]: 'map',
      [keys]: ['name', 'port'],
      items: { type: 'object', required: ['name', 'port'], properties: { name: str, port: { type: 'integer' }, value: str } },
    },
    plainList: { type: 'array', items: str },
    granularMap: { type: 'object', additionalProperties: str, [mt]: 'granular' },
    atomicMap: { type: 'object', additionalProperties: str, [mt]: 'atomic' },
    granularStruct: { type: 'object', properties: { a: str, b: str } },
    atomicStruct: { type: 'object', properties: { a: str, b: str }, [mt]: 'atomic' },
    free: { type: 'object', [profile.preserveUnknownFieldsExtension]: true },
  };
  if (opts.fallbackList)
    spec['legacyList'] = {
      type: 'array',
      [profile.patchStrategyExtension]: 'merge',
      [profile.patchMergeKeyExtension]: 'name',
      items: { type: 'object', properties: { name: str, value: str } },
    };
  return { type: 'object', properties: { spec: { type: 'object', properties: spec } } };
}

/** The tracked part's schema: metadata as every object has it, plus the fixture's body. */
export function fixtureSchema(profile: Profile, opts: { fallbackList: boolean } = { fallbackList: true }): Schema {
  const body = schemaFromOpenApi(fixtureOpenApi(profile, opts), profile);
  return body.type === 'map' ? struct({ ...body.fields, metadata: metadataSchema }) : body;
}

export const FIXTURE_FIELDS = [
  'atomicList',
  'setList',
  'mapList',
  'multiKeyList',
  'plainList',
  'granularMap',
  'atomicMap',
  'granularStruct',
  'atomicStruct',
  'free',
  'legacyList',
] as const;

/** Where custom resource definitions are served (cluster-scoped). */
export function crdResource(profile: Profile): ResourceType {
  return {
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    group: namedGroup(profile, 'apiextensions'),
    version: 'v1',
    namespaced: false,
  };
}

/**
 * The CustomResourceDefinition of a namespaced fixture type of the run, labelled for it
 * (docs/architecture.md "Safety"): named `<plural>.<group>`, with the names derived from the type.
 *
 *   crdManifest(svc, { plural: 'ws', kind: 'W', group: 'g.x', ... }, labels, versions)
 *     -> { apiVersion: 'apiextensions.svc.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ws.g.x', labels }, spec: { group: 'g.x', ... } }
 */
export function crdManifest(
  profile: Profile,
  rt: ResourceType,
  labels: Record<string, string>,
  versions: readonly unknown[],
): Record<string, unknown> {
  const crd = crdResource(profile);
  return {
    apiVersion: `${crd.group}/${crd.version}`,
    kind: crd.kind,
    metadata: { name: `${rt.plural}.${rt.group}`, labels },
    spec: {
      group: rt.group,
      scope: 'Namespaced',
      names: { plural: rt.plural, singular: rt.kind.toLowerCase(), kind: rt.kind, listKind: `${rt.kind}List` },
      versions,
    },
  };
}

/** The fixture as a CustomResourceDefinition. A CRD cannot carry patch-strategy markers, so the rest:4.7.8 list is left out. */
export function fixtureCrd(profile: Profile, labels: Record<string, string>): Record<string, unknown> {
  const rt = fixtureResource(profile, labels[profile.runLabel]);
  return crdManifest(profile, rt, labels, [
    { name: rt.version, served: true, storage: true, schema: { openAPIV3Schema: fixtureOpenApi(profile, { fallbackList: false }) } },
  ]);
}

/** The schema a served CRD declares for its first version (rest:4.7.7-4.7.9), with object metadata. */
export function schemaOfCrd(crd: unknown, profile: Profile): Schema {
  const versions = (crd as { spec?: { versions?: { schema?: { openAPIV3Schema?: unknown } }[] } })?.spec?.versions;
  const body = schemaFromOpenApi(versions?.[0]?.schema?.openAPIV3Schema, profile);
  return body.type === 'map'
    ? struct({ ...body.fields, metadata: metadataSchema })
    : struct({ metadata: metadataSchema }, 'granular', body);
}
