/**
 * Writes: create (POST), update (PUT) and delete, with the metadata rules of rest:2.3, unique names
 * (rest:2.2), two-phase deletion for objects with finalizers (rest:3.1), and namespace deletion that
 * removes what the namespace holds (rest:2.2.4).
 */
import { randomUUID, randomBytes } from 'node:crypto';
import { apiVersionOf, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { canonicalEqual, isRecord } from '../../reference/objects.ts';
import { alreadyExists, badRequest, conflict, invalid, notFound, statusAnswer, success, type Answer } from './status.ts';
import { has, varies, type ServerState } from './state.ts';
import { lacks } from './partial-modes.ts';
import { keyFor, listObjects, present } from './reads.ts';
import type { StoredObject } from './store.ts';
import { trackedWrite, type WriteContext } from './field-manager.ts';
import { preconditionHolds } from './preconditions.ts';
import { protectedGroupRefusal } from './crds.ts';
import { deleteNamespace, namespaceFinalizer } from './namespaces.ts';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Set by the server only: a client's values for these are ignored, as upstream does. */
const SERVER_FIELDS = ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation', 'selfLink'];

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function clientMetadata(md: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(md)) if (!SERVER_FIELDS.includes(k)) out[k] = v;
  return out;
}

function metadataLabelKey(st: ServerState): string {
  return st.profile.name === 'k8s' ? 'kubernetes.io/metadata.name' : 'svc.io/metadata.name';
}

function checkBody(rt: ResourceType, body: unknown): { obj: Record<string, unknown>; md: Record<string, unknown> } | Answer {
  if (!isRecord(body)) return badRequest('the request body must be a JSON object');
  if (body['kind'] !== undefined && body['kind'] !== rt.kind) return badRequest(`kind ${String(body['kind'])} does not match ${rt.kind}`);
  if (body['apiVersion'] !== undefined && body['apiVersion'] !== apiVersionOf(rt))
    return badRequest(`apiVersion ${String(body['apiVersion'])} does not match ${apiVersionOf(rt)}`);
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  // rest:2.3: labels and annotations are maps of string to string (null: none).
  for (const field of ['labels', 'annotations'] as const) {
    const m = md[field];
    if (m !== undefined && m !== null && (!isRecord(m) || Object.values(m).some((v) => typeof v !== 'string')))
      return badRequest(`metadata.${field} must be a map of string to string`);
  }
  return { obj: body, md };
}

function namespaceLive(st: ServerState, ns: string): Answer | undefined {
  const nsObj = st.store.get(keyFor(resourceTypes(st.profile).namespaces, undefined, ns));
  if (!nsObj) return notFound('namespaces', ns);
  if (nsObj.metadata['deletionTimestamp'])
    return statusAnswer(403, 'Forbidden', `unable to create new content in namespace ${ns} because it is being terminated`);
  return undefined;
}

export function createObject(st: ServerState, rt: ResourceType, ns: string | undefined, body: unknown, ctx: WriteContext = {}): Answer {
  const checked = checkBody(rt, body);
  if ('status' in checked) return checked;
  const { obj, md } = checked;
  if (rt.namespaced && ns === undefined) return statusAnswer(405, 'MethodNotAllowed', `create ${rt.plural} needs a namespace in the path`);
  if (md['namespace'] !== undefined && md['namespace'] !== '' && md['namespace'] !== ns)
    return badRequest('the namespace of the provided object does not match the namespace sent on the request');
  let name = typeof md['name'] === 'string' ? md['name'] : undefined;
  // Upstream validates a generateName prefix as the start of a DNS subdomain: one ending in '.' is refused.
  if (
    !name &&
    typeof md['generateName'] === 'string' &&
    !/^[a-z0-9]([-a-z0-9.]*[-a-z0-9])?$/.test(md['generateName'].replace(/-+$/, '') || 'a') &&
    varies(st, 'generate-name-prefix-validated')
  ) {
    return invalid(`metadata.generateName: Invalid value: ${JSON.stringify(md['generateName'])}: a DNS-1123 subdomain prefix`);
  }
  if (!name && typeof md['generateName'] === 'string' && !lacks(st, 'generate-name'))
    name = `${md['generateName']}${has(st, 'generate-name-collides') ? 'aaaaa' : randomBytes(4).toString('hex').slice(0, 5)}`;
  // Planted fault generated-name-unprefixed (clause-faults.ts): the generated name drops the prefix asked for.
  if (typeof md['generateName'] === 'string' && md['name'] === undefined && has(st, 'generated-name-unprefixed'))
    name = `x${randomBytes(4).toString('hex')}`;
  if (!name) return invalid('metadata.name: Required value: name or generateName is required');
  if (!(rt.namespaced || rt.kind !== 'Namespace' ? DNS_SUBDOMAIN : DNS_LABEL).test(name))
    return invalid(`metadata.name: Invalid value: ${JSON.stringify(name)}`);
  // The variation's point is passed only where it changes the answer: a definition in a protected group.
  const protectedGroup = protectedGroupRefusal(st, rt, obj);
  if (protectedGroup !== undefined && varies(st, 'crd-protected-groups')) return invalid(protectedGroup);
  if (ns !== undefined) {
    const blocked = namespaceLive(st, ns);
    if (blocked) return blocked;
  }
  const key = keyFor(rt, ns, name);
  if (st.store.get(key) && !has(st, 'duplicate-create-overwrites')) return alreadyExists(rt.plural, name);
  const now = st.clock();
  const metadata: Record<string, unknown> = {
    ...clientMetadata(md),
    name,
    uid: randomUUID(),
    resourceVersion: st.codec.rv(st.store.nextRevision),
    creationTimestamp: rfc3339(now),
  };
  if (ns !== undefined) metadata['namespace'] = ns;
  const stored: StoredObject = { ...obj, apiVersion: apiVersionOf(rt), kind: rt.kind, metadata };
  if (rt.kind === 'Namespace') {
    metadata['labels'] = { ...(isRecord(md['labels']) ? md['labels'] : {}), [metadataLabelKey(st)]: name };
    stored['spec'] = { finalizers: [namespaceFinalizer(st)] };
    stored['status'] = { phase: 'Active' };
  }
  const refused = trackedWrite(st, rt, undefined, stored, ctx);
  if (refused) return refused;
  st.store.write(key, stored, now);
  return { status: varies(st, 'status-200-on-create') ? 200 : 201, body: present(st, rt, stored, false) };
}

