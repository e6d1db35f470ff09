/**
 * Namespaces as real components expect them: the system namespaces exist from the start (the
 * controller manager takes its leader Lease in the system namespace, kubectl creates in `default`),
 * and namespace deletion follows upstream's lifecycle where a real namespace controller runs:
 *
 *   DELETE      -> Terminating (deletionTimestamp, status.phase Terminating), spec.finalizers kept;
 *   controller  -> deletes every namespaced object (discovery + deletecollection), then
 *   PUT .../finalize without the profile's finalizer (upstream `kubernetes`) -> removed once
 *                  spec.finalizers and metadata.finalizers are both empty.
 *
 * The embedded server is its own namespace controller by default (no controller runs beside
 * `npm start`): a DELETE empties and removes the namespace at once, as before. With the built-in
 * controller off (`serve --external-namespace-controller`), a real controller manager does that work.
 */
import { resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import { keyFor, present } from './reads.ts';
import { has, varies, type ServerState } from './state.ts';
import { badRequest, notFound, statusAnswer, type Answer } from './status.ts';
import type { StoredObject } from './store.ts';

/** The finalizer the namespace controller owns: upstream `kubernetes` (the cluster name), `svc` in the svc profile. */
export const namespaceFinalizer = (st: ServerState) => st.profile.clusterName;

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Upstream's ShouldDeleteNamespaceDuringUpdate: terminating, and no finalizer of either kind left. */
function finalized(obj: StoredObject): boolean {
  const spec = isRecord(obj['spec']) ? obj['spec'] : {};
  return (
    obj.metadata['deletionTimestamp'] !== undefined &&
    listOf(spec['finalizers']).length === 0 &&
    listOf(obj.metadata['finalizers']).length === 0
  );
}

/** Removes every namespaced object stored under the namespace, whatever its type (built-in, extra or custom). */
function emptyNamespace(st: ServerState, name: string, now: number): void {
  for (const e of st.store.list('')) {
    const [, ns] = e.key.split('/');
    if (ns === name) st.store.write(e.key, null, now);
  }
}

/** DELETE of a namespace (rest:2.2.4, rest:3.1). */
/** Variation namespace-deletion-slow: how long a namespace and its contents linger. */
const NAMESPACE_DELETION_DELAY_MS = 2500;

export function deleteNamespace(st: ServerState, rt: ResourceType, name: string): Answer {
  const key = keyFor(rt, undefined, name);
  const existing = st.store.get(key);
  if (!existing) return notFound(rt.plural, name);
  const now = st.clock();
  if (existing.metadata['deletionTimestamp'] !== undefined) return { status: 200, body: present(st, rt, existing, false) };
  const terminating: StoredObject = {
    ...existing,
    metadata: { ...existing.metadata, deletionTimestamp: rfc3339(now), resourceVersion: st.codec.rv(st.store.nextRevision) },
    status: { ...(isRecord(existing['status']) ? existing['status'] : {}), phase: 'Terminating' },
  };
  st.store.write(key, terminating, now);
  // Hostile fault namespace-never-finalizes: Terminating for good, its objects kept.
  if (has(st, 'namespace-never-finalizes')) return { status: 200, body: present(st, rt, terminating, false) };
  if (st.builtInNamespaceController && varies(st, 'namespace-deletion-slow')) {
    // Upstream: the namespace stays Terminating while its controller deletes the contents later.
    setTimeout(() => {
      const later = st.clock();
      emptyNamespace(st, name, later);
      if (st.store.get(key)) st.store.write(key, null, later);
    }, NAMESPACE_DELETION_DELAY_MS).unref();
  } else if (st.builtInNamespaceController) {
    if (!has(st, 'namespace-delete-keeps-objects')) emptyNamespace(st, name, now);
    st.store.write(key, null, now);
  } else if (finalized(terminating)) {
    st.store.write(key, null, now);
  }
  return { status: 200, body: present(st, rt, terminating, false) };
}

/** `/api/v1/namespaces/{name}/status` and `/finalize`: the subresources a namespace controller writes. */
export function namespaceSubresource(pathname: string): { name: string; sub: 'status' | 'finalize' } | undefined {
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/(status|finalize)\/?$/.exec(pathname);
  if (!m) return undefined;
  try {
    return { name: decodeURIComponent(m[1]!), sub: m[2] as 'status' | 'finalize' };
  } catch {
    return undefined;
  }
}

/**
 * GET returns the namespace; PUT of `status` replaces its status, PUT of `finalize` its
 * spec.finalizers (upstream FinalizeREST), removing a terminating namespace left with none.
 */
export function serveNamespaceSubresource(
  st: ServerState,
  method: string | undefined,
  name: string,
  sub: 'status' | 'finalize',
  body: unknown,
): Answer {
  const rt = resourceTypes(st.profile).namespaces;
  const key = keyFor(rt, undefined, name);
  const existing = st.store.get(key);
  if (!existing) return notFound(rt.plural, name);
  // Planted fault namespace-status-get-not-found (clause-faults.ts): the cluster-scoped status is written but never read.
  if (method === 'GET' && sub === 'status' && has(st, 'namespace-status-get-not-found')) return notFound(`${rt.plural}/status`, name);
  if (method === 'GET') return { status: 200, body: present(st, rt, existing, false) };
  if (method !== 'PUT') return statusAnswer(405, 'MethodNotAllowed', `${method ?? ''} is not supported on namespaces/${sub}`);
  if (!isRecord(body)) return badRequest('the request body must be a Namespace');
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  if (md['name'] !== undefined && md['name'] !== name) return badRequest('the name of the object does not match the name on the URL');
  if (
    md['resourceVersion'] !== undefined &&
    md['resourceVersion'] !== '' &&
    md['resourceVersion'] !== existing.metadata['resourceVersion']
  ) {
    return statusAnswer(
      409,
      'Conflict',
      `Operation cannot be fulfilled on namespaces "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  }
  const now = st.clock();
  const next: StoredObject = { ...existing, metadata: { ...existing.metadata, resourceVersion: st.codec.rv(st.store.nextRevision) } };
  if (sub === 'status') next['status'] = isRecord(body['status']) ? body['status'] : {};
  else {
    const spec = isRecord(body['spec']) ? body['spec'] : {};
    next['spec'] = {
      ...(isRecord(existing['spec']) ? existing['spec'] : {}),
      finalizers: listOf(spec['finalizers']).filter((f) => typeof f === 'string'),
    };
  }
  st.store.write(key, finalized(next) ? null : next, now);
  return { status: 200, body: present(st, rt, next, false) };
}
