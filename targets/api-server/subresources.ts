/**
 * The status subresource of custom types whose definition declares it (rest:4.1 GET
 * `.../{resourcetype}/{name}/{subresource}`; rest:2.1 "subresource"): GET answers the object, PUT and
 * merge-PATCH change its `status` only, through the same write path as the object. Any other
 * subresource is not found. Authorization treats it as a resource of its own (authz.ts, rest:5.3).
 * A pod's `eviction` (rest:4.1, a virtual resource): POST of an Eviction deletes the pod (there is
 * no disruption budget to respect) and answers 201 with a Status, as upstream.
 */
import { mergePatch } from '../../reference/apply/index.ts';
import { isRecord } from '../../reference/objects.ts';
import type { ResourceType } from '../../reference/resources.ts';
import { hasStatusSubresource } from './crds.ts';
import type { WriteContext } from './field-manager.ts';
import { getObject, keyFor } from './reads.ts';
import { has, type ServerState } from './state.ts';
import { badRequest, notFound, statusAnswer, type Answer } from './status.ts';
import { deleteObject, updateObject } from './writes.ts';

type Pairs = readonly (readonly [string, string | null])[];

export async function serveSubresource(
  st: ServerState,
  method: string | undefined,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  sub: string,
  pairs: Pairs,
  body: unknown,
  patchBody: string,
  contentType: string,
  ctx: WriteContext,
): Promise<Answer> {
  if (rt.group === '' && rt.plural === 'pods' && sub === 'eviction') return evict(st, method, rt, ns, name, body);
  if (sub !== 'status' || !hasStatusSubresource(st, rt))
    return statusAnswer(404, 'NotFound', 'the server could not find the requested resource');
  // Planted fault status-get-not-found (clause-faults.ts): a namespaced object's subresource is written but never read.
  if (method === 'GET' && ns !== undefined && has(st, 'status-get-not-found'))
    return statusAnswer(404, 'NotFound', `the server could not find the requested resource (planted fault)`);
  if (method === 'GET') return getObject(st, rt, ns, name, pairs);
  const existing = st.store.get(keyFor(rt, ns, name));
  if (!existing) return notFound(rt.plural, name);
  let incoming: unknown;
  if (method === 'PUT') incoming = body;
  else if (method === 'PATCH') {
    if (contentType !== 'application/merge-patch+json')
      return statusAnswer(415, 'UnsupportedMediaType', `the patch media type "${contentType}" is not supported on ${rt.plural}/status`);
    try {
      incoming = mergePatch(existing, JSON.parse(patchBody));
    } catch (e) {
      return badRequest(`could not decode the patch: ${(e as Error).message}`);
    }
  } else return statusAnswer(405, 'MethodNotAllowed', `${method ?? ''} is not supported on ${rt.plural}/status`);
  if (!isRecord(incoming)) return badRequest(`the request body must be a ${rt.kind}`);
  const md = isRecord(incoming['metadata']) ? incoming['metadata'] : {};
  // Only status changes; a resourceVersion the client sent is still a precondition.
  const next: Record<string, unknown> = {
    ...existing,
    metadata: { ...existing.metadata, ...(typeof md['resourceVersion'] === 'string' ? { resourceVersion: md['resourceVersion'] } : {}) },
  };
  if ('status' in incoming) next['status'] = incoming['status'];
  else delete next['status'];
  return updateObject(st, rt, ns, name, next, ctx);
}

function evict(st: ServerState, method: string | undefined, rt: ResourceType, ns: string | undefined, name: string, body: unknown): Answer {
  if (method !== 'POST') return statusAnswer(405, 'MethodNotAllowed', `${method ?? ''} is not supported on pods/eviction`);
  if (!isRecord(body) || body['kind'] !== 'Eviction') return badRequest('the request body must be an Eviction');
  if (!st.store.get(keyFor(rt, ns, name))) return notFound(rt.plural, name);
  // Planted fault eviction-keeps-pod: the eviction is acknowledged and nothing happens.
  if (!has(st, 'eviction-keeps-pod')) {
    const deleted = deleteObject(st, rt, ns, name);
    if (deleted.status >= 300) return deleted;
  }
  return { status: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
}
