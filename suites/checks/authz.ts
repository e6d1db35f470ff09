/**
 * rest:5 identities and authorization, rest:4.6.4 dry-run authorization, rest:4.1 access reviews and
 * the status subresource: `authz-rules` (`authz-anonymous` is in authz-anonymous.ts, `pod-eviction` in
 * pod-eviction.ts), random rules bound to a restricted user in the case's first namespace, then random
 * requests of that user in both namespaces, each preceded by an access review and (for writes) its
 * dry-run (authz-step.ts). The model (reference/rbac.ts) predicts each decision; the review must agree
 * with what the server then does, the dry-run must be refused exactly when the real request is.
 *
 * The restricted user is, by default, a user of this case alone that the run impersonates
 * (Impersonate-User) and binds to a Role in a namespace it created; with `--restricted-kubeconfig`
 * it is that file's user. Nothing is ever granted outside the run's namespaces, and the pool deletes
 * the Role and binding with the rest of the case's objects when the lease ends.
 */
import { judgeSubresourceGet } from '../../harness/case/index.ts';
import type { Check } from '../../harness/case/index.ts';
import { eventualWindowOf } from '../../harness/case/index.ts';
import { expectOk, type CaseContext } from '../../harness/case/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { authzCaseArb, showAuthzRule, type AuthzCase } from '../../generators/authz.ts';
import {
  attributesOfStep,
  authzFixture,
  authzFixtureCrd,
  describeStep,
  policyRules,
  probeStep,
  resourceTypeOf,
  type AuthzNames,
} from '../../reference/authz.ts';
import { notSeenWithin } from '../../harness/case/index.ts';
import { namedGroup } from '../../reference/profile.ts';
import { apiVersionOf, collectionPath, objectPath, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { crdResource } from '../../reference/apply/index.ts';
import { actingAs, type Acting } from './authz-acting.ts';
import { objectBody, runStep } from './authz-step.ts';

/** The case's custom type, installed for the run when the target does not serve it yet. */
async function ensureWidgets(cx: CaseContext, ns: string, clauses: Check<unknown>['clauses']): Promise<ResourceType | undefined> {
  const profile = cx.env.profile;
  const rt = authzFixture(profile, cx.env.runId);
  const served = async () => (await cx.send({ method: 'GET', path: collectionPath(rt, ns) })).status === 200;
  if (await served()) return rt;
  const crd = crdResource(profile);
  const r = await cx.send({
    method: 'POST',
    path: collectionPath(crd),
    body: authzFixtureCrd(profile, cx.env.runId, { [profile.runLabel]: cx.env.runId }),
  });
  if (r.status === 404 || r.status === 405)
    throw new CheckNotApplicable(
      clauses,
      `the target serves no ${crd.plural}.${crd.group}: no custom type with a status subresource can be installed`,
      'skipped',
    );
  if (r.status >= 300 && r.status !== 409)
    throw new CheckNotApplicable(
      clauses,
      `installing the CustomResourceDefinition with a status subresource was refused (status ${r.status})`,
    );
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  for (let wait = 50; cx.env.now() < deadline; wait = Math.min(wait * 2, 1000)) {
    if (await served()) return rt;
    await cx.env.sleep(wait);
  }
  if (await served()) return rt;
  cx.judge(
    notSeenWithin(
      ['rest:5.3'],
      'a custom type served once its definition is in place',
      windowMs,
      `${rt.plural}.${rt.group} not served yet`,
    ),
  );
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
  title:
    'random Role rules for a restricted user: subresources apart from their parent, namespace scope, dry-run and access reviews agree with the server',
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
    const acting = await actingAs(cx, authzRules.clauses);
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
    await bindRole(cx, n, c, acting);
    if (!(await bindingInForce(cx, n, c, acting))) return;
    for (const [i, s] of c.steps.entries()) await runStep(cx, n, acting, c, s, i);
  },
};

/** Role r in namespace #0 with the case's rules, bound to the restricted user. */
async function bindRole(cx: CaseContext, n: AuthzNames, c: AuthzCase, acting: Acting): Promise<void> {
  const ns0 = n.namespaces[0];
  const rbac = namedGroup(n.profile, 'rbac.authorization');
  const roles: ResourceType = { plural: 'roles', kind: 'Role', group: rbac, version: 'v1', namespaced: true };
  const bindings: ResourceType = { plural: 'rolebindings', kind: 'RoleBinding', group: rbac, version: 'v1', namespaced: true };
  await expectOk(
    cx,
    {
      method: 'POST',
      path: collectionPath(roles, ns0),
      body: {
        apiVersion: apiVersionOf(roles),
        kind: 'Role',
        metadata: { name: 'r', namespace: ns0, labels: cx.ownLabels },
        rules: policyRules(n, c.rules),
      },
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
}

/**
 * A new binding takes effect eventually (upstream's authorizer reads an informer cache): waits until a
 * request it grants is reviewed as granted, within the eventual window; false (judged) when it is not.
 */
async function bindingInForce(cx: CaseContext, n: AuthzNames, c: AuthzCase, acting: Acting): Promise<boolean> {
  const probe = probeStep(n, acting.user, acting.groups, c.rules);
  if (probe === undefined) return true;
  const windowMs = eventualWindowOf(cx.env);
  const deadline = cx.env.now() + windowMs;
  let granted = false;
  for (let wait = 25; !granted && cx.env.now() < deadline; wait = Math.min(wait * 2, 500)) {
    granted = (await acting.review(attributesOfStep(n, acting.user, acting.groups, probe, 'x'))) === true;
    if (!granted) await cx.env.sleep(wait);
  }
  if (!granted)
    cx.judge(
      notSeenWithin(
        ['rest:5.3'],
        `the RoleBinding in force: ${describeStep(probe)} reviewed as allowed`,
        windowMs,
        'the review still says denied',
      ),
    );
  return granted;
}
