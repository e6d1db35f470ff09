/**
 * DELETE may carry a DeleteOptions body. kubectl sends `kubectl delete --dry-run=server` as
 * `{"kind":"DeleteOptions","dryRun":["All"]}` in the body with no `dryRun` in the query, and the
 * server deleted for real. The body's dryRun values join the query's, so the one dry-run path
 * (negotiate.ts) judges both forms alike, refusals of unknown values included.
 */
import { isRecord } from '../../reference/objects.ts';

type Pairs = readonly (readonly [string, string | null])[];

export function withDeleteOptionsDryRun(pairs: Pairs, rawBody: string): Pairs {
  if (rawBody.trim() === '') return pairs;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return pairs;
  }
  if (!isRecord(body) || !Array.isArray(body['dryRun'])) return pairs;
  return [...pairs, ...body['dryRun'].map((v) => ['dryRun', String(v)] as const)];
}

/**
 * DeleteOptions.preconditions (`{"preconditions":{"resourceVersion":"..","uid":".."}}`): upstream refuses
 * a delete whose preconditions do not match the live object with 409 and deletes nothing. The spec has
 * no preconditions; the reference server behaves like upstream so a concurrent workload can use them.
 */
export function deletePreconditionsOf(rawBody: string): { resourceVersion?: string; uid?: string } | undefined {
  if (rawBody.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || !isRecord(body['preconditions'])) return undefined;
  const p = body['preconditions'];
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { resourceVersion: text(p['resourceVersion']), uid: text(p['uid']) };
}
