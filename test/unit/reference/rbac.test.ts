// The role-based model (reference/rbac.ts) both the reference server and the rest-authz judges use:
// each rule of rest:5.3/5.5 with the request it must grant and the near misses it must not.
import { describe, expect, it } from 'vitest';
import {
  allows,
  ANONYMOUS,
  bindingOf,
  roleOf,
  ruleAllows,
  SUPERUSER_GROUP,
  verbOf,
  type Policy,
  type PolicyRule,
} from '../../../reference/rbac.ts';

const u = { user: 'u', groups: ['system:authenticated'] };
const cm = { ...u, verb: 'get', apiGroup: '', resource: 'configmaps', namespace: 'a', name: 'x' };
const w = { ...u, verb: 'get', apiGroup: 'g.test', resource: 'widgets', namespace: 'a', name: 'x' };

function bound(rules: PolicyRule[], ns = 'a'): Policy {
  return {
    roles: [{ name: 'r', namespace: ns, rules }],
    roleBindings: [{ name: 'b', namespace: ns, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }] }],
    clusterRoles: [],
    clusterRoleBindings: [],
  };
}

describe('rules (rest:5.5: apiGroups, resources, verbs)', () => {
  it('grants exactly the named verbs on the named resources in the named groups', () => {
    const r: PolicyRule = { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] };
    expect(ruleAllows(r, cm)).toBe(true);
    expect(ruleAllows(r, { ...cm, verb: 'list' })).toBe(true);
    expect(ruleAllows(r, { ...cm, verb: 'delete' })).toBe(false);
    expect(ruleAllows(r, { ...cm, apiGroup: 'g.test' })).toBe(false);
    expect(ruleAllows(r, { ...cm, resource: 'secrets' })).toBe(false);
  });

  it('wildcards: * verbs, groups, resources', () => {
    expect(ruleAllows({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { ...w, verb: 'patch', subresource: 'status' })).toBe(true);
  });

  it('rest:5.3: a rule on a resource does not grant its subresources; resource/sub and */sub do', () => {
    const status = { ...w, verb: 'update', subresource: 'status' };
    expect(ruleAllows({ apiGroups: ['g.test'], resources: ['widgets'], verbs: ['update'] }, status)).toBe(false);
    expect(ruleAllows({ apiGroups: ['g.test'], resources: ['widgets/*'], verbs: ['update'] }, status)).toBe(false);
    expect(ruleAllows({ apiGroups: ['g.test'], resources: ['widgets/status'], verbs: ['update'] }, status)).toBe(true);
    expect(ruleAllows({ apiGroups: ['g.test'], resources: ['*/status'], verbs: ['update'] }, status)).toBe(true);
    // ...and the subresource rule does not grant the parent.
    expect(ruleAllows({ apiGroups: ['g.test'], resources: ['widgets/status'], verbs: ['update'] }, { ...w, verb: 'update' })).toBe(false);
  });

  it('resourceNames narrow the rule to those objects', () => {
    const r: PolicyRule = { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['x'] };
    expect(ruleAllows(r, cm)).toBe(true);
    expect(ruleAllows(r, { ...cm, name: 'y' })).toBe(false);
  });

  it('non-resource URLs match exactly or by a trailing *', () => {
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/livez'] }, { ...u, verb: 'get', path: '/livez' })).toBe(true);
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/livez'] }, { ...u, verb: 'get', path: '/livez/ping' })).toBe(false);
    expect(ruleAllows({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, { ...u, verb: 'get', path: '/apis/g.test' })).toBe(true);
  });
});

describe('bindings (rest:5.3: namespaced resources at namespace scope)', () => {
  const p = bound([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]);
  it('a RoleBinding grants in its own namespace only', () => {
    expect(allows(p, cm)).toBe(true);
    expect(allows(p, { ...cm, namespace: 'b' })).toBe(false);
    expect(allows(p, { ...cm, namespace: undefined })).toBe(false);
    expect(allows(p, cm, { bindingsEverywhere: true }) && allows(p, { ...cm, namespace: 'b' }, { bindingsEverywhere: true })).toBe(true);
  });
  it('only the subjects it names', () => {
    expect(allows(p, { ...cm, user: 'v' })).toBe(false);
    const byGroup: Policy = {
      ...p,
      roleBindings: [{ ...p.roleBindings[0]!, subjects: [{ kind: 'Group', name: 'system:authenticated' }] }],
    };
    expect(allows(byGroup, { ...cm, user: 'v' })).toBe(true);
    expect(allows(byGroup, { ...cm, ...ANONYMOUS })).toBe(false);
  });
  it('a ClusterRole bound by a RoleBinding grants in that namespace; a ClusterRoleBinding everywhere', () => {
    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];
    const viaRb: Policy = {
      roles: [],
      clusterRoles: [{ name: 'c', rules }],
      roleBindings: [{ name: 'b', namespace: 'a', roleRef: { kind: 'ClusterRole', name: 'c' }, subjects: [{ kind: 'User', name: 'u' }] }],
      clusterRoleBindings: [],
    };
    expect(allows(viaRb, cm)).toBe(true);
    expect(allows(viaRb, { ...cm, namespace: 'b' })).toBe(false);
    const viaCrb: Policy = {
      ...viaRb,
      roleBindings: [],
      clusterRoleBindings: [{ name: 'b', roleRef: { kind: 'ClusterRole', name: 'c' }, subjects: [{ kind: 'User', name: 'u' }] }],
    };
    expect(allows(viaCrb, { ...cm, namespace: 'b' })).toBe(true);
  });
  it('a RoleBinding to a Role of another namespace grants nothing', () => {
    const p2: Policy = { ...p, roles: [{ ...p.roles[0]!, namespace: 'b' }] };
    expect(allows(p2, cm)).toBe(false);
  });
  it('superusers may do anything; nobody else without a binding', () => {
    const empty: Policy = { roles: [], clusterRoles: [], roleBindings: [], clusterRoleBindings: [] };
    expect(allows(empty, { ...cm, groups: [SUPERUSER_GROUP] })).toBe(true);
    expect(allows(empty, cm)).toBe(false);
  });
});

describe('reading stored objects and requests', () => {
  it('reads Roles and bindings; malformed ones are dropped', () => {
    expect(roleOf({ metadata: { name: 'r', namespace: 'a' }, rules: [{ verbs: ['get'], resources: ['x'] }, { nope: 1 }] })).toEqual({
      name: 'r',
      namespace: 'a',
      rules: [{ verbs: ['get'], resources: ['x'] }],
    });
    expect(bindingOf({ metadata: { name: 'b' }, roleRef: { kind: 'Other', name: 'r' } })).toBeUndefined();
  });
  it('names verbs as upstream does', () => {
    expect([
      verbOf('GET', 'object', false),
      verbOf('GET', 'collection', false),
      verbOf('GET', 'collection', true),
      verbOf('POST', 'collection', false),
      verbOf('PUT', 'object', false),
      verbOf('PATCH', 'object', false),
      verbOf('DELETE', 'object', false),
      verbOf('DELETE', 'collection', false),
    ]).toEqual(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
  });
});
