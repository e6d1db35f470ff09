/**
 * The judges of identities and authorization (rest:5, rest:4.6.4, rest:4.1 subjectaccessreviews and
 * subresource rows). They take what the suite saw and return verdicts; the rules a case bound are
 * turned into a policy and decided by the authorizer of reference/rbac.ts.
 *
 * What the spec does not say is recorded, never failed: the status code and body of a refusal
 * (rest:5.1: "the mechanisms are described outside this document"; rest:7.6 error bodies), and
 * whether a health endpoint must refuse a caller on the same host (rest:5.6 speaks of remote hosts).
 *
 *   judgeStep({ allowed: false }, { real: 403, dry: 403, review: false }) -> rest:5.3 pass, rest:4.6.4 pass, ...
 *   judgeStep({ allowed: false }, { real: 200, ... })                     -> rest:5.3 fail
 */
import type { ClauseId } from './catalog/clause-ids.ts';
import { fail, inconclusive, pass, rule, type Judgement } from './judgement.ts';
import type { Profile } from './profile.ts';
import { crdManifest, fixtureGroup } from './apply/fixture-type.ts';
import type { ResourceType } from './resources.ts';
import { allows, type Policy, type PolicyRule, type RequestAttributes } from './rbac.ts';
import { outcomeOf, refusalRecorded } from './access-judges.ts';

// Judges of access beside a case's rules, for the callers that import them from here.
export {
  isLoopbackHost,
  judgeEviction,
  judgeHealthAccess,
  judgeStranger,
  judgeSubresourceGet,
  outcomeOf,
  refusalRecorded,
  type Outcome,
  type Stranger,
} from './access-judges.ts';

/** The custom type of the authorization checks: namespaced, with a status subresource (rest:2.1, rest:4.1). */
export function authzFixture(profile: Profile, runId: string): ResourceType {
  return { plural: 'authzwidgets', kind: 'AuthzWidget', group: fixtureGroup(profile, runId), version: 'v1', namespaced: true };
}

/** Its CustomResourceDefinition, labelled for the run. */
export function authzFixtureCrd(profile: Profile, runId: string, labels: Record<string, string>): Record<string, unknown> {
  const rt = authzFixture(profile, runId);
  return crdManifest(profile, rt, labels, [
    {
      name: rt.version,
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: { openAPIV3Schema: { type: 'object', [profile.preserveUnknownFieldsExtension]: true } },
    },
  ]);
}

// ---------------------------------------------------------------------------------------------------
// The vocabulary of a case: symbolic, so generators need no run id.

export type AuthzGroup = 'core' | 'fixture' | '*';
export type AuthzResource = 'configmaps' | 'widgets';
export const AUTHZ_VERBS = ['get', 'list', 'create', 'update', 'patch', 'delete'] as const;
export type AuthzVerb = (typeof AUTHZ_VERBS)[number];
/** What a rule may name: a resource, the status subresource, `*\/status`, or `*`. */
export const AUTHZ_RULE_RESOURCES = ['configmaps', 'widgets', 'widgets/status', '*/status', '*'] as const;

export interface AuthzRule {
  readonly apiGroups: readonly AuthzGroup[];
  readonly resources: readonly (typeof AUTHZ_RULE_RESOURCES)[number][];
  readonly verbs: readonly (AuthzVerb | '*')[];
}

/** One request of the restricted user: on `widgets/status` when `status`; in the bound namespace (0) or the other (1). */
export interface AuthzStep {
  readonly verb: AuthzVerb;
  readonly resource: AuthzResource;
  readonly status: boolean;
  readonly ns: 0 | 1;
}

export interface AuthzNames {
  readonly profile: Profile;
  readonly runId: string;
  readonly namespaces: readonly [string, string];
}

export const groupOf = (n: AuthzNames, g: AuthzGroup): string =>
  g === 'core' ? '' : g === 'fixture' ? authzFixture(n.profile, n.runId).group : '*';
const typeOf = (n: AuthzNames, r: AuthzResource): ResourceType =>
  r === 'configmaps'
    ? { plural: 'configmaps', kind: 'ConfigMap', group: '', version: 'v1', namespaced: true }
    : authzFixture(n.profile, n.runId);
export const resourceTypeOf = typeOf;

