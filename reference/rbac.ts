/**
 * A small role-based authorizer, as data and pure functions (rest:5.3, rest:5.5): who may do what is
 * decided from Roles, ClusterRoles and their bindings alone. The reference server authorizes every
 * request with it and answers access reviews from it; the judges of reference/authz.ts predict with
 * it what a target must allow.
 *
 * A rule grants verbs on resources in API groups (rest:5.5). A subresource is its own resource
 * (`widgets/status`), granted only by a rule naming it, `*`, or `*\/status` (rest:5.3: subresources
 * are authorized separately from their parent). A Role and a RoleBinding grant in their namespace only;
 * a ClusterRole bound by a RoleBinding grants in the binding's namespace; a ClusterRoleBinding grants
 * everywhere (rest:5.3: namespaced resources are authorized at namespace scope).
 *
 *   allows(policy, { user: 'u', groups: [], verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'a' })
 *     -> true when a RoleBinding in `a` binds `u` to a role with { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }
 */
import { isRecord } from './objects.ts';

export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

export interface RoleDef {
  readonly name: string;
  /** Absent for a ClusterRole. */
  readonly namespace?: string;
  readonly rules: readonly PolicyRule[];
}

export interface BindingDef {
  readonly name: string;
  /** Absent for a ClusterRoleBinding. */
  readonly namespace?: string;
  readonly roleRef: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
  readonly subjects: readonly Subject[];
}

export interface Policy {
  readonly roles: readonly RoleDef[];
  readonly clusterRoles: readonly RoleDef[];
  readonly roleBindings: readonly BindingDef[];
  readonly clusterRoleBindings: readonly BindingDef[];
}

export interface UserInfo {
  readonly user: string;
  readonly groups: readonly string[];
}

/** What a request asks to do: a resource request or a request to a plain path (health, discovery). */
export type RequestAttributes = UserInfo &
  (
    | {
        readonly verb: string;
        readonly apiGroup: string;
        readonly resource: string;
        readonly subresource?: string;
        /** Absent for cluster-scoped resources and all-namespaces collections. */
        readonly namespace?: string;
        readonly name?: string;
      }
    | { readonly verb: string; readonly path: string }
  );

export const SUPERUSER_GROUP = 'system:masters';
export const ANONYMOUS: UserInfo = { user: 'system:anonymous', groups: ['system:unauthenticated'] };
export const AUTHENTICATED_GROUP = 'system:authenticated';

export const isResourceRequest = (a: RequestAttributes): a is Extract<RequestAttributes, { resource: string }> => 'resource' in a;

const has = (list: readonly string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);

/** upstream's ResourceMatches: `*`, the exact `resource/subresource`, or `*\/subresource`. */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string | undefined): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== undefined && r === `*/${subresource}`));
}

function nonResourceMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

/** Does one rule grant the request? (rest:5.5: apiGroups, resources, verbs) */
export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!isResourceRequest(a)) return nonResourceMatches(rule, a.path);
  if ((rule.resources ?? []).length === 0) return false;
  if (!has(rule.apiGroups, a.apiGroup)) return false;
  if (!resourceMatches(rule, a.resource, a.subresource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && names.includes(a.name));
}

function subjectMatches(s: Subject, u: UserInfo): boolean {
  if (s.kind === 'User') return s.name === u.user;
  if (s.kind === 'Group') return u.groups.includes(s.name);
  if (s.kind === 'ServiceAccount') return u.user === `system:serviceaccount:${s.namespace ?? ''}:${s.name}`;
  return false;
}

function rulesOf(p: Policy, b: BindingDef): readonly PolicyRule[] {
  const role =
    b.roleRef.kind === 'ClusterRole'
      ? p.clusterRoles.find((r) => r.name === b.roleRef.name)
      : p.roles.find((r) => r.name === b.roleRef.name && r.namespace === b.namespace);
  return role?.rules ?? [];
}

export interface AuthorizerOptions {
  /** Fault binding-leaks-namespace of the reference server: RoleBindings grant in every namespace. */
  readonly bindingsEverywhere?: boolean;
  /** Fault subresource-inherits-parent: a rule on a resource also grants its subresources. */
  readonly subresourcesInherit?: boolean;
  /** Fault rule-verbs-ignored: a rule grants every verb on its resources (rest:5.5). */
  readonly verbsIgnored?: boolean;
}

