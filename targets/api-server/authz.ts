/**
 * Who is asking, and may they (rest:5.1, rest:5.3). With a token table (`serve --token-auth-file`, and
 * every `run` against the embedded server) the server authenticates bearer tokens, takes requests
 * without credentials as `system:anonymous`, refuses unknown tokens with 401, honours impersonation
 * (`Impersonate-User`, `Impersonate-Group`) for those allowed to impersonate, and authorizes every
 * request with the role-based model of reference/rbac.ts over the stored Roles and bindings, plus a
 * built-in policy as upstream bootstraps it: health and version for everyone, discovery and
 * self-reviews for authenticated users. Without a token table everyone is a superuser, as before
 * (upstream's AlwaysAllow), so kubectl and the self-tests that talk to a bare server keep working.
 */
import type { IncomingMessage } from 'node:http';
import { namedGroup } from '../../reference/profile.ts';
import type { ResourceType } from '../../reference/resources.ts';
import {
  allows,
  ANONYMOUS,
  AUTHENTICATED_GROUP,
  bindingOf,
  roleOf,
  SUPERUSER_GROUP,
  verbOf,
  type BindingDef,
  type Policy,
  type RequestAttributes,
  type RoleDef,
  type UserInfo,
} from '../../reference/rbac.ts';
import { prefixFor } from './reads.ts';
import { has, type ServerState } from './state.ts';
import { statusAnswer, type Answer } from './status.ts';

/** `token -> user` from upstream's token file format: `token,user,uid,"group1,group2"` per line. */
export function parseTokenFile(text: string): Map<string, UserInfo> | { error: string } {
  const out = new Map<string, UserInfo>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([^,]+),([^,]+),([^,]*)(?:,(?:"([^"]*)"|([^,]*)))?$/.exec(line);
    if (!m) return { error: `line ${i + 1}: expected token,user,uid[,"group1,group2"]` };
    const groups = (m[4] ?? m[5] ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== '');
    out.set(m[1]!.trim(), { user: m[2]!.trim(), groups });
  }
  if (out.size === 0) return { error: 'no token in the file' };
  return out;
}

const rbacType = (st: ServerState, plural: string, kind: string, namespaced: boolean): ResourceType => ({
  plural,
  kind,
  group: namedGroup(st.profile, 'rbac.authorization'),
  version: 'v1',
  namespaced,
});

/** The built-in policy upstream bootstraps (system:public-info-viewer, system:discovery, system:basic-user). */
function bootstrap(st: ServerState): { clusterRoles: RoleDef[]; clusterRoleBindings: BindingDef[] } {
  const authz = namedGroup(st.profile, 'authorization');
  const everyone = [
    { kind: 'Group', name: AUTHENTICATED_GROUP },
    { kind: 'Group', name: ANONYMOUS.groups[0]! },
  ];
  return {
    clusterRoles: [
      {
        name: 'system:public-info-viewer',
        rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
      },
      {
        name: 'system:discovery',
        rules: [
          {
            verbs: ['get'],
            nonResourceURLs: [
              '/api',
              '/api/*',
              '/apis',
              '/apis/*',
              '/openapi',
              '/openapi/*',
              '/version',
              '/version/',
              '/healthz',
              '/livez',
              '/readyz',
            ],
          },
        ],
      },
      {
        name: 'system:basic-user',
        rules: [{ verbs: ['create'], apiGroups: [authz], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }],
      },
    ],
    clusterRoleBindings: [
      { name: 'system:public-info-viewer', roleRef: { kind: 'ClusterRole', name: 'system:public-info-viewer' }, subjects: everyone },
      { name: 'system:discovery', roleRef: { kind: 'ClusterRole', name: 'system:discovery' }, subjects: [everyone[0]!] },
      { name: 'system:basic-user', roleRef: { kind: 'ClusterRole', name: 'system:basic-user' }, subjects: [everyone[0]!] },
    ],
  };
}

/** The policy in force: the stored Roles and bindings (all namespaces) and the built-in ones. */
export function policyOf(st: ServerState): Policy {
  const all = <T>(rt: ResourceType, read: (o: unknown) => T | undefined) =>
    st.store
      .list(prefixFor(rt, undefined))
      .map((e) => read(e.obj))
      .filter((x): x is T => x !== undefined);
  const boot = bootstrap(st);
  return {
    roles: all(rbacType(st, 'roles', 'Role', true), roleOf),
    clusterRoles: [...boot.clusterRoles, ...all(rbacType(st, 'clusterroles', 'ClusterRole', false), roleOf)],
    roleBindings: all(rbacType(st, 'rolebindings', 'RoleBinding', true), bindingOf),
    clusterRoleBindings: [...boot.clusterRoleBindings, ...all(rbacType(st, 'clusterrolebindings', 'ClusterRoleBinding', false), bindingOf)],
  };
}

