/**
 * rest:5 identities and authorization, rest:4.6.4 dry-run authorization, rest:4.1 access reviews and
 * the status subresource. Two checks:
 *
 * - `authz-anonymous`: requests without credentials and with a token nobody issued, on the run's own
 *   objects and on the health endpoints, are refused (rest:5.1, rest:5.6 where it applies).
 * - `authz-rules`: random rules bound to a restricted user in the case's first namespace, then random
 *   requests of that user in both namespaces, each preceded by an access review and (for writes) its
 *   dry-run. The model (reference/rbac.ts) predicts each decision; the review must agree with what the
 *   server then does, the dry-run must be refused exactly when the real request is.
 *
 * The restricted user is, by default, a user of this case alone that the run impersonates
 * (Impersonate-User) and binds to a Role in a namespace it created; with `--restricted-kubeconfig`
 * it is that file's user. Nothing is ever granted outside the run's namespaces, and the pool deletes
 * the Role and binding with the rest of the case's objects when the lease ends.
 */
import { judgeEviction, judgeHealthAccess, judgeStep, judgeStranger, judgeSubresourceGet } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { eventualWindowOf } from '../../harness/case/index.ts';
import { expectOk, type CaseContext } from '../../harness/case/index.ts';
import type { TargetRequest, TargetResponse } from '../../harness/transport/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { authzCaseArb, showAuthzRule, type AuthzCase } from '../../generators/authz.ts';
import {
  attributesOfStep,
  authzFixture,
  authzFixtureCrd,
  describeStep,
  expectedDecision,
  isLoopbackHost,
  policyRules,
  probeStep,
  resourceTypeOf,
  type AuthzNames,
  type AuthzStep,
  type Stranger,
} from '../../reference/authz.ts';
import { notSeenWithin } from '../../harness/case/index.ts';
import { namedGroup } from '../../reference/profile.ts';
import { apiVersionOf, collectionPath, objectPath, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { crdResource } from '../../reference/apply/index.ts';
import { AUTHENTICATED_GROUP, isResourceRequest, type RequestAttributes } from '../../reference/rbac.ts';

const ok = (r: TargetResponse) => r.status >= 200 && r.status < 300;

function objectBody(cx: CaseContext, rt: ResourceType, name: string, ns: string): Record<string, unknown> {
  const metadata = { name, namespace: ns, labels: cx.ownLabels };
  return rt.kind === 'ConfigMap' ? { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata, data: { k: 'v' } } : { apiVersion: apiVersionOf(rt), kind: rt.kind, metadata, spec: { k: 'v' } };
}

// ---------------------------------------------------------------------------------------------------
// authz-anonymous

interface StrangerCase {
  readonly who: Stranger;
  readonly op: 'list' | 'get' | 'create' | 'delete';
  readonly health: 'livez' | 'readyz' | 'healthz';
}

export const authzStrangers: Check<StrangerCase> = {
  id: 'authz-anonymous',
  suite: 'rest-authz',
  title: 'requests without credentials, or with a token nobody issued, are refused; health endpoints per rest:5.6',
  // rest:5.6 and rest:5.1/client-auth-not-shown (how a refusal is answered) are recorded too, as unspecified where the spec is silent (reference/authz.ts).
  clauses: ['rest:5.1'],
  defaultRuns: 8,
  arbitrary: () =>
    fc.record({
      who: fc.constantFrom<Stranger>('anonymous', 'unknown'),
      op: fc.constantFrom('list' as const, 'get' as const, 'create' as const, 'delete' as const),
      health: fc.constantFrom('livez' as const, 'readyz' as const, 'healthz' as const),
    }),
  describe: (c) => [
    'create configmap x in a namespace of the run (as the run)',
    `${c.op} a configmap there as ${c.who === 'anonymous' ? 'nobody (no credentials)' : 'the holder of a token nobody issued'}`,
    ...(c.op === 'create' || c.op === 'delete' ? ['read it back as the run'] : []),
    `GET /${c.health} as the same`,
  ],
  run: async (c, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    await expectOk(cx, { method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, 'x', ns) }, 'creating configmap x');
    const as = { identity: c.who } as const;
    const what = `${c.op} configmaps in a namespace of the run`;
    switch (c.op) {
      case 'list': {
        const r = await cx.send({ method: 'GET', path: collectionPath(rt, ns), ...as });
        cx.judge(judgeStranger(c.who, what, r.status));
        break;
      }
      case 'get': {
        const r = await cx.send({ method: 'GET', path: objectPath(rt, 'x', ns), ...as });
        cx.judge(judgeStranger(c.who, what, r.status));
        break;
      }
      case 'create': {
        const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, 'y', ns), ...as });
        const back = await cx.send({ method: 'GET', path: objectPath(rt, 'y', ns) });
        cx.judge(judgeStranger(c.who, what, r.status, back.status === 200));
        break;
      }
      case 'delete': {
        const r = await cx.send({ method: 'DELETE', path: objectPath(rt, 'x', ns), ...as });
        const back = await cx.send({ method: 'GET', path: objectPath(rt, 'x', ns) });
        cx.judge(judgeStranger(c.who, what, r.status, back.status === 404));
        break;
      }
    }
    const h = await cx.send({ method: 'GET', path: `/${c.health}`, ...as });
    cx.judge([judgeHealthAccess(c.who, `/${c.health}`, h.status, !isLoopbackHost(new URL(cx.env.target.server).hostname))]);
  },
};

