/**
 * Where the planted faults of clause-faults.ts that change a whole answer act: one hook at the top of
 * the request handler (server.ts), so each is a few lines here and none in the handlers themselves.
 *
 *   plantedAnswer(st, 'DELETE', { kind: 'object', rt: configmaps, ... }, existing) -> 405 with delete-answers-405
 */
import { isRecord } from '../../reference/objects.ts';
import { apiVersionOf, listKindOf } from '../../reference/resources.ts';
import type { Route } from './router.ts';
type Pairs = Parameters<typeof listObjects>[3];
import { has, type ServerState } from './state.ts';
import { statusAnswer, type Answer } from './status.ts';
import type { StoredObject } from './store.ts';
import { keyFor, listObjects } from './reads.ts';

type Present = (o: StoredObject) => Record<string, unknown>;

/** The answer a planted fault gives instead of the handler's, or undefined to let the handler answer. */
export async function plantedAnswer(
  st: ServerState,
  method: string | undefined,
  r: Route,
  body: unknown,
  pairs: Pairs,
  watch: boolean,
  present: Present,
): Promise<Answer | undefined> {
  if (st.faults.size === 0 || r.kind === 'none' || (r.kind === 'object' && r.subresource !== undefined)) return undefined;
  const plural = r.rt.plural;
  if (r.kind === 'collection') {
    if (method === 'POST' && plural === 'configmaps' && has(st, 'create-answers-500'))
      return statusAnswer(500, 'InternalError', 'Internal error occurred: planted fault: creates fail');
    if (method === 'POST' && plural === 'namespaces' && has(st, 'namespace-duplicate-accepted')) {
      const name = isRecord(body) && isRecord(body['metadata']) ? body['metadata']['name'] : undefined;
      const existing = typeof name === 'string' ? st.store.get(keyFor(r.rt, undefined, name)) : undefined;
      if (existing) return { status: 201, body: present(existing) };
    }
    if (method === 'GET' && !watch && plural === 'namespaces' && has(st, 'namespace-list-kind-list')) {
      const a = await listObjects(st, r.rt, undefined, pairs);
      return a.status === 200 && isRecord(a.body) ? { ...a, body: { ...a.body, kind: 'List' } } : a;
    }
    if (method === 'GET' && !watch && r.rt.namespaced && r.namespace === undefined && has(st, 'all-namespaces-list-empty'))
      return {
        status: 200,
        body: {
          kind: listKindOf(r.rt),
          apiVersion: apiVersionOf(r.rt),
          metadata: { resourceVersion: st.codec.rv(st.store.currentRevision) },
          items: [],
        },
      };
    return undefined;
  }
  if (method === 'DELETE' && plural === 'configmaps' && has(st, 'delete-answers-405'))
    return statusAnswer(405, 'MethodNotAllowed', 'planted fault: DELETE is not supported on configmaps');
  if (method === 'GET' && plural === 'namespaces') {
    const existing = st.store.get(keyFor(r.rt, undefined, r.name));
    if (existing && has(st, 'namespace-read-with-namespace')) {
      const o = present(existing);
      return { status: 200, body: { ...o, metadata: { ...(o['metadata'] as object), namespace: r.name } } };
    }
    if (existing && has(st, 'namespace-read-as-list'))
      return { status: 200, body: { kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [present(existing)] } };
  }
  return undefined;
}
