/**
 * Field selectors on list and watch. The spec names them (rest:4.5 item 6) but fixes no field set:
 * every type selects on metadata.name and metadata.namespace (what the suites use, and what kubectl
 * sends for `get NAME --watch`); the core Event also selects on the fields upstream indexes for it,
 * because `kubectl describe` lists an object's events with
 * `involvedObject.name=N,involvedObject.namespace=NS,involvedObject.kind=K,involvedObject.uid=U`.
 *
 *   fieldFilter('involvedObject.kind=Pod', coreEvent)  -> keeps events about pods
 *   fieldFilter('involvedObject.kind=Pod', configMap)  -> { error } (a 400, as before)
 */
import type { ResourceType } from '../../reference/resources.ts';
import type { StoredObject } from './store.ts';

const METADATA_FIELDS = ['metadata.name', 'metadata.namespace'];

// Upstream's selectable fields of core/v1 Event (pkg/registry/core/event/strategy.go); `source` is
// source.component there.
const EVENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'involvedObject.kind': ['involvedObject', 'kind'],
  'involvedObject.namespace': ['involvedObject', 'namespace'],
  'involvedObject.name': ['involvedObject', 'name'],
  'involvedObject.uid': ['involvedObject', 'uid'],
  'involvedObject.apiVersion': ['involvedObject', 'apiVersion'],
  'involvedObject.resourceVersion': ['involvedObject', 'resourceVersion'],
  'involvedObject.fieldPath': ['involvedObject', 'fieldPath'],
  reason: ['reason'],
  reportingComponent: ['reportingComponent'],
  source: ['source', 'component'],
  type: ['type'],
};

const isCoreEvent = (rt: ResourceType | undefined) => rt !== undefined && rt.group === '' && rt.kind === 'Event';

/** Where a selectable field lives in the object, or undefined when this type does not select on it. */
function pathOf(rt: ResourceType | undefined, field: string): readonly string[] | undefined {
  if (METADATA_FIELDS.includes(field)) return field.split('.');
  return isCoreEvent(rt) ? EVENT_FIELDS[field] : undefined;
}

function valueAt(obj: StoredObject, path: readonly string[]): string {
  let v: unknown = obj;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v === undefined || v === null ? '' : String(v);
}

export function fieldFilter(text: string | undefined, rt?: ResourceType): ((o: StoredObject) => boolean) | { error: string } {
  if (text === undefined || text.trim() === '') return () => true;
  const reqs = text.split(',').map((p) => {
    const m = /^\s*([A-Za-z.]+?)\s*(==|=|!=)\s*([^,]*)$/.exec(p);
    const path = m ? pathOf(rt, m[1]!) : undefined;
    return m && path ? { path, negated: m[2] === '!=', value: m[3]! } : undefined;
  });
  if (reqs.some((r) => r === undefined)) return { error: `unsupported field selector ${JSON.stringify(text)}` };
  return (o) => reqs.every((r) => (valueAt(o, r!.path) === r!.value) !== r!.negated);
}