// ---------------------------------------------------------------------------------------------------
// authz-rules

interface Acting {
  readonly user: string;
  readonly groups: readonly string[];
  /** Sends a request as the restricted user. */
  readonly as: Pick<TargetRequest, 'identity' | 'headers'>;
  /** false: the identity may hold other permissions, so only what the case grants is predicted. */
  readonly exact: boolean;
  /** Asks the server whether the restricted user may do `a`; undefined when the review was not answered. */
  review(a: RequestAttributes): Promise<boolean | undefined>;
}

async function actingAs(cx: CaseContext): Promise<Acting> {
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
      body: { apiVersion: `${group}/v1`, kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/livez', verb: 'get' } } },
    });
    if (self.status === 401 || self.status === 403) {
      throw new CheckNotApplicable(
        authzRules.clauses,
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
        answer(await cx.send({ method: 'POST', path: `/apis/${group}/v1/subjectaccessreviews`, body: { apiVersion: `${group}/v1`, kind: 'SubjectAccessReview', spec: { user, groups, ...spec(a) } } })),
    };
  }
  const user = await restricted.user();
  if (user === undefined)
    throw new CheckNotApplicable(
      authzRules.clauses,
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

/** The case's custom type, installed for the run when the target does not serve it yet. */
async function ensureWidgets(cx: CaseContext, ns: string, clauses: Check<unknown>['clauses']): Promise<ResourceType | undefined> {
  const profile = cx.env.profile;
  const rt = authzFixture(profile, cx.env.runId);
  const served = async () => (await cx.send({ method: 'GET', path: collectionPath(rt, ns) })).status === 200;
  if (await served()) return rt;
  const crd = crdResource(profile);
  const r = await cx.send({ method: 'POST', path: collectionPath(crd), body: authzFixtureCrd(profile, cx.env.runId, { [profile.runLabel]: cx.env.runId }) });
  if (r.status === 404 || r.status === 405)
    throw new CheckNotApplicable(clauses, `the target serves no ${crd.plural}.${crd.group}: no custom type with a status subresource can be installed`, 'skipped');
  if (r.status >= 300 && r.status !== 409) throw new CheckNotApplicable(clauses, `installing the CustomResourceDefinition with a status subresource was refused (status ${r.status})`);
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  for (let wait = 50; cx.env.now() < deadline; wait = Math.min(wait * 2, 1000)) {
    if (await served()) return rt;
    await cx.env.sleep(wait);
  }
  if (await served()) return rt;
  cx.judge(notSeenWithin(['rest:5.3'], 'a custom type served once its definition is in place', windowMs, `${rt.plural}.${rt.group} not served yet`));
  return undefined;
}

const RULES_CLAUSES = [
  'rest:5.3',
  'rest:5.5',
  'rest:2.2.4',
  'rest:5.4',
  'rest:4.6.4',
  'rest:4.6.3',
  'rest:4.1/subjectaccessreviews',
  'rest:4.1/get-namespaced-subresource',
  'rest:4.1/get-subresource',
] as const;

export const authzRules: Check<AuthzCase> = {
  id: 'authz-rules',
  suite: 'rest-authz',
  title: 'random Role rules for a restricted user: subresources apart from their parent, namespace scope, dry-run and access reviews agree with the server',
  clauses: [...RULES_CLAUSES],
  defaultRuns: 12,
  arbitrary: () => authzCaseArb(),
  describe: (c) => [
    'install the custom type authzwidgets (status subresource) unless served; make namespaces #0 and #1 with configmap x and authzwidget x each',
    `Role r in namespace #0 with rules ${c.rules.map(showAuthzRule).join(', ')}, RoleBinding r of the restricted user in namespace #0`,
    ...c.steps.map((s) => `review, ${['get', 'list'].includes(s.verb) ? '' : 'dry-run, then '}${describeStep(s)} as the restricted user`),
  ],
  run: async (c, cx) => {
    const profile = cx.env.profile;
    const acting = await actingAs(cx);
    const ns0 = await namespaceOf(cx, 0);
    const ns1 = await namespaceOf(cx, 1);
    const widgets = await ensureWidgets(cx, ns0, authzRules.clauses);
    if (!widgets) return;
    const n: AuthzNames = { profile, runId: cx.env.runId, namespaces: [ns0, ns1] };
    for (const ns of [ns0, ns1]) {
      for (const res of ['configmaps', 'widgets'] as const) {
        const rt = resourceTypeOf(n, res);
        await expectOk(cx, { method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, 'x', ns) }, `creating ${rt.plural} x`);
      }
    }
    // rest:4.1: the subresource row, as the run (which may do anything).
    const statusPath = `${objectPath(widgets, 'x', ns0)}/status`;
    const st = await cx.send({ method: 'GET', path: statusPath });
    cx.judge([judgeSubresourceGet(statusPath, st.status, (st.json as { kind?: string } | undefined)?.kind, widgets.kind)]);
    // ...and its cluster-scoped form: the status of the namespace the case created.
    const nsStatusPath = `${objectPath(resourceTypes(profile).namespaces, ns0)}/status`;
    const nsSt = await cx.send({ method: 'GET', path: nsStatusPath });
    cx.judge([judgeSubresourceGet(nsStatusPath, nsSt.status, (nsSt.json as { kind?: string } | undefined)?.kind, 'Namespace', 'cluster')]);
    const rbac = namedGroup(profile, 'rbac.authorization');
    const roles: ResourceType = { plural: 'roles', kind: 'Role', group: rbac, version: 'v1', namespaced: true };
    const bindings: ResourceType = { plural: 'rolebindings', kind: 'RoleBinding', group: rbac, version: 'v1', namespaced: true };
    await expectOk(
      cx,
      {
        method: 'POST',
        path: collectionPath(roles, ns0),
        body: { apiVersion: apiVersionOf(roles), kind: 'Role', metadata: { name: 'r', namespace: ns0, labels: cx.ownLabels }, rules: policyRules(n, c.rules) },
      },
      'creating Role r',
    );
    await expectOk(
      cx,
      {
        method: 'POST',
        path: collectionPath(bindings, ns0),
        body: {
          apiVersion: apiVersionOf(bindings),
          kind: 'RoleBinding',
          metadata: { name: 'r', namespace: ns0, labels: cx.ownLabels },
          roleRef: { apiGroup: rbac, kind: 'Role', name: 'r' },
          subjects: [{ kind: 'User', apiGroup: rbac, name: acting.user }],
        },
      },
      'creating RoleBinding r',
    );

    // A new binding takes effect eventually (upstream's authorizer reads an informer cache): wait
    // until a request it grants is granted, within the eventual window.
    const probe = probeStep(n, acting.user, acting.groups, c.rules);
    if (probe !== undefined) {
      const windowMs = eventualWindowOf(cx.env);
      const deadline = cx.env.now() + windowMs;
      let granted = false;
      for (let wait = 25; !granted && cx.env.now() < deadline; wait = Math.min(wait * 2, 500)) {
        granted = (await acting.review(attributesOfStep(n, acting.user, acting.groups, probe, 'x'))) === true;
        if (!granted) await cx.env.sleep(wait);
      }
      if (!granted) {
        cx.judge(notSeenWithin(['rest:5.3'], `the RoleBinding in force: ${describeStep(probe)} reviewed as allowed`, windowMs, 'the review still says denied'));
        return;
      }
    }

    for (const [i, s] of c.steps.entries()) await runStep(cx, n, acting, c, s, i);
  },
};

