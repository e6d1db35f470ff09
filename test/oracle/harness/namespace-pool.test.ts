// The namespace pool against the reference server: a lease ends with the run's objects gone (several
// by one collection delete, what that left one by one: finalizers stripped, an object whose run label
// a patch removed), foreign objects kept; what the collection delete's answer shows gone is not read
// again, and followed one by one when the cache still lists it; a target that answers deletes and
// keeps the objects gets the namespace retired, not handed on; a lease's prior versions are those
// seen before it began.
import { afterEach, describe, expect, it } from 'vitest';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { createTargetClient } from '../../../harness/transport/client.ts';
import type { Target, TargetRequest, TargetResponse } from '../../../harness/transport/exchange.ts';
import { NamespacePool } from '../../../harness/case/namespace-pool.ts';

let server: ReferenceServer | undefined;
let client: Target | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

const RUN = 'svc-conformance.test/run=r1';
const cm = (name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels, ...extra },
  data: { a: 'b' },
});

/**
 * The reference server answers a collection delete with a Status; upstream answers with the list of
 * what it deleted. `listDeleted` answers as upstream does (the list read just before, unrecorded).
 */
async function deleteAnsweredWithList(req: TargetRequest): Promise<TargetResponse> {
  const listed = await client!.send({ method: 'GET', path: req.path, query: req.query });
  const r = await client!.send(req);
  return r.status === 200 ? { ...r, json: listed.json, bodyText: listed.bodyText } : r;
}

