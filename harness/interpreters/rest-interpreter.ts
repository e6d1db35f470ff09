/**
 * Interprets the REST operations of generators/ops.ts against the target and hands every answer to
 * the model's judges. No expected value is computed here: this file only sends requests, reads
 * answers into the model's types, learns generated values, and asks reference/ what is acceptable.
 */
import { collectionPath, objectPath } from '../../reference/resources.ts';
import { futureResourceVersion } from '../../reference/error-rules.ts';
import type { Op } from '../../generators/ops.ts';
import type { QueryPair } from '../transport/index.ts';
import { judgeTooLarge, type CaseContext } from '../case/index.ts';
import { namespaceOf, resourceOf } from './rest-basics.ts';
import { runGet, runList } from './rest-reads.ts';
import { runWrite } from './rest-writes.ts';

// The interpreter's parts, for its users (the checks, the other interpreters, the self-tests).
export {
  NEEDS_OWN_NAMESPACE,
  NO_RESOURCE_VERSION,
  NO_UID,
  bodyFor,
  contentFor,
  knownKeys,
  namespaceOf,
  ownNamespace,
  resolveRv,
  resourceOf,
} from './rest-basics.ts';
export { pageOf, runGet, runList } from './rest-reads.ts';
export { runWrite } from './rest-writes.ts';

export async function runOp(cx: CaseContext, op: Op): Promise<void> {
  switch (op.op) {
    case 'create':
    case 'update':
    case 'delete':
      return runWrite(cx, op);
    case 'get':
      return runGet(cx, op);
    case 'list':
      return runList(cx, op);
    case 'tooLarge':
      return runTooLarge(cx, op);
  }
}

export async function runTooLarge(cx: CaseContext, op: Extract<Op, { op: 'tooLarge' }>): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const future = futureResourceVersion(cx.rvsSeen);
  if (future === undefined) {
    cx.tally.notCheckedBecause(
      'rest:7/504',
      "the target's resourceVersions are not all decimal integers, so the suite cannot name one it has not issued yet",
    );
    return;
  }
  const query: QueryPair[] = [['resourceVersion', future]];
  if (op.via === 'list-exact') query.push(['resourceVersionMatch', 'Exact']);
  if (op.via === 'list-limit') query.push(['limit', '1']);
  const path = op.via === 'get' ? objectPath(rt, 'alpha', ns) : collectionPath(rt, ns);
  const r = await cx.send({ method: 'GET', path, query });
  // Exact lists (resourceVersionMatch=Exact, or limit with a resourceVersion) have a row of their own:
  // upstream hands their revision to etcd, which refuses a future one (see the expectations file).
  const exact = op.via === 'list-exact' || op.via === 'list-limit';
  cx.judge(
    judgeTooLarge(
      { status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] },
      exact ? 'rest:7/504/exact' : 'rest:7/504',
    ),
  );
}