/** The authorizer of this server, faults included. `review`: the decision is for an access review. */
export function decide(st: ServerState, a: RequestAttributes, review = false): boolean {
  // A superuser is allowed whatever the policy (allows' first rule): not read from the store for it.
  return allows(a.groups.includes(SUPERUSER_GROUP) ? NO_POLICY : policyOf(st), a, {
    subresourcesInherit: has(st, 'subresource-inherits-parent'),
    verbsIgnored: has(st, 'rule-verbs-ignored'),
    // sar-disagrees: reviews read RoleBindings as if they granted in every namespace.
    bindingsEverywhere: has(st, 'binding-leaks-namespace') || (review && has(st, 'sar-disagrees')),
  });
}

const NO_POLICY: Policy = { roles: [], clusterRoles: [], roleBindings: [], clusterRoleBindings: [] };

/** Everyone is a superuser when the server has no token table (upstream's AlwaysAllow). */
const OPEN: UserInfo = { user: 'system:admin', groups: [SUPERUSER_GROUP, AUTHENTICATED_GROUP] };

const header = (req: IncomingMessage, name: string): string[] => {
  const v = req.headers[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** The requester, or the 401/403 answer when the credentials authenticate nobody or impersonation is not allowed. */
export function authenticate(st: ServerState, req: IncomingMessage): UserInfo | Answer {
  if (st.tokens === undefined) return OPEN;
  const auth = header(req, 'authorization')[0];
  let user: UserInfo;
  if (auth === undefined) {
    user = has(st, 'anonymous-allowed') ? { ...ANONYMOUS, groups: [...ANONYMOUS.groups, SUPERUSER_GROUP] } : ANONYMOUS;
  } else {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    const known = m ? st.tokens.get(m[1]!) : undefined;
    if (!known) return statusAnswer(401, 'Unauthorized', 'Unauthorized');
    user = { user: known.user, groups: [...new Set([...known.groups, AUTHENTICATED_GROUP])] };
  }
  const as = header(req, 'impersonate-user')[0];
  const asGroups = header(req, 'impersonate-group')
    .flatMap((g) => g.split(','))
    .map((g) => g.trim())
    .filter((g) => g !== '');
  if (as === undefined)
    return asGroups.length > 0 ? statusAnswer(400, 'BadRequest', 'requested impersonation of groups without a user') : user;
  const may = (resource: string, name: string) => decide(st, { ...user, verb: 'impersonate', apiGroup: '', resource, name });
  if (!may('users', as) || asGroups.some((g) => !may('groups', g))) {
    return statusAnswer(403, 'Forbidden', `users "${user.user}" cannot impersonate users "${as}"`);
  }
  return { user: as, groups: [...new Set([...asGroups, ...(as === ANONYMOUS.user ? [] : [AUTHENTICATED_GROUP])])] };
}

/**
 * What a request asks (upstream's RequestInfo, cut down): a resource request for paths under `/api/v1`
 * and `/apis/{group}/{version}` that name a resource, else a request for the plain path.
 */
export function attributesOf(user: UserInfo, method: string, url: URL): RequestAttributes {
  const segs = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  let apiGroup: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    apiGroup = '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    apiGroup = segs[1]!;
    rest = segs.slice(3);
  } else return { ...user, verb: method.toLowerCase(), path: url.pathname };
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource] = rest as [string, string | undefined, string | undefined];
  const watch = url.searchParams.get('watch') === '1' || url.searchParams.get('watch') === 'true';
  const verb = verbOf(method, name === undefined ? 'collection' : 'object', watch);
  // upstream: a namespace is its own scope (GET /api/v1/namespaces/x has namespace x).
  if (apiGroup === '' && resource === 'namespaces' && namespace === undefined && name !== undefined) namespace = name;
  return {
    ...user,
    verb,
    apiGroup,
    resource,
    namespace,
    name,
    subresource,
  };
}

const isDryRun = (url: URL) => url.searchParams.has('dryRun');

/**
 * The gate every request passes (hooks excepted): the requester, or the answer that refuses it.
 * A refusal is 403 Forbidden with a Status, as upstream; 401 for credentials that authenticate nobody.
 */
export function gate(st: ServerState, req: IncomingMessage, url: URL): { user: UserInfo } | { refused: Answer } {
  const user = authenticate(st, req);
  if ('status' in user) return { refused: user };
  if (st.tokens === undefined) return { user };
  // Planted fault dry-run-skips-authz: a dry-run is never refused (rest:5.4, rest:4.6.4).
  if (has(st, 'dry-run-skips-authz') && isDryRun(url) && req.method !== 'GET') return { user };
  // The run's own identity: every request of it would be allowed (decide), so its attributes are not worked out.
  if (user.groups.includes(SUPERUSER_GROUP)) return { user };
  const a = attributesOf(user, req.method ?? 'GET', url);
  if (decide(st, a)) return { user };
  const what =
    'resource' in a
      ? `cannot ${a.verb} resource "${a.subresource ? `${a.resource}/${a.subresource}` : a.resource}" in API group "${a.apiGroup}"${a.namespace !== undefined ? ` in the namespace "${a.namespace}"` : ''}`
      : `cannot ${a.verb} path "${a.path}"`;
  return {
    refused: statusAnswer(403, 'Forbidden', `${a.user === ANONYMOUS.user ? 'User "system:anonymous"' : `user "${a.user}"`} ${what}`),
  };
}
