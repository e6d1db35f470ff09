// The reference server on its own, with a fake clock: the behaviour the suites rely on and the parts
// of it the suites cannot reach quickly (compaction, token expiry, finalizers, discovery).
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';

let server: ReferenceServer | undefined;
let now = 1_700_000_000_000;
const clock = () => now;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start({ profile = 'svc', ...windows }: { historyWindowMs?: number; continueTtlMs?: number; profile?: 'svc' | 'k8s' } = {}) {
  server = await referenceServer({ profile: profiles[profile], clock, tooLargeWaitMs: 20, ...windows });
  return server;
}

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(server!.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: JSON.parse(text) as Record<string, any>, text };
}

const ns = (name: string) => call('POST', '/api/v1/namespaces', { metadata: { name } });
const cm = (namespace: string, name: string, data: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  call('POST', `/api/v1/namespaces/${namespace}/configmaps`, { metadata: { name, ...extra }, data });

describe('reference server', () => {
  it('creates with server-set metadata and refuses a duplicate name', async () => {
    await start();
    expect((await ns('a')).status).toBe(201);
    const c = await cm('a', 'x', { k: 'v' });
    expect(c.status).toBe(201);
    expect(c.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', namespace: 'a' }, data: { k: 'v' } });
    expect(c.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await cm('a', 'x')).status).toBe(409);
    expect((await cm('nope', 'x')).status).toBe(404);
    const g = await call('POST', '/api/v1/namespaces/a/configmaps', { metadata: { generateName: 'gen-' } });
    expect(g.json.metadata.name).toMatch(/^gen-[0-9a-f]{5}$/);
  });

  it('keeps the resourceVersion on a no-op update and refuses a stale one', async () => {
    await start();
    await ns('a');
    const c = await cm('a', 'x', { k: 'v' });
    const same = await call('PUT', '/api/v1/namespaces/a/configmaps/x', {
      metadata: { name: 'x', resourceVersion: c.json.metadata.resourceVersion },
      data: { k: 'v' },
    });
    expect(same.json.metadata.resourceVersion).toBe(c.json.metadata.resourceVersion);
    const changed = await call('PUT', '/api/v1/namespaces/a/configmaps/x', { metadata: { name: 'x' }, data: { k: 'w' } });
    expect(changed.json.metadata.resourceVersion).not.toBe(c.json.metadata.resourceVersion);
    expect(changed.json.metadata.uid).toBe(c.json.metadata.uid);
    const stale = await call('PUT', '/api/v1/namespaces/a/configmaps/x', {
      metadata: { name: 'x', resourceVersion: c.json.metadata.resourceVersion },
      data: { k: 'z' },
    });
    expect(stale.status).toBe(409);
  });

  it('serves Exact snapshots within the window and 410 after compaction', async () => {
    await start({ historyWindowMs: 60_000 });
    await ns('a');
    const first = await cm('a', 'x');
    await cm('a', 'y');
    const rv = first.json.metadata.resourceVersion as string;
    const exact = await call('GET', `/api/v1/namespaces/a/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(exact.json.metadata.resourceVersion).toBe(rv);
    expect(exact.json.items.map((i: any) => i.metadata.name)).toEqual(['x']);
    now += 61_000;
    await cm('a', 'z');
    expect((await call('GET', `/api/v1/namespaces/a/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status).toBe(410);
  });

  it('pages a snapshot, counts what remains, and expires tokens', async () => {
    await start({ continueTtlMs: 1000 });
    await ns('a');
    for (const n of ['p', 'q', 'r']) await cm('a', n);
    const p1 = await call('GET', '/api/v1/namespaces/a/configmaps?limit=2');
    expect(p1.json.items).toHaveLength(2);
    expect(p1.json.metadata.remainingItemCount).toBe(1);
    await cm('a', 's');
    const p2 = await call('GET', `/api/v1/namespaces/a/configmaps?limit=2&continue=${encodeURIComponent(p1.json.metadata.continue)}`);
    expect(p2.json.items.map((i: any) => i.metadata.name)).toEqual(['r']);
    expect(p2.json.metadata.continue ?? '').toBe('');
    expect(p2.json.metadata.resourceVersion).toBe(p1.json.metadata.resourceVersion);
    expect(
      (await call('GET', '/api/v1/namespaces/a/configmaps?limit=2&labelSelector=x!=y')).json.metadata.remainingItemCount,
    ).toBeUndefined();
    now += 1001;
    expect(
      (await call('GET', `/api/v1/namespaces/a/configmaps?limit=2&continue=${encodeURIComponent(p1.json.metadata.continue)}`)).status,
    ).toBe(410);
  });

  it('answers the Invalid cells 422, the 400 cell 400, and a future version 504 with the text', async () => {
    await start();
    await ns('a');
    const c = await cm('a', 'x');
    await cm('a', 'y');
    expect((await call('GET', '/api/v1/namespaces/a/configmaps?resourceVersionMatch=Exact')).status).toBe(422);
    const p1 = await call('GET', '/api/v1/namespaces/a/configmaps?limit=1');
    expect(
      (
        await call(
          'GET',
          `/api/v1/namespaces/a/configmaps?limit=1&continue=${encodeURIComponent(p1.json.metadata.continue)}&resourceVersion=${c.json.metadata.resourceVersion}`,
        )
      ).status,
    ).toBe(400);
    const late = await call('GET', '/api/v1/namespaces/a/configmaps?resourceVersion=999999');
    expect(late.status).toBe(504);
    expect(late.text).toContain('Too large resource version');
    expect(late.headers.get('retry-after')).toBe('1');
  });

  it('deletes in two phases with finalizers, and a namespace with its contents', async () => {
    await start();
    await ns('a');
    await cm('a', 'f', {}, { finalizers: ['example.com/hold'] });
    const d = await call('DELETE', '/api/v1/namespaces/a/configmaps/f');
    expect(d.json.metadata.deletionTimestamp).toBeTypeOf('string');
    const live = await call('GET', '/api/v1/namespaces/a/configmaps/f');
    expect(live.status).toBe(200);
    await call('PUT', '/api/v1/namespaces/a/configmaps/f', { metadata: { name: 'f', finalizers: [] }, data: {} });
    expect((await call('GET', '/api/v1/namespaces/a/configmaps/f')).status).toBe(404);
    await cm('a', 'g');
    expect((await call('DELETE', '/api/v1/namespaces/a')).status).toBe(200);
    expect((await call('GET', '/api/v1/namespaces/a/configmaps/g')).status).toBe(404);
    expect((await call('GET', '/api/v1/namespaces/a')).status).toBe(404);
  });

  it("serves discovery and the named group under the profile's spelling", async () => {
    await start({ profile: 'k8s' });
    expect((await call('GET', '/apis')).json.groups[0].name).toBe('coordination.k8s.io');
    // Events and the namespace subresources are there for real components (test/oracle/targets/hosting-server.test.ts),
    // pods and replication controllers for kubectl users (test/oracle/clients/kubectl-serve-k8s.test.ts).
    expect((await call('GET', '/api/v1')).json.resources.map((r: any) => r.name)).toEqual([
      'namespaces',
      'configmaps',
      'events',
      'namespaces/finalize',
      'namespaces/status',
      'pods',
      'replicationcontrollers',
    ]);
    await ns('a');
    const l = await call('POST', '/apis/coordination.k8s.io/v1/namespaces/a/leases', {
      metadata: { name: 'l' },
      spec: { holderIdentity: 'me' },
    });
    expect(l.json).toMatchObject({ kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', spec: { holderIdentity: 'me' } });
    expect((await call('GET', '/apis/coordination.k8s.io/v1/leases')).json.kind).toBe('LeaseList');
    expect((await call('GET', '/apis/coordination.svc.io/v1/leases')).status).toBe(404);
  });
});
