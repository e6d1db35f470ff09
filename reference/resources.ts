/**
 * The resource types this slice exercises, as data (rest:4.1, rest:2.2). Paths are built from these
 * descriptors only, so the same suite addresses the core group and a named group.
 */
import { namedGroup, type Profile } from './profile.ts';

export interface ResourceType {
  /** Name in the URL (rest:2.1 "resource type"). */
  readonly plural: string;
  readonly kind: string;
  /** '' for the core group (rest:9.1.1). */
  readonly group: string;
  readonly version: string;
  readonly namespaced: boolean;
}

export function resourceTypes(profile: Profile) {
  return {
    namespaces: { plural: 'namespaces', kind: 'Namespace', group: '', version: 'v1', namespaced: false },
    configmaps: { plural: 'configmaps', kind: 'ConfigMap', group: '', version: 'v1', namespaced: true },
    leases: { plural: 'leases', kind: 'Lease', group: namedGroup(profile, 'coordination'), version: 'v1', namespaced: true },
  } as const satisfies Record<string, ResourceType>;
}

/** rest:2.3 `apiVersion`: `v1` for the core group, otherwise `$GROUP_NAME/$VERSION`. */
export function apiVersionOf(rt: ResourceType): string {
  return rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
}

/** rest:2.4.1 collection kind. */
export function listKindOf(rt: ResourceType): string {
  return `${rt.kind}List`;
}

/** rest:4.1 / rest:9.1 path prefix: `/api/v1` or `/apis/{group}/{version}`. */
export function groupVersionPrefix(rt: ResourceType): string {
  return rt.group === '' ? `/api/${rt.version}` : `/apis/${rt.group}/${rt.version}`;
}

/**
 * rest:4.1 collection path. For a namespaced type without a namespace this is the all-namespaces
 * collection (`/apis/{g}/{v}/{resourcetype}`).
 */
export function collectionPath(rt: ResourceType, namespace?: string): string {
  const base = groupVersionPrefix(rt);
  return rt.namespaced && namespace !== undefined
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${rt.plural}`
    : `${base}/${rt.plural}`;
}

/** rest:4.1 object path. */
export function objectPath(rt: ResourceType, name: string, namespace?: string): string {
  return `${collectionPath(rt, namespace)}/${encodeURIComponent(name)}`;
}