/** The rules as they go into the Role (rest:5.5 shape); a widget resource name becomes the fixture's plural. */
export function policyRules(n: AuthzNames, rules: readonly AuthzRule[]): PolicyRule[] {
  const plural = authzFixture(n.profile, n.runId).plural;
  return rules.map((r) => ({
    apiGroups: [...new Set(r.apiGroups.map((g) => groupOf(n, g)))],
    resources: [...new Set(r.resources.map((x) => x.replace(/^widgets/, plural)))],
    verbs: [...new Set(r.verbs)],
  }));
}

export function attributesOfStep(
  n: AuthzNames,
  user: string,
  groups: readonly string[],
  s: AuthzStep,
  name: string | undefined,
): RequestAttributes {
  const rt = typeOf(n, s.resource);
  return {
    user,
    groups,
    verb: s.verb,
    apiGroup: rt.group,
    resource: rt.plural,
    namespace: n.namespaces[s.ns],
    name,
    subresource: s.status ? 'status' : undefined,
  };
}

/** The policy a case put in place: one Role and one RoleBinding of `user`, both in the first namespace. */
export function casePolicy(n: AuthzNames, user: string, rules: readonly AuthzRule[]): Policy {
  const ns = n.namespaces[0];
  return {
    roles: [{ name: 'r', namespace: ns, rules: policyRules(n, rules) }],
    roleBindings: [{ name: 'r', namespace: ns, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: user }] }],
    clusterRoles: [],
    clusterRoleBindings: [],
  };
}

/** Every request a case can make in the binding's namespace. */
const EVERY_STEP: readonly AuthzStep[] = [
  ...(['configmaps', 'widgets'] as const).flatMap((resource) =>
    AUTHZ_VERBS.map((verb) => ({ verb, resource, status: false, ns: 0 as const })),
  ),
  ...(['get', 'update', 'patch'] as const).map((verb) => ({ verb, resource: 'widgets' as const, status: true, ns: 0 as const })),
];

/**
 * A request the rules grant, to see the binding in force before the case starts (the first the model
 * allows, so any grant has one); undefined when the rules grant nothing a case can ask.
 */
export function probeStep(n: AuthzNames, user: string, groups: readonly string[], rules: readonly AuthzRule[]): AuthzStep | undefined {
  return EVERY_STEP.find((s) => expectedDecision(n, user, groups, rules, s));
}

// ---------------------------------------------------------------------------------------------------
// Judges.

export function describeStep(s: AuthzStep): string {
  return `${s.verb} ${s.resource}${s.status ? '/status' : ''} in namespace #${s.ns}${s.ns === 1 ? " (not the binding's)" : ''}`;
}

export interface StepObservation {
  /** Status of the request itself. */
  readonly real: number;
  /** Status of the same request with dryRun=All, sent first (writes only). */
  readonly dry?: number;
  /** What the access review said about the request, asked before it; undefined when no review was asked or answered. */
  readonly review?: boolean;
  /** The subresource GET answered this kind (rest:4.1 get-namespaced-subresource). */
  readonly kind?: string;
}

/**
 * One request of the restricted user. `expected` is the model's decision, or undefined when the
 * identity's other permissions are unknown (a `--restricted-kubeconfig` user): then only what the
 * case's own rules grant is judged, and agreement between review, dry-run and real request.
 */
export function judgeStep(s: AuthzStep, expected: boolean | undefined, o: StepObservation, fixtureKind: string): Judgement[] {
  const what = describeStep(s);
  const real = outcomeOf(o.real);
  const out: Judgement[] = [];
  out.push(...judgeDecision(s, expected, o, what, real));
  out.push(...judgeDryRunAgrees(o, what, real));
  out.push(...judgeReviewAgrees(expected, o, what, real));
  if (s.status && s.verb === 'get' && real === 'ok') {
    out.push(
      rule(
        'rest:4.1/get-namespaced-subresource',
        o.kind === fixtureKind,
        `GET of the status subresource returns its representation (the ${fixtureKind})`,
        `kind ${o.kind ?? 'none'}`,
      ),
    );
  }
  if (real === 'refused' || (expected === false && real !== 'ok')) out.push(refusalRecorded(what, o.real));
  return out;
}

/**
 * rest:5.3 and rest:5.5 (rest:2.2.4 outside the binding's namespace): the real request served when the
 * case's rules grant it, refused when they do not.
 */
