/**
 * Discovery for the types stored CustomResourceDefinitions define. The server served their paths but
 * left them out of discovery, so kubectl answered "no matches for kind" for a custom resource right
 * after creating its CRD. Merged into whatever discovery document the built-in layers produced.
 */
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { crdResource } from '../../reference/apply/index.ts';
import { servedExtraTypes } from './crds.ts';
import type { ServerState } from './state.ts';

/** What a discovery resource entry says a served type supports (every verb this server serves). */
export const DISCOVERY_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type GroupDoc = {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion: { groupVersion: string; version: string };
};

export function withCustomTypes(st: ServerState, path: string, doc: unknown): unknown {
  const crdPlural = crdResource(st.profile).plural;
  const customs = servedExtraTypes(st).filter((t) => !(t.plural === crdPlural && t.group === crdResource(st.profile).group));
  if (customs.length === 0) return doc;
  const versionsOf = (group: string) =>
    [...new Set(customs.filter((t) => t.group === group).map((t) => t.version))].map((v) => ({
      groupVersion: `${group}/${v}`,
      version: v,
    }));
  const groupDoc = (name: string): GroupDoc => {
    const versions = versionsOf(name);
    return { name, versions, preferredVersion: versions[0]! };
  };
  const entry = (t: ResourceType) => ({ name: t.plural, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: DISCOVERY_VERBS });
  if (path === '/apis') {
    const base = (doc ?? { kind: 'APIGroupList', apiVersion: 'v1', groups: [] }) as { groups: GroupDoc[] } & Record<string, unknown>;
    const known = new Set(base.groups.map((g) => g.name));
    const added = [...new Set(customs.map((t) => t.group))].filter((g) => !known.has(g)).map(groupDoc);
    return { ...base, groups: [...base.groups, ...added] };
  }
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (!m || !customs.some((t) => t.group === m[1])) return doc;
  if (m[2] === undefined) return doc ?? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(m[1]!) };
  const here = customs.filter((t) => t.group === m[1] && t.version === m[2]);
  if (here.length === 0) return doc;
  const base = (doc ?? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(here[0]!), resources: [] }) as {
    resources: { name: string }[];
  } & Record<string, unknown>;
  const known = new Set(base.resources.map((r) => r.name));
  return { ...base, resources: [...base.resources, ...here.filter((t) => !known.has(t.plural)).map(entry)] };
}