/**
 * Planted fault finalizers-removed-in-order-only (clause-faults.ts): the finalizers left are the tail of
 * those there were (removed from the front), or none were removed.
 */
function removedFromFront(before: unknown, after: unknown): boolean {
  const was = Array.isArray(before) ? before : [];
  const now = Array.isArray(after) ? after : [];
  if (now.length >= was.length) return true;
  return was.slice(was.length - now.length).every((f, i) => f === now[i]);
}

export function updateObject(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  body: unknown,
  ctx: WriteContext = {},
): Answer {
  const checked = checkBody(rt, body);
  if ('status' in checked) return checked;
  const { obj, md } = checked;
  if (md['name'] !== name) return badRequest('the name of the object does not match the name on the URL');
  if (md['namespace'] !== undefined && md['namespace'] !== ns)
    return badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const key = keyFor(rt, ns, name);
  const existing = st.store.get(key);
  if (!existing) return notFound(rt.plural, name);
  if (md['resourceVersion'] !== undefined && !preconditionHolds(st, key, existing, String(md['resourceVersion']))) {
    return conflict(
      `Operation cannot be fulfilled on ${rt.plural} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  }
  const old = existing.metadata;
  if (
    old['deletionTimestamp'] !== undefined &&
    has(st, 'finalizers-removed-in-order-only') &&
    !removedFromFront(old['finalizers'], md['finalizers'])
  ) {
    return statusAnswer(422, 'Invalid', 'metadata.finalizers: Forbidden: finalizers are removed in list order (planted fault)');
  }
  const metadata: Record<string, unknown> = {
    ...clientMetadata(md),
    name,
    uid: has(st, 'uid-changes-on-update') ? randomUUID() : old['uid'],
    creationTimestamp: old['creationTimestamp'],
    resourceVersion: old['resourceVersion'],
  };
  if (ns !== undefined) metadata['namespace'] = ns;
  if (old['deletionTimestamp'] !== undefined) metadata['deletionTimestamp'] = old['deletionTimestamp'];
  const next: StoredObject = { ...obj, apiVersion: apiVersionOf(rt), kind: rt.kind, metadata };
  if (rt.kind === 'Namespace') {
    metadata['labels'] = { ...(isRecord(md['labels']) ? md['labels'] : {}), [metadataLabelKey(st)]: name };
    next['spec'] = existing['spec'];
    next['status'] = existing['status'];
  }
  const refused = trackedWrite(st, rt, existing, next, ctx);
  if (refused) return refused;
  // A write that changes nothing is not a new version (upstream behaviour).
  if (canonicalEqual(next, existing)) return { status: 200, body: present(st, rt, existing, false) };
  const now = st.clock();
  const finalizers = Array.isArray(metadata['finalizers']) ? metadata['finalizers'] : [];
  const hadFinalizers = Array.isArray(old['finalizers']) ? old['finalizers'].length : 0;
  if (
    metadata['deletionTimestamp'] !== undefined &&
    (finalizers.length === 0 || (has(st, 'removed-before-last-finalizer') && finalizers.length < hadFinalizers))
  ) {
    // rest:3.1: removing the last finalizer of a terminating object removes it.
    if (varies(st, 'finalizer-removal-lags') && finalizers.length === 0) return laggingRemoval(st, rt, key, next, now);
    st.store.write(key, null, now);
    return { status: 200, body: present(st, rt, next, false) };
  }
  if (!has(st, 'rv-unchanged-on-update')) metadata['resourceVersion'] = st.codec.rv(st.store.nextRevision);
  st.store.write(key, next, now);
  return { status: 200, body: present(st, rt, next, false) };
}

/** Variation namespace-deletion-slow: longer than the suite's eventual window in the self-tests (1 s). */
export function deleteObject(st: ServerState, rt: ResourceType, ns: string | undefined, name: string): Answer {
  const key = keyFor(rt, ns, name);
  const existing = st.store.get(key);
  if (!existing) return notFound(rt.plural, name);
  const now = st.clock();
  const deleted = () => (varies(st, 'delete-returns-object') ? { status: 200, body: present(st, rt, existing, false) } : success());
  if (rt.kind === 'Namespace' && rt.group === '') return deleteNamespace(st, rt, name);
  const finalizers = Array.isArray(existing.metadata['finalizers']) ? existing.metadata['finalizers'] : [];
  if (finalizers.length > 0 && !has(st, 'finalizers-ignored-on-delete')) {
    if (existing.metadata['deletionTimestamp'] !== undefined) return { status: 200, body: present(st, rt, existing, false) };
    const terminating: StoredObject = {
      ...existing,
      metadata: { ...existing.metadata, deletionTimestamp: rfc3339(now), resourceVersion: st.codec.rv(st.store.nextRevision) },
    };
    st.store.write(key, terminating, now);
    return { status: 200, body: present(st, rt, terminating, false) };
  }
  if (varies(st, 'deletion-lingers')) return lingeringDelete(st, rt, key, existing, now);
  st.store.write(key, null, now);
  return deleted();
}

/**
 * Legal variation finalizer-removal-lags: the last finalizer's removal is stored (Terminating, no
 * finalizers) and the object leaves the store 300 ms later; rest:3.1 bounds the removal in no time.
 */
function laggingRemoval(st: ServerState, rt: ResourceType, key: string, next: StoredObject, now: number): Answer {
  next.metadata['resourceVersion'] = st.codec.rv(st.store.nextRevision);
  st.store.write(key, next, now);
  setTimeout(() => {
    const cur = st.store.get(key);
    if (cur && cur.metadata['resourceVersion'] === next.metadata['resourceVersion']) st.store.write(key, null, st.clock());
  }, 300).unref();
  return { status: 200, body: present(st, rt, next, false) };
}

/** Deletion without finalizers is not shown (rest:3.1): this variation removes the object a little later. */
function lingeringDelete(st: ServerState, rt: ResourceType, key: string, existing: StoredObject, now: number): Answer {
  if (existing.metadata['deletionTimestamp'] !== undefined) return { status: 200, body: present(st, rt, existing, false) };
  const terminating: StoredObject = {
    ...existing,
    metadata: { ...existing.metadata, deletionTimestamp: rfc3339(now), resourceVersion: st.codec.rv(st.store.nextRevision) },
  };
  st.store.write(key, terminating, now);
  setTimeout(() => {
    const cur = st.store.get(key);
    if (cur && cur.metadata['resourceVersion'] === terminating.metadata['resourceVersion']) st.store.write(key, null, st.clock());
  }, 300).unref();
  return { status: 200, body: present(st, rt, terminating, false) };
}

/**
 * DELETE on a collection (deletecollection; path and payload not shown, rest:4.1): each object the
 * list selects is deleted as a DELETE of it would be. The namespace controller empties a deleted
 * namespace this way.
 */
export async function deleteCollection(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  pairs: readonly (readonly [string, string | null])[],
): Promise<Answer> {
  const keep = new Set(['labelSelector', 'fieldSelector']);
  const listed = await listObjects(
    st,
    rt,
    ns,
    pairs.filter(([k]) => keep.has(k)),
  );
  if (listed.status !== 200 || !isRecord(listed.body)) return listed;
  const items = (Array.isArray(listed.body['items']) ? listed.body['items'] : []).filter(isRecord);
  for (const item of items) {
    const md = isRecord(item['metadata']) ? item['metadata'] : {};
    deleteObject(st, rt, typeof md['namespace'] === 'string' ? md['namespace'] : ns, String(md['name']));
  }
  return success();
}

/** A body that lists objects (`List`, `<Kind>List`): the single-resource verbs write none of it as several (rest:4). */
export const isListBody = (body: unknown): body is { items: unknown[] } =>
  isRecord(body) && typeof body['kind'] === 'string' && body['kind'].endsWith('List') && Array.isArray(body['items']);

/** Planted fault list-body-creates-each: a POST whose body lists objects creates every item, a multi-resource request. */
export function createEach(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  body: { items: unknown[] },
  ctx: WriteContext = {},
): Answer {
  const made: unknown[] = [];
  for (const item of body.items) {
    const a = createObject(st, rt, ns, item, ctx);
    if (a.status >= 300) return a;
    made.push(a.body);
  }
  return { status: 201, body: { apiVersion: 'v1', kind: 'List', metadata: {}, items: made } };
}
