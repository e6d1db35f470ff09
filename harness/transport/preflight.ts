/**
 * Preflight: before any check, ask the target what the run's identity may do, and
 * stop with one line when the suite cannot work there. A target that refuses every request (a missing
 * RBAC binding, the wrong kubeconfig context) would otherwise be reported "nonconformant: rest:4.1/post
 * failed", as if the server broke the spec.
 *
 * The question is a SelfSubjectAccessReview per permission the API suites need (rest:4.1: a review is
 * answered by the authorizer that decides the requests themselves). Where the review itself is refused
 * or not served, a trial write decides: a dry-run create of a namespace named and labelled for the run
 * (nothing is stored; were the target to store it anyway, the run's cleanup removes it by its label).
 * Only a 401, a 403 or a review saying `allowed: false` stops the run; any other answer lets the checks
 * find out.
 */
import type { Profile } from '../../reference/profile.ts';
import { namedGroup } from '../../reference/profile.ts';
import type { Target, TargetRequest, TargetResponse } from './exchange.ts';

export interface Permission {
  readonly verb: string;
  readonly resource: string;
  /** Asked in a namespace named for the run (the suite works only in namespaces of its own). */
  readonly namespaced: boolean;
}

/** What every API suite needs: namespaces of its own, and ConfigMaps in them (the suites' main fixture). */
export const SUITE_NEEDS: readonly Permission[] = [
  ...['create', 'get', 'list', 'delete'].map((verb) => ({ verb, resource: 'namespaces', namespaced: false })),
  ...['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'].map((verb) => ({ verb, resource: 'configmaps', namespaced: true })),
];

export const NEEDS_TEXT =
  'the suite needs to create, get, list and delete namespaces, and to create, get, list, watch, update, patch and delete configmaps in the namespaces it creates (e.g. the cluster-admin role; docs/targets.md "Pointing it at a real target")';

export interface PreflightOptions {
  readonly profile: Profile;
  readonly runId: string;
  /** Where the credentials came from (`kubeconfig ~/.kube/config`, `--server`), for the 401 line. */
  readonly credentials: string;
  /** Reads the run made before (harness/transport/transport-preflight.ts): with the preflight's own, all errors stop the run. */
  readonly earlier?: readonly { readonly call: string; readonly res: TargetResponse }[];
  /** `--namespace`: the run works in these and creates no namespace, so it needs configmaps in the first only. */
  readonly namespaces?: readonly string[];
}

/** undefined when the run may go on; otherwise the one line that says what was refused and what is needed. */
export async function preflight(target: Target, o: PreflightOptions): Promise<string | undefined> {
  const namespace = o.namespaces?.[0] ?? `svc-conformance-${o.runId}-preflight`;
  const needs = o.namespaces === undefined ? SUITE_NEEDS : SUITE_NEEDS.filter((p) => p.namespaced);
  const group = namedGroup(o.profile, 'authorization');
  const review = (p: Permission): TargetRequest => ({
    method: 'POST',
    path: `/apis/${group}/v1/selfsubjectaccessreviews`,
    body: {
      apiVersion: `${group}/v1`,
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: p.verb, group: '', resource: p.resource, ...(p.namespaced ? { namespace } : {}) } },
    },
  });
  const unauthenticated = (req: TargetRequest, res: TargetResponse) =>
    `not tested: the target does not authenticate the run's credentials (from ${o.credentials}): ${call(req)} answered 401${statusText(res)}; the suite needs credentials the target accepts`;

  const [first, ...rest] = needs;
  const firstReq = review(first!);
  const firstRes = await target.send(firstReq);
  if (firstRes.status === 401) return unauthenticated(firstReq, firstRes);
  if (allowedOf(firstRes) !== undefined) {
    const answers = [
      { p: first!, res: firstRes },
      ...(await Promise.all(rest.map(async (p) => ({ p, res: await target.send(review(p)) })))),
    ];
    const unauth = answers.find((a) => a.res.status === 401);
    if (unauth !== undefined) return unauthenticated(review(unauth.p), unauth.res);
    const denied = answers.filter((a) => allowedOf(a.res) === false);
    if (denied.length === 0) return undefined;
    const [d, ...more] = denied;
    const reason = (d!.res.json as { status?: { reason?: unknown } } | undefined)?.status?.reason;
    return `not tested: the target's authorizer denies the run's identity: ${name(d!.p, namespace)} (SelfSubjectAccessReview: allowed false${typeof reason === 'string' && reason !== '' ? `, ${oneLine(reason)}` : ''})${more.length > 0 ? `, and ${more.map((m) => name(m.p, namespace)).join(', ')}` : ''}; ${NEEDS_TEXT}`;
  }

  // The review is refused or not served: a trial write in a namespace of the run's own name decides.
  const trial: TargetRequest =
    o.namespaces === undefined
      ? {
          method: 'POST',
          path: '/api/v1/namespaces',
          query: [['dryRun', 'All']],
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { [o.profile.runLabel]: o.runId } } },
        }
      : {
          method: 'POST',
          path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps`,
          query: [['dryRun', 'All']],
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `svc-conformance-${o.runId}-preflight`, labels: { [o.profile.runLabel]: o.runId } },
          },
        };
  const res = await target.send(trial);
  if (res.status === 401) return unauthenticated(trial, res);
  if (res.status === 403) {
    return `not tested: the target refuses the run's identity: create ${o.namespaces === undefined ? 'namespaces' : `configmaps in namespace ${namespace}`} (${call(trial)} answered 403${statusText(res)}; the SelfSubjectAccessReview asking for it answered ${firstRes.status}); ${NEEDS_TEXT}`;
  }
  // Every probe answered an error: whatever the checks sent would be answered the same, and reported
  // as hundreds of failures of the spec instead of one misconfiguration.
  const probes = [...(o.earlier ?? []), { call: call(firstReq), res: firstRes }, { call: call(trial), res }];
  if (probes.every((p) => p.res.status >= 400)) {
    const errorText = statusText(res) || bodyExcerpt(res);
    return `not tested: the target answers an error to every probe (${probes.map((p) => `${p.call} ${p.res.status}`).join(', ')})${errorText !== '' ? `; the last said${errorText}` : ''}; is the server URL the API server's (from ${o.credentials})?`;
  }
  return undefined;
}

/** ` "<the body, on one line>"`, nothing for an empty body. */
function bodyExcerpt(res: TargetResponse): string {
  const text = oneLine(res.bodyText);
  return text === '' ? '' : ` "${text}"`;
}

/** A review's `status.allowed`; undefined when the answer is not a review's. */
function allowedOf(res: TargetResponse): boolean | undefined {
  if (res.status !== 200 && res.status !== 201) return undefined;
  const allowed = (res.json as { status?: { allowed?: unknown } } | undefined)?.status?.allowed;
  return typeof allowed === 'boolean' ? allowed : undefined;
}

const name = (p: Permission, namespace: string): string => `${p.verb} ${p.resource}${p.namespaced ? ` in namespace ${namespace}` : ''}`;
const call = (req: TargetRequest): string =>
  `${req.method} ${req.path}${req.query?.length ? `?${req.query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&')}` : ''}`;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 160);

/** ` Unauthorized: <message>` from a Status body, nothing when the body is not one. */
function statusText(res: TargetResponse): string {
  const st = res.json as { reason?: unknown; message?: unknown } | undefined;
  const reason = typeof st?.reason === 'string' && st.reason !== '' ? ` ${oneLine(st.reason)}` : '';
  const message = typeof st?.message === 'string' && st.message !== '' ? `: ${oneLine(st.message)}` : '';
  return `${reason}${message}`;
}
