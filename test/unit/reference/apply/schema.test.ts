// rest:4.7.7-4.7.9: the schema extensions are read under each profile's names; the patch-strategy
// fallback applies only without a list type; unknown-field subtrees and schemaless types are untyped.
import { describe, expect, it } from 'vitest';
import { fixtureCrd, fixtureOpenApi, schemaFromOpenApi, schemaOfCrd, type Schema } from '../../../../reference/apply/index.ts';
import { profiles } from '../../../../reference/profile.ts';

const specOf = (s: Schema) => (s.type === 'map' ? (s.fields['spec'] as Schema & { type: 'map' }).fields : {});

describe('schema from OpenAPI with the profile extensions', () => {
  it.each(['svc', 'k8s'] as const)('%s: every list and map type of the table', (name) => {
    const p = profiles[name];
    const f = specOf(schemaFromOpenApi(fixtureOpenApi(p), p));
    expect(f['atomicList']).toMatchObject({ type: 'list', listType: 'atomic' });
    expect(f['setList']).toMatchObject({ type: 'list', listType: 'set' });
    expect(f['mapList']).toMatchObject({ type: 'list', listType: 'map', keys: ['name'] });
    expect(f['multiKeyList']).toMatchObject({ type: 'list', listType: 'map', keys: ['name', 'port'] });
    expect(f['plainList']).toMatchObject({ type: 'list', listType: 'atomic' });
    expect(f['legacyList']).toMatchObject({ type: 'list', listType: 'map', keys: ['name'] });
    expect(f['granularMap']).toMatchObject({ type: 'map', mapType: 'granular' });
    expect(f['atomicMap']).toMatchObject({ type: 'map', mapType: 'atomic' });
    expect(f['atomicStruct']).toMatchObject({ type: 'map', mapType: 'atomic' });
    expect(f['granularStruct']).toMatchObject({ type: 'map', mapType: 'granular' });
    expect(f['free']).toMatchObject({ type: 'map', values: { type: 'untyped' } });
  });

  it("the other profile's extension names are not read (lists fall back to atomic)", () => {
    const f = specOf(schemaFromOpenApi(fixtureOpenApi(profiles.k8s), profiles.svc));
    expect(f['setList']).toMatchObject({ listType: 'atomic' });
    expect(f['legacyList']).toMatchObject({ listType: 'atomic' });
  });

  it('rest:4.7.8: an explicit list type wins over the patch strategy', () => {
    const p = profiles.svc;
    const s = schemaFromOpenApi(
      {
        type: 'array',
        [p.listTypeExtension]: 'atomic',
        [p.patchStrategyExtension]: 'merge',
        [p.patchMergeKeyExtension]: 'name',
        items: { type: 'object' },
      },
      p,
    );
    expect(s).toMatchObject({ listType: 'atomic' });
    const r = schemaFromOpenApi(
      { type: 'array', [p.patchStrategyExtension]: 'retainKeys,merge', [p.patchMergeKeyExtension]: 'name', items: { type: 'object' } },
      p,
    );
    expect(r).toMatchObject({ listType: 'map', keys: ['name'] });
  });

  it('rest:4.7.9: a CRD without a schema is unstructured', () => {
    const s = schemaOfCrd({ spec: { versions: [{ name: 'v1' }] } }, profiles.svc);
    expect(s).toMatchObject({ type: 'map', values: { type: 'untyped' } });
  });

  // The group carries the run id: two runs against one cluster never share (and delete) one definition.
  it('the fixture CRD is named plural.group in a group of its run, labelled, and leaves out the fallback list', () => {
    const crd = fixtureCrd(profiles.k8s, { 'svc-conformance/run': 'r1' }) as {
      metadata: { name: string; labels: object };
      spec: { versions: { schema: { openAPIV3Schema: unknown } }[] };
    };
    expect(crd.metadata.name).toBe('applyfixtures.rr1.fixtures.svc-conformance.test');
    expect((fixtureCrd(profiles.k8s, { 'svc-conformance/run': 'r2' }) as { metadata: { name: string } }).metadata.name).not.toBe(
      crd.metadata.name,
    );
    expect(crd.metadata.labels).toEqual({ 'svc-conformance/run': 'r1' });
    expect(JSON.stringify(crd.spec.versions[0]!.schema)).not.toContain('legacyList');
    expect(JSON.stringify(crd.spec.versions[0]!.schema)).toContain('x-kubernetes-list-map-keys');
  });
});

describe('the fixture definitions of the run', () => {
  it('share one shape: apiextensions of the profile, plural.group as name, names from the type, namespaced, labelled', async () => {
    const { schemaChangeCrd } = await import('../../../../reference/apply/schema-change-fixture.ts');
    const { authzFixtureCrd } = await import('../../../../reference/authz.ts');
    const labels = { 'svc-conformance/run': 'r1' };
    const crds = [
      fixtureCrd(profiles.svc, labels),
      schemaChangeCrd(profiles.svc, 'atomic', labels),
      authzFixtureCrd(profiles.svc, 'r1', labels),
    ] as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; labels: object };
      spec: {
        group: string;
        scope: string;
        names: { plural: string; singular: string; kind: string; listKind: string };
        versions: unknown[];
      };
    }[];
    expect(crds.map((c) => c.metadata.name)).toEqual([
      'applyfixtures.rr1.fixtures.svc-conformance.test',
      'applyschemafixtures.rr1.fixtures.svc-conformance.test',
      'authzwidgets.rr1.fixtures.svc-conformance.test',
    ]);
    for (const c of crds) {
      expect(c).toMatchObject({ apiVersion: 'apiextensions.svc.io/v1', kind: 'CustomResourceDefinition', metadata: { labels } });
      expect(c.metadata.name).toBe(`${c.spec.names.plural}.${c.spec.group}`);
      expect(c.spec.scope).toBe('Namespaced');
      expect(c.spec.names).toEqual({
        plural: c.spec.names.plural,
        singular: c.spec.names.kind.toLowerCase(),
        kind: c.spec.names.kind,
        listKind: `${c.spec.names.kind}List`,
      });
      expect(c.spec.versions).toHaveLength(1);
    }
  });
});
