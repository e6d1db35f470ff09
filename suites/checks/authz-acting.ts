/**
 * The restricted user of `authz-rules`: by default a user of the case alone that the run impersonates
 * (Impersonate-User); with `--restricted-kubeconfig` that file's user. Either way, with the access
 * review that asks the server what the user may do.
 */
import type { Check } from '../../harness/case/index.ts';
import { type CaseContext } from '../../harness/case/index.ts';
import type { TargetRequest, TargetResponse } from '../../harness/transport/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namedGroup } from '../../reference/profile.ts';
import { AUTHENTICATED_GROUP, isResourceRequest, type RequestAttributes } from '../../reference/rbac.ts';

export interface Acting {
  readonly user: string;
  readonly groups: readonly string[];
  /** Sends a request as the restricted user. */
  readonly as: Pick<TargetRequest, 'identity' | 'headers'>;
  /** false: the identity may hold other permissions, so only what the case grants is predicted. */
  readonly exact: boolean;
  /** Asks the server whether the restricted user may do `a`; undefined when the review was not answered. */
  review(a: RequestAttributes): Promise<boolean | undefined>;
}

export async function actingAs(cx: CaseContext, clauses: Check<unknown>['clauses']): Promise<Acting> {
  const group = namedGroup(cx.env.profile, 'authorization');
  const spec = (a: RequestAttributes) =>
    isResourceRequest(a)
      ? {
          resourceAttributes: {
            namespace: a.namespace,
            verb: a.verb,
            group: a.apiGroup,
            resource: a.resource,
            ...(a.subresource ? { subresource: a.subresource } : {}),
            ...(a.name ? { name: a.name } : {}),
          },
        }
      : { nonResourceAttributes: { path: a.path, verb: a.verb } };
  const answer = (r: TargetResponse) => {
    const allowed = (r.json as { status?: { allowed?: unknown } } | undefined)?.status?.allowed;
    return r.status >= 200 && r.status < 300 ? allowed === true : undefined;
  };
  const restricted = cx.env.identities?.restricted ?? 'impersonation';
  if (restricted === 'impersonation') {
    // A user of this case alone: no binding of another case, even one not yet gone, can grant it anything.
    const user = `svc-conformance:${cx.caseId}`;
    const groups = [AUTHENTICATED_GROUP];
    // Impersonation is a permission like any other: a target that refuses it to the run's identity
    // leaves the restricted user out of reach (skipped, never a failure of the rules).
    const self = await cx.send({
      method: 'POST',
      path: `/apis/${group}/v1/selfsubjectaccessreviews`,
      headers: { 'Impersonate-User': user },
      body: {
        apiVersion: `${group}/v1`,
        kind: 'SelfSubjectAccessReview',
        spec: { nonResourceAttributes: { path: '/livez', verb: 'get' } },
      },
    });
    if (self.status === 401 || self.status === 403) {
      throw new CheckNotApplicable(
        clauses,
        `the run's identity may not impersonate (a request with Impersonate-User answered ${self.status}): give a second identity with --restricted-kubeconfig`,
        'skipped',
      );
    }
    return {
      user,
      groups,
      exact: true,
      as: { headers: { 'Impersonate-User': user } },
      review: async (a) =>
        answer(
          await cx.send({
            method: 'POST',
            path: `/apis/${group}/v1/subjectaccessreviews`,
            body: { apiVersion: `${group}/v1`, kind: 'SubjectAccessReview', spec: { user, groups, ...spec(a) } },
          }),
        ),
    };
  }
  const user = await restricted.user();
  if (user === undefined)
    throw new CheckNotApplicable(
      clauses,
      'the user name of --restricted-kubeconfig could not be learned (neither a client certificate nor a token a TokenReview recognises): the run cannot bind it',
    );
  return {
    user,
    groups: [AUTHENTICATED_GROUP],
    exact: false,
    as: { identity: 'restricted' },
    review: async (a) =>
      answer(
        await cx.send({
          method: 'POST',
          path: `/apis/${group}/v1/selfsubjectaccessreviews`,
          identity: 'restricted',
          body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectAccessReview', spec: spec(a) },
        }),
      ),
  };
}