function judgeDecision(
  s: AuthzStep,
  expected: boolean | undefined,
  o: StepObservation,
  what: string,
  real: ReturnType<typeof outcomeOf>,
): Judgement[] {
  const out: Judgement[] = [];
  // rest:5.5 where the case's rules alone decide, in the binding's namespace: a rule grants the verbs
  // it lists on the resources (a subresource being one of its own) it lists, nothing else.
  const scope: ClauseId[] = ['rest:5.3', ...(s.ns === 1 ? ['rest:2.2.4' as const] : ['rest:5.5' as const])];
  if (expected === true) {
    for (const c of scope) {
      if (real === 'refused')
        out.push(fail(c, `${what}: granted by the case's Role (bound in namespace #0), so not refused`, `refused with ${o.real}`));
      else if (real === 'other')
        out.push(
          inconclusive(
            c,
            `${what}: granted, so served`,
            `answered ${o.real}: failed for another reason than authorization, which proves nothing either way`,
          ),
        );
      else out.push(pass(c, `${what}: granted, served`, `${o.real}`));
    }
  } else if (expected === false) {
    for (const c of scope)
      out.push(
        rule(
          c,
          real !== 'ok',
          `${what}: no rule of the case grants it${s.status ? ' (a rule on the parent resource does not grant its subresources)' : ''}${s.ns === 1 ? ' (the binding grants in its own namespace only)' : ''}, so refused`,
          `answered ${o.real}`,
        ),
      );
  }
  return out;
}

/**
 * rest:4.6.4 and rest:5.4: a dry-run refused exactly when the real request is;
 * rest:4.6.3: served dry when served for real.
 */
function judgeDryRunAgrees(o: StepObservation, what: string, real: ReturnType<typeof outcomeOf>): Judgement[] {
  const out: Judgement[] = [];
  if (o.dry === undefined) return out;
  const dry = outcomeOf(o.dry);
  for (const c of ['rest:4.6.4', 'rest:5.4'] as const) {
    if (dry === 'other' || real === 'other')
      out.push(
        inconclusive(
          c,
          `${what}: the dry-run refused exactly when the real request is`,
          `dry-run ${o.dry}, real ${o.real}: one failed for another reason than authorization`,
        ),
      );
    else
      out.push(rule(c, dry === real, `${what}: the dry-run refused exactly when the real request is`, `dry-run ${o.dry}, real ${o.real}`));
  }
  // rest:4.6.3: every built-in admission step supports dry-run, so a request served for real is served dry too.
  if (real === 'ok')
    out.push(
      rule(
        'rest:4.6.3',
        dry === 'ok',
        `${what}: served for real, so its dry-run (built-in admission only) is served too`,
        `dry-run ${o.dry}`,
      ),
    );
  return out;
}

/**
 * rest:4.1/subjectaccessreviews: the review answers as the authorizer decides, and agrees with what the
 * server then does.
 */
function judgeReviewAgrees(
  expected: boolean | undefined,
  o: StepObservation,
  what: string,
  real: ReturnType<typeof outcomeOf>,
): Judgement[] {
  const out: Judgement[] = [];
  if (o.review === undefined) return out;
  if (real === 'other') {
    if (expected !== undefined)
      out.push(
        rule(
          'rest:4.1/subjectaccessreviews',
          o.review === expected,
          `${what}: the review answers as the authorizer decides (${expected ? 'allowed' : 'denied'})`,
          `review said ${o.review ? 'allowed' : 'denied'}`,
        ),
      );
  } else {
    out.push(
      rule(
        'rest:4.1/subjectaccessreviews',
        o.review === (real === 'ok'),
        `${what}: the review's answer agrees with what the server then does`,
        `review said ${o.review ? 'allowed' : 'denied'}; the request was ${real === 'ok' ? 'served' : 'refused'} (${o.real})`,
      ),
    );
  }
  return out;
}

/** The model's decision for one step of a case (reference/rbac.ts over the case's one Role and binding). */
export function expectedDecision(
  n: AuthzNames,
  user: string,
  groups: readonly string[],
  rules: readonly AuthzRule[],
  s: AuthzStep,
): boolean {
  return allows(casePolicy(n, user, rules), attributesOfStep(n, user, groups, s, 'x'));
}