/**
 * The decision: allowed when the user is a superuser, or some binding that names the user (or one of
 * its groups) binds a role with a rule granting the request, and that binding applies where the
 * request acts: a ClusterRoleBinding everywhere, a RoleBinding in its own namespace only.
 */
export function allows(p: Policy, a: RequestAttributes, o: AuthorizerOptions = {}): boolean {
  if (a.groups.includes(SUPERUSER_GROUP)) return true;
  const asked: RequestAttributes =
    o.subresourcesInherit && isResourceRequest(a) && a.subresource !== undefined ? { ...a, subresource: undefined } : a;
  const read = (r: PolicyRule): PolicyRule => (o.verbsIgnored === true ? { ...r, verbs: ['*'] } : r);
  const grants = (b: BindingDef) =>
    b.subjects.some((s) => subjectMatches(s, a)) &&
    rulesOf(p, b)
      .map(read)
      .some((r) => ruleAllows(r, asked) || ruleAllows(r, a));
  if (p.clusterRoleBindings.some(grants)) return true;
  if (!isResourceRequest(a)) return false;
  return p.roleBindings.some(
    (b) => (o.bindingsEverywhere === true || (a.namespace !== undefined && b.namespace === a.namespace)) && grants(b),
  );
}

// ---------------------------------------------------------------------------------------------------
// Reading the stored objects (rbac.authorization.<suffix>/v1 Role, ClusterRole, RoleBinding,
// ClusterRoleBinding) into the policy; malformed ones grant nothing.

const stringOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

export function ruleOf(v: unknown): PolicyRule | undefined {
  if (!isRecord(v)) return undefined;
  const verbs = strings(v['verbs']);
  if (!verbs) return undefined;
  const opt = (k: string) => {
    const s = strings(v[k]);
    return s === undefined ? {} : { [k]: s };
  };
  return { verbs, ...opt('apiGroups'), ...opt('resources'), ...opt('resourceNames'), ...opt('nonResourceURLs') } as PolicyRule;
}

export function roleOf(obj: unknown): RoleDef | undefined {
  if (!isRecord(obj) || !isRecord(obj['metadata'])) return undefined;
  const md = obj['metadata'];
  if (typeof md['name'] !== 'string') return undefined;
  const rules = Array.isArray(obj['rules']) ? obj['rules'].map(ruleOf).filter((r): r is PolicyRule => r !== undefined) : [];
  return { name: md['name'], namespace: stringOf(md['namespace']), rules };
}

export function bindingOf(obj: unknown): BindingDef | undefined {
  if (!isRecord(obj) || !isRecord(obj['metadata']) || !isRecord(obj['roleRef'])) return undefined;
  const md = obj['metadata'];
  const ref = obj['roleRef'];
  if (typeof md['name'] !== 'string' || (ref['kind'] !== 'Role' && ref['kind'] !== 'ClusterRole') || typeof ref['name'] !== 'string')
    return undefined;
  const subjects = (Array.isArray(obj['subjects']) ? obj['subjects'] : []).flatMap((s): Subject[] =>
    isRecord(s) && typeof s['kind'] === 'string' && typeof s['name'] === 'string'
      ? [{ kind: s['kind'], name: s['name'], namespace: stringOf(s['namespace']) }]
      : [],
  );
  return {
    name: md['name'],
    namespace: stringOf(md['namespace']),
    roleRef: { kind: ref['kind'], name: ref['name'] },
    subjects,
  };
}

/**
 * The verb of an HTTP request on a resource path (as upstream names them): GET of an object `get`, of a
 * collection `list` (`watch` with watch=1), POST `create`, PUT `update`, PATCH `patch`, DELETE of an
 * object `delete`, of a collection `deletecollection`.
 */
export function verbOf(method: string, target: 'object' | 'collection', watch: boolean): string {
  switch (method) {
    case 'GET':
      return target === 'object' ? 'get' : watch ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return target === 'object' ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
