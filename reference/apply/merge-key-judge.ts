/**
 * rest:4.7.8 on a built-in type: "If the list type is missing, a patchMergeStrategy=merge marker is
 * read as list type map and patchMergeKey as the map key." The target's own OpenAPI says which list
 * carries the markers (ConfigMap's metadata.ownerReferences upstream: merge, key uid, no list type);
 * two managers applying an entry each then own one entry each, with no conflict.
 *
 *   markedOwnerReferences(openapiV2, k8s) -> { key: 'uid' }       (undefined when the markers are absent)
 *   judgeMergeKeyApply(..., { status: 409 }) -> fail rest:4.7.8 'the second apply ... conflicts'
 */
import { isRecord } from '../objects.ts';
import type { Profile } from '../profile.ts';
import { pass, rule, type Judgement } from '../judgement.ts';

const resolveRef = (doc: Record<string, unknown>, node: unknown): unknown => {
  if (!isRecord(node)) return node;
  const ref =
    typeof node['$ref'] === 'string'
      ? node['$ref']
      : Array.isArray(node['allOf']) && isRecord(node['allOf'][0])
        ? node['allOf'][0]['$ref']
        : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return node;
  const defs = isRecord(doc['definitions']) ? doc['definitions'] : {};
  return defs[ref.slice('#/definitions/'.length)];
};

/** The merge key of core/v1 ConfigMap's metadata.ownerReferences, if the OpenAPI v2 document marks it merge without a list type. */
export function markedOwnerReferences(doc: unknown, profile: Profile): { readonly key: string } | undefined {
  if (!isRecord(doc) || !isRecord(doc['definitions'])) return undefined;
  const isConfigMap = (d: unknown) =>
    isRecord(d) &&
    Array.isArray(d['x-kubernetes-group-version-kind']) &&
    d['x-kubernetes-group-version-kind'].some(
      (g) => isRecord(g) && g['group'] === '' && g['version'] === 'v1' && g['kind'] === 'ConfigMap',
    );
  const cm = Object.values(doc['definitions']).find(isConfigMap);
  const props = isRecord(cm) && isRecord(cm['properties']) ? cm['properties'] : {};
  const meta = resolveRef(doc, props['metadata']);
  const mprops = isRecord(meta) && isRecord(meta['properties']) ? meta['properties'] : {};
  const refs = mprops['ownerReferences'];
  if (!isRecord(refs) || refs[profile.listTypeExtension] !== undefined) return undefined;
  const strategy = refs[profile.patchStrategyExtension];
  const key = refs[profile.patchMergeKeyExtension];
  return typeof strategy === 'string' && strategy.split(',').includes('merge') && typeof key === 'string' ? { key } : undefined;
}

export interface MergeKeyObservation {
  /** The answer to the second manager's apply. */
  readonly status: number;
  readonly json: unknown;
  readonly bodyText: string;
  readonly firstUid: string;
  readonly secondUid: string;
  readonly secondManager: string;
  readonly key: string;
}

/** The second apply is served, both entries are in the object, and the second manager owns its entry by key. */
export function judgeMergeKeyApply(o: MergeKeyObservation): Judgement[] {
  const what = `ownerReferences read as a list map keyed by ${o.key}: a second manager applying its own entry`;
  if (o.status < 200 || o.status >= 300)
    return [rule('rest:4.7.8', false, `${what} is served without conflict`, `status ${o.status}: ${o.bodyText.slice(0, 200)}`)];
  const obj = isRecord(o.json) ? o.json : {};
  const md = isRecord(obj['metadata']) ? obj['metadata'] : {};
  const refs = Array.isArray(md['ownerReferences']) ? md['ownerReferences'].filter(isRecord) : [];
  const uids = refs.map((r) => r[o.key]);
  const both = uids.includes(o.firstUid) && uids.includes(o.secondUid);
  const entry = (Array.isArray(md['managedFields']) ? md['managedFields'] : [])
    .filter(isRecord)
    .find((e) => e['manager'] === o.secondManager && e['operation'] === 'Apply');
  const fv1 = entry && isRecord(entry['fieldsV1']) ? entry['fieldsV1'] : {};
  const fmd = isRecord(fv1['f:metadata']) ? fv1['f:metadata'] : {};
  const owned = isRecord(fmd['f:ownerReferences']) ? Object.keys(fmd['f:ownerReferences']) : [];
  const itemKey = `k:${JSON.stringify({ [o.key]: o.secondUid })}`;
  return [
    rule('rest:4.7.8', both, `${what} keeps the first manager's entry beside its own`, `ownerReferences ${o.key}s ${JSON.stringify(uids)}`),
    owned.includes(itemKey)
      ? pass('rest:4.7.8', `${what} owns that entry as ${itemKey}`)
      : rule('rest:4.7.8', false, `${what} owns that entry as ${itemKey}`, `its f:ownerReferences: ${JSON.stringify(owned)}`),
  ];
}

/** The setup writes of the case: an owner ConfigMap created with a uid, the first manager's apply served. */
export function judgeMergeKeySetup(what: 'owner' | 'first apply', status: number, uid: unknown, bodyText: string): Judgement {
  return what === 'owner'
    ? rule(
        'rest:4.7.8',
        status >= 200 && status < 300 && typeof uid === 'string',
        'the owner ConfigMap is created (2xx, with a uid)',
        `status ${status}`,
      )
    : rule(
        'rest:4.7.8',
        status >= 200 && status < 300,
        "the first manager's apply creates the ConfigMap (2xx)",
        `status ${status}: ${bodyText.slice(0, 200)}`,
      );
}
