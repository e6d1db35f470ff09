/**
 * Just enough CustomResourceDefinitions for the apply suites (rest:4.7.7-4.7.9): CRD objects are
 * stored like any cluster-scoped object; every stored CRD makes its type served, and its schema
 * (with the profile's extensions) drives apply for its objects.
 */
import { crdResource, schemaOfCrd, type Schema } from '../../reference/apply/index.ts';
import type { ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import { prefixFor } from './reads.ts';
import { varies, type ServerState } from './state.ts';
import { lacks } from './partial-modes.ts';

function storedCrds(st: ServerState): Record<string, unknown>[] {
  return st.store.list(prefixFor(crdResource(st.profile), undefined)).map((e) => e.obj as Record<string, unknown>);
}

function typeOf(crd: Record<string, unknown>): ResourceType | undefined {
  const spec = crd['spec'];
  if (!isRecord(spec) || !isRecord(spec['names']) || !Array.isArray(spec['versions'])) return undefined;
  const { plural, kind } = spec['names'] as Record<string, unknown>;
  const version = (spec['versions'][0] as Record<string, unknown> | undefined)?.['name'];
  if (typeof spec['group'] !== 'string' || typeof plural !== 'string' || typeof kind !== 'string' || typeof version !== 'string')
    return undefined;
  return { plural, kind, group: spec['group'], version, namespaced: spec['scope'] !== 'Cluster' };
}

/** Types served besides the built-in ones: the CRD collection itself and every defined custom type. */
export function servedExtraTypes(st: ServerState): ResourceType[] {
  // Partial mode crd-serving: definitions are stored, their types never served.
  if (lacks(st, 'crd-serving')) return [crdResource(st.profile)];
  return [
    crdResource(st.profile),
    ...storedCrds(st)
      .map(typeOf)
      .filter((t): t is ResourceType => t !== undefined),
  ];
}

/** The schema of a custom type, or undefined for types no CRD defines. */
export function customSchema(st: ServerState, rt: ResourceType): Schema | undefined {
  const crd = storedCrds(st).find((c) => {
    const t = typeOf(c);
    return t !== undefined && t.group === rt.group && t.plural === rt.plural;
  });
  return crd ? lagged(st, `${rt.group}/${rt.plural}`, crd, schemaOfCrd(crd, st.profile)) : undefined;
}

/** How long a changed schema may still be served under its previous form (crd-schema-change-lags). */
const SCHEMA_LAG_MS = 300;

interface SchemaHistory {
  version: unknown;
  schema: Schema;
  previous?: Schema;
  changedAt: number;
}
const histories = new WeakMap<ServerState, Map<string, SchemaHistory>>();

/**
 * Legal variation crd-schema-change-lags: upstream each API server rebuilds a custom type's handler
 * when its own watch delivers the changed definition, so behind a balancer some requests meet the old
 * schema for a while. The definition's version tells a change cheaply; the schemas are compared only then.
 */
function lagged(st: ServerState, key: string, crd: Record<string, unknown>, schema: Schema): Schema {
  let byType = histories.get(st);
  if (byType === undefined) histories.set(st, (byType = new Map()));
  const version = isRecord(crd['metadata']) ? crd['metadata']['resourceVersion'] : undefined;
  const h = byType.get(key);
  if (h === undefined) {
    byType.set(key, { version, schema, changedAt: 0 });
    return schema;
  }
  if (h.version !== version) {
    if (JSON.stringify(h.schema) !== JSON.stringify(schema)) Object.assign(h, { previous: h.schema, changedAt: Date.now() });
    Object.assign(h, { version, schema });
  }
  const inWindow = h.previous !== undefined && Date.now() - h.changedAt < SCHEMA_LAG_MS;
  return inWindow && varies(st, 'crd-schema-change-lags') && (st.requestSeq ?? 0) % 2 === 0 ? h.previous! : schema;
}

/**
 * Legal variation crd-protected-groups: a definition in the product's own groups (`svc.io`,
 * `*.svc.io`) is refused, as upstream refuses `*.k8s.io` ones without an API-review approval
 * annotation. The suite's fixtures live in a group of their own, so nothing of it may depend on this.
 */
export function protectedGroupRefusal(st: ServerState, rt: ResourceType, body: Record<string, unknown>): string | undefined {
  const crd = crdResource(st.profile);
  if (rt.plural !== crd.plural || rt.group !== crd.group) return undefined;
  const group = isRecord(body['spec']) ? body['spec']['group'] : undefined;
  const suffix = st.profile.groupSuffix;
  if (typeof group !== 'string' || (group !== suffix && !group.endsWith(`.${suffix}`))) return undefined;
  return `metadata.annotations[api-approved.${suffix}]: Required value: protected groups must have an approval annotation`;
}

/** The openAPIV3Schema a CRD gives its served version (for the OpenAPI documents), or undefined. */
export function customOpenApiSchema(st: ServerState, rt: ResourceType): Record<string, unknown> | undefined {
  for (const crd of storedCrds(st)) {
    const t = typeOf(crd);
    if (t === undefined || t.group !== rt.group || t.plural !== rt.plural) continue;
    const version = ((crd['spec'] as Record<string, unknown>)['versions'] as unknown[])[0];
    const schema = isRecord(version) && isRecord(version['schema']) ? version['schema']['openAPIV3Schema'] : undefined;
    return isRecord(schema) ? schema : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
  return undefined;
}

/** Does the CRD of a custom type declare the status subresource (`spec.versions[0].subresources.status`)? */
export function hasStatusSubresource(st: ServerState, rt: ResourceType): boolean {
  return storedCrds(st).some((crd) => {
    const t = typeOf(crd);
    if (t === undefined || t.group !== rt.group || t.plural !== rt.plural) return false;
    const version = ((crd['spec'] as Record<string, unknown>)['versions'] as unknown[])[0];
    return isRecord(version) && isRecord(version['subresources']) && isRecord(version['subresources']['status']);
  });
}
