/** One write (or read) of a concurrent workload, sent and recorded as the history's operation: invocation and completion times and the outcome as the model reads it. */
import { type CaseContext } from '../case/index.ts';
import { InfrastructureError, type TargetRequest, type TargetResponse } from '../transport/index.ts';
import { collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import type { PlannedOp } from '../../generators/concurrency.ts';
import { type RecordedOp } from '../../reference/concurrency/history-types.ts';
import type { ObjectOutput } from '../../reference/concurrency/object-model.ts';

type WriteResult = { op?: Omit<RecordedOp, 'id' | 'client'>; seenRv?: string };

/** Sends one planned write or read of the workload and records it; an answer the model cannot read records nothing. */
export async function write(
  cx: CaseContext,
  rt: ResourceType,
  o: Exclude<PlannedOp, { op: 'list' }>,
  namespaces: readonly string[],
  token: string,
  pad: string,
  lastRv: string | undefined,
  now: () => number,
  headers?: Readonly<Record<string, string>>,
): Promise<WriteResult> {
  const ns = namespaces[o.ns]!;
  // Keys outside the plan's space: -1 the seed (ns1) or the marker (ns0), -2 and below the backlog.
  const name = o.key === -1 ? (o.ns === 1 ? 'seed' : 'marker') : o.key < -1 ? `b${-2 - o.key}` : `k${o.key}`;
  const key = `${ns}/${name}`;
  const data = { w: token, pad };
  const body = (rv?: string) => ({
    apiVersion: 'v1',
    kind: rt.kind,
    metadata: { name, namespace: ns, labels: cx.ownLabels, resourceVersion: rv },
    data,
  });
  const precondition = 'precondition' in o && o.precondition ? lastRv : undefined;
  const req = requestOf(rt, o, ns, name, body, precondition);
  const call = now();
  let r: TargetResponse | undefined;
  try {
    r = await cx.env.target.send(headers !== undefined ? { ...req, headers } : req);
  } catch (e) {
    if (!(e instanceof InfrastructureError)) throw e;
  }
  const ret = r === undefined ? undefined : now();
  const input =
    o.op === 'create'
      ? { kind: 'create' as const, token }
      : o.op === 'update'
        ? { kind: 'update' as const, token, precondition }
        : o.op === 'delete'
          ? { kind: 'delete' as const, precondition }
          : { kind: 'read' as const };
  const output = outputOf(o.op, r);
  if (output === undefined) return {};
  const obj = r?.json;
  const rv =
    isRecord(obj) && isRecord(obj['metadata']) && typeof obj['metadata']['resourceVersion'] === 'string'
      ? obj['metadata']['resourceVersion']
      : undefined;
  return {
    op: {
      key,
      input,
      output,
      sent: input.kind === 'create' || input.kind === 'update' ? data : undefined,
      terminating: isRecord(obj) && isRecord(obj['metadata']) && obj['metadata']['deletionTimestamp'] != null ? true : undefined,
      httpStatus: r?.status,
      call,
      ret,
    },
    seenRv: o.op === 'delete' ? undefined : rv,
  };
}

/** The request of one planned write or read of object `name`. */
function requestOf(
  rt: ResourceType,
  o: Exclude<PlannedOp, { op: 'list' }>,
  ns: string,
  name: string,
  body: (rv?: string) => Record<string, unknown>,
  precondition: string | undefined,
): TargetRequest {
  switch (o.op) {
    case 'create':
      return { method: 'POST', path: collectionPath(rt, ns), body: body() };
    case 'update':
      return { method: 'PUT', path: objectPath(rt, name, ns), body: body(precondition) };
    case 'delete':
      return {
        method: 'DELETE',
        path: objectPath(rt, name, ns),
        ...(precondition !== undefined
          ? { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: precondition } } }
          : {}),
      };
    case 'get':
      return { method: 'GET', path: objectPath(rt, name, ns) };
  }
}

/** The answer as the model reads it; undefined for a refusal that changed nothing and tells nothing (another 4xx). */
function outputOf(op: Exclude<PlannedOp, { op: 'list' }>['op'], r: TargetResponse | undefined): ObjectOutput | undefined {
  if (r === undefined || r.status >= 500 || r.status === 429) return { status: 'unknown' };
  if (r.status === 404) return { status: 'notFound' };
  if (r.status === 409) return op === 'create' ? { status: 'exists' } : { status: 'conflict' };
  if (r.status < 200 || r.status >= 300) return undefined;
  const obj = r.json;
  const md = isRecord(obj) && isRecord(obj['metadata']) ? obj['metadata'] : {};
  const rv = typeof md['resourceVersion'] === 'string' ? md['resourceVersion'] : undefined;
  if (op !== 'get') return { status: 'ok', rv: op === 'delete' ? undefined : rv };
  const token = isRecord(obj) && isRecord(obj['data']) && typeof obj['data']['w'] === 'string' ? obj['data']['w'] : undefined;
  return { status: 'ok', present: true, token, rv };
}
