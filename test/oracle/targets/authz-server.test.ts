// The reference server's authentication and authorization, over plain HTTP: tokens from a
// token file, 401 for a token nobody issued, anonymous refused on resources but not on /livez (as
// upstream's public-info-viewer), impersonation only for those allowed it, reviews answered by the
// authorizer that decides the requests, and the status subresource of a custom type. Without a token
// table the server stays open (everyone a superuser), so bare kubectl and the other self-tests work.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { attributesOf, parseTokenFile } from '../../../targets/api-server/authz.ts';
import { profiles } from '../../../reference/profile.ts';
import { authzFixture, authzFixtureCrd } from '../../../reference/authz.ts';

const p = profiles.svc;
const servers: ReferenceServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const ADMIN = 'admin-token';
const USER = 'user-token';
async function start(): Promise<string> {
  const tokens = parseTokenFile(`${ADMIN},admin,1,"system:masters"\n# a comment\n${USER},alice,2\n`);
  if ('error' in tokens) throw new Error(tokens.error);
  const s = await referenceServer({ profile: p, tokens });
  servers.push(s);
  return s.url;
}

async function call(
  url: string,
  path: string,
  o: { token?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${url}${path}`, {
    method: o.method ?? 'GET',
    headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), 'content-type': 'application/json', ...(o.headers ?? {}) },
    ...(o.body !== undefined ? { body: typeof o.body === 'string' ? o.body : JSON.stringify(o.body) } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* plain text (health) */
  }
  return { status: res.status, json };
}

const rbac = `/apis/rbac.authorization.${p.groupSuffix}/v1`;
const sar = `/apis/authorization.${p.groupSuffix}/v1/subjectaccessreviews`;
const review = (user: string, ra: Record<string, unknown>) => ({
  apiVersion: `authorization.${p.groupSuffix}/v1`,
  kind: 'SubjectAccessReview',
  spec: { user, groups: ['system:authenticated'], resourceAttributes: ra },
});

describe('token file', () => {
  it('reads token,user,uid[,"groups"]; refuses malformed lines and empty files', () => {
    const t = parseTokenFile('t1,u1,1,"g1,g2"\nt2,u2,2\n');
    expect('error' in t ? t : [...t]).toEqual([
      ['t1', { user: 'u1', groups: ['g1', 'g2'] }],
      ['t2', { user: 'u2', groups: [] }],
    ]);
    expect(parseTokenFile('just-a-token\n')).toEqual({ error: 'line 1: expected token,user,uid[,"group1,group2"]' });
    expect(parseTokenFile('# nothing\n')).toEqual({ error: 'no token in the file' });
  });
});

describe("what a request asks (upstream's RequestInfo, cut down)", () => {
  const u = { user: 'u', groups: [] };
  it("turns paths into attributes (the reference server's RequestInfo)", () => {
    const at = (m: string, p: string) => attributesOf(u, m, new URL(p, 'http://x'));
    expect(at('PUT', '/apis/g.test/v1/namespaces/a/widgets/x/status')).toMatchObject({
      verb: 'update',
      apiGroup: 'g.test',
      resource: 'widgets',
      namespace: 'a',
      name: 'x',
      subresource: 'status',
    });
    expect(at('GET', '/api/v1/namespaces/a/configmaps?watch=1')).toMatchObject({ verb: 'watch', resource: 'configmaps', namespace: 'a' });
    expect(at('GET', '/livez')).toMatchObject({ verb: 'get', path: '/livez' });
    expect(at('GET', '/apis/g.test')).toMatchObject({ path: '/apis/g.test' });
  });
});

describe('authentication and authorization', () => {
  it('the superuser may do anything; a token nobody issued gets 401 everywhere; nobody gets 403 on resources', async () => {
    const url = await start();
    expect((await call(url, '/api/v1/namespaces', { token: ADMIN })).status).toBe(200);
    expect((await call(url, '/api/v1/namespaces', { token: 'nope' })).status).toBe(401);
    expect((await call(url, '/livez', { token: 'nope' })).status).toBe(401);
    expect((await call(url, '/api/v1/namespaces')).status).toBe(403);
    // Health and version are public, as upstream's system:public-info-viewer; single checks are not.
    expect((await call(url, '/livez')).status).toBe(200);
    expect((await call(url, '/livez/ping')).status).toBe(403);
    // Authenticated users may discover and ask about themselves, nothing more.
    expect((await call(url, '/apis', { token: USER })).status).toBe(200);
    expect((await call(url, '/api/v1/namespaces/default/configmaps', { token: USER })).status).toBe(403);
  });

  it('a Role bound in one namespace grants there only, and never the subresources of what it names', async () => {
    const url = await start();
    for (const ns of ['a', 'b']) await call(url, '/api/v1/namespaces', { token: ADMIN, method: 'POST', body: { metadata: { name: ns } } });
    const rt = authzFixture(p, 'r1');
    expect(
      (
        await call(url, `/apis/apiextensions.${p.groupSuffix}/v1/customresourcedefinitions`, {
          token: ADMIN,
          method: 'POST',
          body: authzFixtureCrd(p, 'r1', {}),
        })
      ).status,
    ).toBe(201);
    const widgets = (ns: string) => `/apis/${rt.group}/v1/namespaces/${ns}/${rt.plural}`;
    for (const ns of ['a', 'b'])
      expect(
        (
          await call(url, widgets(ns), {
            token: ADMIN,
            method: 'POST',
            body: { apiVersion: `${rt.group}/v1`, kind: rt.kind, metadata: { name: 'x' } },
          })
        ).status,
      ).toBe(201);
    await call(url, `${rbac}/namespaces/a/roles`, {
      token: ADMIN,
      method: 'POST',
      body: { metadata: { name: 'r' }, rules: [{ apiGroups: [rt.group], resources: [rt.plural], verbs: ['get', 'update', 'patch'] }] },
    });
    await call(url, `${rbac}/namespaces/a/rolebindings`, {
      token: ADMIN,
      method: 'POST',
      body: { metadata: { name: 'r' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }] },
    });
    expect((await call(url, `${widgets('a')}/x`, { token: USER })).status).toBe(200);
    expect((await call(url, `${widgets('b')}/x`, { token: USER })).status).toBe(403);
    const patch = { method: 'PATCH', body: { status: { s: 1 } }, headers: { 'content-type': 'application/merge-patch+json' } };
    expect((await call(url, `${widgets('a')}/x/status`, { token: USER, ...patch })).status).toBe(403);
    // The review says what the server does.
    const asked = async (ra: Record<string, unknown>) =>
      (await call(url, sar, { token: ADMIN, method: 'POST', body: review('alice', ra) })).json['status'];
    expect(await asked({ namespace: 'a', verb: 'get', group: rt.group, resource: rt.plural })).toMatchObject({ allowed: true });
    expect(await asked({ namespace: 'b', verb: 'get', group: rt.group, resource: rt.plural })).toMatchObject({ allowed: false });
    expect(await asked({ namespace: 'a', verb: 'patch', group: rt.group, resource: rt.plural, subresource: 'status' })).toMatchObject({
      allowed: false,
    });
    // Impersonation: the superuser may, alice may not.
    expect((await call(url, `${widgets('a')}/x`, { token: ADMIN, headers: { 'impersonate-user': 'alice' } })).status).toBe(200);
    expect((await call(url, `${widgets('b')}/x`, { token: ADMIN, headers: { 'impersonate-user': 'alice' } })).status).toBe(403);
    expect((await call(url, `${widgets('a')}/x`, { token: USER, headers: { 'impersonate-user': 'admin' } })).status).toBe(403);
    // The status subresource changes status only.
    const st = await call(url, `${widgets('a')}/x/status`, {
      token: ADMIN,
      ...patch,
      body: { status: { s: 2 }, metadata: { labels: { l: 'v' } } },
    });
    expect(st.status).toBe(200);
    expect(st.json['status']).toEqual({ s: 2 });
    expect((st.json['metadata'] as Record<string, unknown>)['labels']).toBeUndefined();
    expect((await call(url, `${widgets('a')}/x/scale`, { token: ADMIN })).status).toBe(404);
  });

  it('a dry-run is authorized like the real request', async () => {
    const url = await start();
    const r = await call(url, '/api/v1/namespaces/default/configmaps?dryRun=All', {
      token: USER,
      method: 'POST',
      body: { metadata: { name: 'c' } },
    });
    expect(r.status).toBe(403);
  });
});