async function setUp(faults: string[] = [], o: { listDeleted?: boolean } = {}) {
  server = await referenceServer({ faults: faults as never });
  client = createTargetClient(
    { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' },
    { maxRetries: 0 },
  );
  const sent: TargetRequest[] = [];
  const isCollectionDelete = (req: TargetRequest) => req.method === 'DELETE' && /\/configmaps$/.test(req.path);
  const target: Target = {
    server: client.server,
    send: (req) => (sent.push(req), o.listDeleted === true && isCollectionDelete(req) ? deleteAnsweredWithList(req) : client!.send(req)),
    close: async () => undefined,
  };
  const pool = new NamespacePool(target, {
    capacity: 2,
    nameOf: (i) => `pool-${i}`,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: () => Date.now(),
    runSelector: RUN,
  });
  // What a case does through the run's target: every answered request is noted.
  const send = async (req: TargetRequest) => {
    const r = await client!.send(req);
    pool.noteWrite(req, r);
    return r;
  };
  return { pool, send, sent };
}

const names = async (ns: string) =>
  (
    (await client!.send({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps` })).json as { items: { metadata: { name: string } }[] }
  ).items.map((i) => i.metadata.name);

describe('NamespacePool', () => {
  it('a released namespace holds none of the run objects, foreign ones stay, and the next lease gets it clean', async () => {
    const { pool, send, sent } = await setUp();
    const lease = await pool.lease();
    expect(lease.isNew).toBe(true);
    const ns = lease.name;
    await send({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    pool.created(ns);
    const col = `/api/v1/namespaces/${ns}/configmaps`;
    // Foreign: written past the pool (a controller's object).
    expect((await client!.send({ method: 'POST', path: col, body: cm('foreign', {}) })).status).toBe(201);
    for (const n of ['a', 'b'])
      expect((await send({ method: 'POST', path: col, body: cm(n, { 'svc-conformance.test/run': 'r1' }) })).status).toBe(201);
    expect(
      (
        await send({
          method: 'POST',
          path: col,
          body: cm('held', { 'svc-conformance.test/run': 'r1' }, { finalizers: ['example.com/hold'] }),
        })
      ).status,
    ).toBe(201);
    // A patch took the run label away: the collection delete does not select it.
    expect(
      (
        await send({
          method: 'PATCH',
          path: `${col}/b`,
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ metadata: { labels: null } }),
        })
      ).status,
    ).toBe(200);
    const before = sent.length;
    await pool.release(ns);
    expect(await names(ns)).toEqual(['foreign']);
    const cleanup = sent.slice(before);
    expect(cleanup.filter((r) => r.method === 'DELETE' && r.path === col)).toHaveLength(1);
    expect(pool.retired).toBe(0);
    const again = await pool.lease();
    expect(again).toMatchObject({ name: ns, isNew: false });
  });

  it('a target that answers deletes and keeps the objects: the namespace is retired, not handed on', { timeout: 30_000 }, async () => {
    const { pool, send } = await setUp(['never-delete']);
    const { name: ns } = await pool.lease();
    await send({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    pool.created(ns);
    for (const n of ['a', 'b', 'c'])
      await send({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: cm(n, { 'svc-conformance.test/run': 'r1' }) });
    await pool.release(ns);
    expect(pool.retired).toBe(1);
    expect((await pool.lease()).name).not.toBe(ns);
  });

  it("a collection delete whose answer shows every object gone is not read again: the delete, then the cache's confirmation", async () => {
    const { pool, send, sent } = await setUp([], { listDeleted: true });
    const { name: ns } = await pool.lease();
    await send({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    pool.created(ns);
    const col = `/api/v1/namespaces/${ns}/configmaps`;
    for (const n of ['a', 'b', 'c'])
      expect((await send({ method: 'POST', path: col, body: cm(n, { 'svc-conformance.test/run': 'r1' }) })).status).toBe(201);
    const before = sent.length;
    await pool.release(ns);
    expect(await names(ns)).toEqual([]);
    const cleanup = sent
      .slice(before)
      .map(
        (r) => `${r.method} ${r.path}${(r.query ?? []).some(([k, v]) => k === 'resourceVersion' && v === '0') ? '?resourceVersion=0' : ''}`,
      );
    expect(cleanup).toEqual([`DELETE ${col}`, `GET ${col}?resourceVersion=0`]);
    expect(pool.retired).toBe(0);
  });

  it(
    'objects a delete answer showed gone but the cache still lists after a second are followed one by one',
    { timeout: 30_000 },
    async () => {
      const { pool, send, sent } = await setUp(['never-delete'], { listDeleted: true });
      const { name: ns } = await pool.lease();
      await send({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
      pool.created(ns);
      const col = `/api/v1/namespaces/${ns}/configmaps`;
      for (const n of ['a', 'b']) await send({ method: 'POST', path: col, body: cm(n, { 'svc-conformance.test/run': 'r1' }) });
      const before = sent.length;
      await pool.release(ns);
      const cleanup = sent.slice(before);
      // Not only waited on: each object was read on its own (and deleted again) before the namespace was given up.
      for (const n of ['a', 'b']) expect(cleanup.some((r) => r.method === 'GET' && r.path === `${col}/${n}`)).toBe(true);
      expect(pool.retired).toBe(1);
    },
  );

  it("a lease's prior versions are those answered in its namespace before it began", async () => {
    const { pool, send } = await setUp();
    const first = await pool.lease();
    await send({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: first.name } },
    });
    pool.created(first.name);
    const earlier = await send({
      method: 'POST',
      path: `/api/v1/namespaces/${first.name}/configmaps`,
      body: cm('x', { 'svc-conformance.test/run': 'r1' }),
    });
    await pool.release(first.name);
    const second = await pool.lease();
    const later = await send({
      method: 'POST',
      path: `/api/v1/namespaces/${second.name}/configmaps`,
      body: cm('y', { 'svc-conformance.test/run': 'r1' }),
    });
    const rvOf = (r: { json: unknown }) => (r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    expect(second.priorVersions.has(rvOf(earlier))).toBe(true);
    expect(second.priorVersions.has(rvOf(later))).toBe(false);
    expect(second.priorVersions.size).toBeGreaterThan(0);
    expect(first.priorVersions.size).toBe(0);
  });
});
