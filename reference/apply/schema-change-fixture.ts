/**
 * rest:4.7.10 needs a type whose schema the suite can change: one map `spec.m`, granular or atomic,
 * in a definition of its own so that changing it never disturbs the main fixture.
 */
import type { Profile } from '../profile.ts';
import type { ResourceType } from '../resources.ts';
import { crdManifest, fixtureGroup } from './fixture-type.ts';

export function schemaChangeResource(profile: Profile, runId?: string): ResourceType {
  return {
    plural: 'applyschemafixtures',
    kind: 'ApplySchemaFixture',
    group: fixtureGroup(profile, runId),
    version: 'v1',
    namespaced: true,
  };
}

export function schemaChangeVersions(profile: Profile, mapType: 'granular' | 'atomic'): unknown[] {
  const m = { type: 'object', additionalProperties: { type: 'string' }, [profile.mapTypeExtension]: mapType };
  return [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { m } } } } },
    },
  ];
}

export function schemaChangeCrd(profile: Profile, mapType: 'granular' | 'atomic', labels: Record<string, string>): Record<string, unknown> {
  return crdManifest(profile, schemaChangeResource(profile, labels[profile.runLabel]), labels, schemaChangeVersions(profile, mapType));
}

/**
 * The map type the answering server applied, read from the `fieldsV1` tree (2.6) it recorded for a
 * manager that applied `spec.m` with the one entry `x`: granular owns the entry (`f:m` holds `f:x`),
 * atomic owns the whole map (`f:m` is a leaf `{}`). Undefined when the tree shows neither.
 */
export function mapTypeOwnedIn(fieldsV1: unknown): 'granular' | 'atomic' | undefined {
  const child = (t: unknown, key: string): unknown =>
    t !== null && typeof t === 'object' && !Array.isArray(t) ? (t as Record<string, unknown>)[key] : undefined;
  const m = child(child(fieldsV1, 'f:spec'), 'f:m');
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return undefined;
  const owned = Object.keys(m).filter((k) => k !== '.');
  if (owned.length === 0) return 'atomic';
  return owned.length === 1 && owned[0] === 'f:x' ? 'granular' : undefined;
}