async function runStep(cx: CaseContext, n: AuthzNames, acting: Acting, c: AuthzCase, s: AuthzStep, i: number): Promise<void> {
  const rt = resourceTypeOf(n, s.resource);
  const ns = n.namespaces[s.ns];
  const name = s.verb === 'create' ? `c${i}` : s.verb === 'delete' ? `d${i}` : s.verb === 'list' ? undefined : 'x';
  if (s.verb === 'delete') await expectOk(cx, { method: 'POST', path: collectionPath(rt, ns), body: objectBody(cx, rt, name!, ns) }, `creating ${rt.plural} ${name}`);
  const path = name === undefined || s.verb === 'create' ? collectionPath(rt, ns) : `${objectPath(rt, name, ns)}${s.status ? '/status' : ''}`;
  let req: TargetRequest;
  switch (s.verb) {
    case 'get':
    case 'list':
      req = { method: 'GET', path };
      break;
    case 'create':
      req = { method: 'POST', path, body: objectBody(cx, rt, name!, ns) };
      break;
    case 'delete':
      req = { method: 'DELETE', path };
      break;
    case 'patch':
      req = {
        method: 'PATCH',
        path,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify(s.status ? { status: { step: String(i) } } : { metadata: { annotations: { 'authz-step': String(i) } } }),
      };
      break;
    case 'update': {
      // Custom resources need the current resourceVersion on update: read it as the run first.
      const current = (await expectOk(cx, { method: 'GET', path: objectPath(rt, name!, ns) }, `reading ${rt.plural} ${name}`)).json as Record<string, unknown>;
      const md = (current['metadata'] ?? {}) as Record<string, unknown>;
      const next = s.status
        ? { ...current, status: { step: String(i) } }
        : { ...current, metadata: { ...md, annotations: { ...((md['annotations'] as object | undefined) ?? {}), 'authz-step': String(i) } } };
      req = { method: 'PUT', path, body: next };
      break;
    }
  }
  const expected = expectedDecision(n, acting.user, acting.groups, c.rules, s);
  const review = await acting.review(attributesOfStep(n, acting.user, acting.groups, s, name));
  const restricted = { ...req, ...acting.as, headers: { ...(req.headers ?? {}), ...(acting.as.headers ?? {}) } };
  const dry = req.method === 'GET' ? undefined : await cx.send({ ...restricted, query: [['dryRun', 'All']] });
  const real = await cx.send(restricted);
  const kind = (real.json as { kind?: unknown } | undefined)?.kind;
  cx.judge(
    judgeStep(
      s,
      acting.exact ? expected : expected ? true : undefined,
      {
        real: real.status,
        ...(dry !== undefined ? { dry: dry.status } : {}),
        ...(review !== undefined ? { review } : {}),
        ...(typeof kind === 'string' ? { kind } : {}),
      },
      authzFixture(n.profile, n.runId).kind,
    ),
  );
}

