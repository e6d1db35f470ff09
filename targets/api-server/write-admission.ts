/**
 * A write through the admission webhooks that apply (rest:4.6.2, rest:7.3; admission.ts calls them):
 * mutating then validating, with the object the write would store.
 */
import type { IncomingMessage } from 'node:http';
import { isRecord } from '../../reference/objects.ts';
import type { ServerState } from './state.ts';
import type { Answer } from './status.ts';
import type { route } from './router.ts';
import type { gate } from './authz.ts';
import { keyFor } from './reads.ts';
import { isReview } from './reviews.ts';
import { droppingWrites } from './negotiate.ts';
import { admit, mutate, webhooksFor, withMutation, type Operation } from './admission.ts';

/** What admission needs of a routed write (server.ts's RoutedRequest has it). */
interface AdmittedWrite {
  readonly r: Exclude<ReturnType<typeof route>, { kind: 'none' }>;
  readonly who: Extract<ReturnType<typeof gate>, { user: unknown }>;
  readonly body: unknown;
  /** The store view that drops writes, for a dry-run write. */
  readonly dry: ServerState | undefined;
}

/** Runs `write` through the mutating then the validating webhooks that match it; a dry-run answers the mutated object. */
export async function throughWebhooks(
  st: ServerState,
  req: IncomingMessage,
  { r, who, body, dry }: AdmittedWrite,
  write: (s: ServerState) => Promise<Answer | undefined>,
): Promise<Answer | undefined> {
  const rt = r.rt;
  // Admission webhooks (rest:4.6.2, rest:7.3), mutating then validating: called with the object the
  // write would store, found by running it first on a store view that drops writes (admission.ts).
  // The mutating webhooks' patches are applied to it, then to the object the real write stores.
  const op = admissionOperation(req.method, r, body, isReview(rt));
  const mutating = op === undefined ? [] : webhooksFor(st, op.operation, rt, 'mutating');
  const hooks = op === undefined ? [] : webhooksFor(st, op.operation, rt);
  if (op === undefined || (hooks.length === 0 && mutating.length === 0)) return write(st);
  const existing = r.kind === 'object' ? st.store.get(keyFor(rt, r.namespace, r.name)) : undefined;
  const probe = await write(dry ?? droppingWrites(st));
  if (probe === undefined || probe.status >= 300) return probe;
  const operation = op.operation === 'UPDATE' && existing === undefined ? 'CREATE' : op.operation;
  const object = operation === 'DELETE' ? undefined : probe.body;
  const name =
    isRecord(object) && isRecord(object['metadata']) && typeof object['metadata']['name'] === 'string'
      ? object['metadata']['name']
      : op.name;
  const attributes = {
    operation,
    rt,
    namespace: r.namespace,
    name,
    object,
    oldObject: existing,
    dryRun: dry !== undefined,
    user: who.user,
  };
  const mutation = mutating.length === 0 ? { object, patches: [] } : await mutate(st, mutating, attributes);
  if ('status' in mutation) return mutation;
  const refused = await admit(st, hooks, { ...attributes, object: mutation.object });
  if (refused) return refused;
  // rest:4.6.2: a dry-run answers the object that would have been stored, mutation included.
  if (dry !== undefined) return mutation.patches.length > 0 ? { ...probe, body: mutation.object } : probe;
  return write(withMutation(st, rt, r.namespace, mutation.patches));
}

/** The admission operation of a write, and its name when known before it runs. */
function admissionOperation(
  method: string | undefined,
  r: Exclude<ReturnType<typeof route>, { kind: 'none' }>,
  body: unknown,
  review: boolean,
): { operation: Operation; name: string } | undefined {
  if (r.kind === 'collection') {
    if (method !== 'POST' || review) return undefined;
    const md = isRecord(body) && isRecord(body['metadata']) ? body['metadata'] : {};
    return { operation: 'CREATE', name: typeof md['name'] === 'string' ? md['name'] : '' };
  }
  if (r.subresource !== undefined) return undefined;
  if (method === 'PUT' || method === 'PATCH') return { operation: 'UPDATE', name: r.name };
  if (method === 'DELETE') return { operation: 'DELETE', name: r.name };
  return undefined;
}
