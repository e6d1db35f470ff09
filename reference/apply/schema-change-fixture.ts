/**
 * rest:4.7.10 needs a type whose schema the suite can change: one map `spec.m`, granular or atomic,
 * in a definition of its own so that changing it never disturbs the main fixture.
 */
import type { Profile } from '../profile.ts';
import type { ResourceType } from '../resources.ts';
import { crdManifest, fixtureGroup } from './fixture-type.ts';

export function schemaChangeResource(profile: Profile, runId?: string): ResourceType {
  return { plural: 'applyschemafixtures', kind: 'ApplySchemaFixture', group: fixtureGroup(profile, runId), version: 'v1', namespaced: true };
}

export function schemaChangeVersions(profile: Profile, mapType: 'granular' | 'atomic'): unknown[] {
  const m = { type: 'object', additionalProperties: { type: 'string' }, [profile.mapTypeExtension]: mapType };
  return [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { m } } } } } }];
}

export function schemaChangeCrd(profile: Profile, mapType: 'granular' | 'atomic', labels: Record<string, string>): Record<string, unknown> {
  return crdManifest(profile, schemaChangeResource(profile, labels[profile.runLabel]), labels, schemaChangeVersions(profile, mapType));
}