// ---------------------------------------------------------------------------------------------------
// pod-eviction

/**
 * rest:4.1 eviction row (a virtual resource): a pod of the run's is evicted through its subresource
 * and goes. A pod the target will not create (no pods served, or no default service account yet in a
 * fresh namespace: upstream's admission needs one) is waited for within the eventual window.
 */
export const podEviction: Check<null> = {
  id: 'pod-eviction',
  suite: 'rest-authz',
  title: "POST of an Eviction to a pod's eviction subresource evicts it",
  clauses: ['rest:4.1/eviction'],
  defaultRuns: 2,
  arbitrary: () => fc.constant(null),
  describe: () => ['create pod p (never scheduled) in a namespace of the run', 'POST an Eviction to its eviction subresource', 'read the pod'],
  run: async (_c, cx) => {
    const pods: ResourceType = { plural: 'pods', kind: 'Pod', group: '', version: 'v1', namespaced: true };
    const ns = await namespaceOf(cx, 0);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: ns, labels: cx.ownLabels },
      spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'registry.invalid/none:1' }] },
    };
    const windowMs = eventualWindowOf(cx.env);
    const deadline = cx.env.now() + windowMs;
    let created = await cx.send({ method: 'POST', path: collectionPath(pods, ns), body: pod });
    if (created.status === 404 || created.status === 405) throw new CheckNotApplicable(podEviction.clauses, `the target serves no pods (POST answered ${created.status})`, 'skipped');
    for (let wait = 100; !ok(created) && cx.env.now() < deadline; wait = Math.min(wait * 2, 1000)) {
      await cx.env.sleep(wait);
      created = await cx.send({ method: 'POST', path: collectionPath(pods, ns), body: pod });
    }
    if (!ok(created)) {
      cx.judge(notSeenWithin(['rest:4.1/eviction'], 'a pod to evict created in a namespace of the run', windowMs, `creating it answered ${created.status}`));
      return;
    }
    // `policy` has no product suffix in either profile (reference/versioning/removals.ts).
    const policy = 'policy';
    const evicted = await cx.send({
      method: 'POST',
      path: `${objectPath(pods, 'p', ns)}/eviction`,
      body: { apiVersion: `${policy}/v1`, kind: 'Eviction', metadata: { name: 'p', namespace: ns, labels: cx.ownLabels } },
    });
    const after = await cx.send({ method: 'GET', path: objectPath(pods, 'p', ns) });
    const terminating = (after.json as { metadata?: { deletionTimestamp?: unknown } } | undefined)?.metadata?.deletionTimestamp !== undefined;
    cx.judge([judgeEviction(evicted.status, { status: after.status, terminating })]);
  },
};
