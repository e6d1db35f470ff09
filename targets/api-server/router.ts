/**
 * Maps a request path onto a resource route (rest:4.1 path shapes) or a discovery document.
 */
import type { Profile } from '../../reference/profile.ts';
import { resourceTypes, type ResourceType } from '../../reference/resources.ts';

export type Route =
  | { readonly kind: 'collection'; readonly rt: ResourceType; readonly namespace: string | undefined }
  | {
      readonly kind: 'object';
      readonly rt: ResourceType;
      readonly namespace: string | undefined;
      readonly name: string;
      readonly subresource?: string;
    }
  | { readonly kind: 'none' };

/** The profile's core types by `group/plural`, the first of each (every request is routed: built once). */
const coreByProfile = new WeakMap<Profile, ReadonlyMap<string, ResourceType>>();
function coreTypes(profile: Profile): ReadonlyMap<string, ResourceType> {
  let m = coreByProfile.get(profile);
  if (m === undefined) {
    const built = new Map<string, ResourceType>();
    for (const rt of Object.values(resourceTypes(profile)) as ResourceType[])
      if (!built.has(`${rt.group}/${rt.plural}`)) built.set(`${rt.group}/${rt.plural}`, rt);
    coreByProfile.set(profile, (m = built));
  }
  return m;
}

/**
 * extraTypes: searched after the core types, in order; a function is called only when a path names no
 * core type (the server's list includes the stored CRDs' types).
 */
export function route(
  profile: Profile,
  pathname: string,
  extraTypes: readonly ResourceType[] | (() => readonly ResourceType[]) = [],
): Route {
  let segs: string[];
  try {
    segs = pathname
      .split('/')
      .filter((s) => s !== '')
      // Only a `%` escape decodes to something else (or throws): most segments have none.
      .map((s) => (s.includes('%') ? decodeURIComponent(s) : s));
  } catch {
    return { kind: 'none' };
  }
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs[1] === 'v1') {
    group = '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 3) {
    group = segs[1]!;
    if (segs[2] !== 'v1') return { kind: 'none' };
    rest = segs.slice(3);
  } else return { kind: 'none' };
  const byPlural = (plural: string | undefined) =>
    coreTypes(profile).get(`${group}/${plural}`) ??
    (typeof extraTypes === 'function' ? extraTypes() : extraTypes).find((r) => r.group === group && r.plural === plural);

  // /namespaces/{ns}/{plural}[/{name}] for namespaced types of this group
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const rt = byPlural(rest[2]);
    if (!rt || !rt.namespaced) return { kind: 'none' };
    if (rest.length === 3) return { kind: 'collection', rt, namespace: rest[1] };
    if (rest.length === 4) return { kind: 'object', rt, namespace: rest[1], name: rest[3]! };
    if (rest.length === 5) return { kind: 'object', rt, namespace: rest[1], name: rest[3]!, subresource: rest[4]! };
    return { kind: 'none' };
  }
  const rt = byPlural(rest[0]);
  if (!rt) return { kind: 'none' };
  if (rest.length === 1) return { kind: 'collection', rt, namespace: undefined };
  if (rest.length === 2 && !rt.namespaced) return { kind: 'object', rt, namespace: undefined, name: rest[1]! };
  if (rest.length === 3 && !rt.namespaced) return { kind: 'object', rt, namespace: undefined, name: rest[1]!, subresource: rest[2]! };
  return { kind: 'none' };
}
