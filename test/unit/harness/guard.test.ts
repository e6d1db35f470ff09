import { afterEach, describe, expect, it } from 'vitest';
import type { Target, TargetRequest, TargetResponse } from '../../../harness/transport/exchange.ts';
import { createGuardedTarget, registerCleanup, runIdentity, SafetyError, type CleanupHandle } from '../../../harness/transport/guard.ts';
import { profiles, systemNamespaces } from '../../../reference/profile.ts';

const run = runIdentity('r1', profiles.svc.runLabel);
const NS = 'svc-conformance-r1-a';
const label = { [run.labelKey]: run.runId };

/** Records what reaches it and answers 201/200 echoing the body, or what `answer` says. */
function fakeTarget(answer?: (req: TargetRequest) => TargetResponse | undefined): Target & { sent: TargetRequest[] } {
  const sent: TargetRequest[] = [];
  return {
    server: 'http://fake',
    sent,
    async send(req) {
      sent.push(req);
      const custom = answer?.(req);
      if (custom) return custom;
      const status = req.method === 'POST' ? 201 : 200;
      return { status, headers: {}, bodyText: JSON.stringify(req.body ?? {}), json: req.body ?? {} };
    },
    async close() {},
  };
}

const nsBody = (name: string, labels: Record<string, string> = label) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const cmBody = (labels: Record<string, string> = label) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels } });

async function refused(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafetyError);
  return (err as Error).message;
}

describe('createGuardedTarget', () => {
  it('allows its own namespace flow: create, write inside with the label, patch, delete', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    expect((await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) })).status).toBe(201);
    expect(g.created().namespaces).toEqual([NS]);
    await g.send({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: cmBody() });
    await g.send({ method: 'PUT', path: `/api/v1/namespaces/${NS}/configmaps/c`, body: cmBody() });
    await g.send({ method: 'PATCH', path: `/apis/coordination.svc.io/v1/namespaces/${NS}/leases/l`, body: { spec: {} } });
    await g.send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/configmaps/c` });
    await g.send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/configmaps` });
    await g.send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}` });
    expect(inner.sent.map((r) => r.method)).toEqual(['POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'DELETE', 'DELETE']);
  });

  it('refuses a PUT in a foreign namespace without sending anything', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    expect(await refused(g.send({ method: 'PUT', path: '/api/v1/namespaces/kube-system/configmaps/c', body: cmBody() }))).toBe(
      'refused PUT /api/v1/namespaces/kube-system/configmaps/c: namespace kube-system was not created by this run (run r1)',
    );
    expect(inner.sent).toEqual([]);
    // Reads are never refused.
    await g.send({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps' });
    expect(inner.sent).toHaveLength(1);
  });

  it('refuses a POST without the run label, even in its own namespace', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) });
    expect(await refused(g.send({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: cmBody({}) }))).toContain(
      `body does not carry label ${run.labelKey}=r1`,
    );
    expect(
      await refused(g.send({ method: 'POST', path: `/api/v1/namespaces/${NS}/configmaps`, body: cmBody({ [run.labelKey]: 'r2' }) })),
    ).toContain('label');
    expect(await refused(g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody('svc-conformance-r1-b', {}) }))).toContain(
      'label',
    );
    expect(inner.sent).toHaveLength(1);
  });

  it('namespace names must carry this run prefix exactly (run r1 is not run r12)', async () => {
    const g = createGuardedTarget(fakeTarget(), run);
    expect(await refused(g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody('svc-conformance-r12-a') }))).toContain(
      'does not start with svc-conformance-r1-',
    );
    expect(await refused(g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody('default') }))).toContain('does not start with');
    await g.send({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { generateName: 'svc-conformance-r1-', labels: label } },
    });
  });

  it('learns generated names from the response, and nothing from dry runs or failures', async () => {
    const inner = fakeTarget((req) => {
      if (req.method !== 'POST') return undefined;
      if (req.query?.some(([k]) => k === 'fail')) return { status: 409, headers: {}, bodyText: '{}', json: {} };
      return { status: 201, headers: {}, bodyText: '', json: { metadata: { name: 'svc-conformance-r1-xyz12', labels: label } } };
    });
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', query: [['dryRun', 'All']], body: nsBody(`${NS}-dry`) });
    await g.send({ method: 'POST', path: '/api/v1/namespaces', query: [['fail', null]], body: nsBody(`${NS}-taken`) });
    expect(g.created().namespaces).toEqual([]);
    await g.send({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { generateName: 'svc-conformance-r1-', labels: label } },
    });
    expect(g.created().namespaces).toEqual(['svc-conformance-r1-xyz12']);
  });

  it('refuses cluster-wide deletes, foreign objects and path tricks', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) });
    const n = inner.sent.length;
    expect(await refused(g.send({ method: 'DELETE', path: '/api/v1/namespaces' }))).toContain('whole cluster-scoped collection');
    expect(await refused(g.send({ method: 'DELETE', path: '/api/v1/namespaces/default' }))).toContain(
      'namespaces/default was not created by this run',
    );
    expect(await refused(g.send({ method: 'PATCH', path: '/api/v1/nodes/n1', body: {} }))).toContain('nodes/n1 was not created');
    expect(await refused(g.send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}/../default/configmaps/c` }))).toContain('dot');
    expect(await refused(g.send({ method: 'DELETE', path: `/api/v1/namespaces/${NS}%2F..%2Fdefault/configmaps/c` }))).toContain('dot');
    expect(await refused(g.send({ method: 'POST', path: '/healthz', body: {} }))).toContain('not a resource path');
    expect(inner.sent).toHaveLength(n);
  });

  it('a labelled cluster-scoped fixture (CRD) it created may be changed and deleted; others not', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    const crds = '/apis/apiextensions.svc.io/v1/customresourcedefinitions';
    await g.send({ method: 'POST', path: crds, body: { metadata: { name: 'widgets.example.com', labels: label } } });
    expect(g.created().clusterObjects).toEqual([`${crds}/widgets.example.com`]);
    await g.send({ method: 'PATCH', path: `${crds}/widgets.example.com`, body: {} });
    await g.send({ method: 'PUT', path: `${crds}/widgets.example.com/status`, body: { metadata: { labels: label } } });
    expect(await refused(g.send({ method: 'DELETE', path: `${crds}/gadgets.example.com` }))).toContain('was not created');
    expect(await refused(g.send({ method: 'POST', path: crds, body: { metadata: { name: 'x.example.com' } } }))).toContain('label');
    // Review APIs store nothing, so they need no label.
    await g.send({ method: 'POST', path: '/apis/authorization.svc.io/v1/selfsubjectaccessreviews', body: { spec: {} } });
    await g.send({ method: 'DELETE', path: `${crds}/widgets.example.com` });
    expect(inner.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${crds}`,
      `PATCH ${crds}/widgets.example.com`,
      `PUT ${crds}/widgets.example.com/status`,
      'POST /apis/authorization.svc.io/v1/selfsubjectaccessreviews',
      `DELETE ${crds}/widgets.example.com`,
    ]);
  });
});

describe('registerCleanup', () => {
  const handles: CleanupHandle[] = [];
  afterEach(() => {
    for (const h of handles.splice(0)) h.dispose();
  });

  it('deletes every namespace and cluster object the run created (404 is fine), plus labelled strays found by selector', async () => {
    const inner = fakeTarget((req) => {
      if (req.method === 'GET') {
        const items = [nsBody('svc-conformance-r1-stray'), nsBody('svc-conformance-r1-unlabelled', {}), nsBody('other-ns')];
        return { status: 200, headers: {}, bodyText: '', json: { items } };
      }
      if (req.method === 'DELETE' && req.path.endsWith('-gone')) return { status: 404, headers: {}, bodyText: '', json: {} };
      return undefined;
    });
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) });
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(`${NS}-gone`) });
    await g.send({
      method: 'POST',
      path: '/apis/apiextensions.svc.io/v1/customresourcedefinitions',
      body: { metadata: { name: 'w.example.com', labels: label } },
    });
    const h = registerCleanup(g, run, { signals: false });
    handles.push(h);
    await h.cleanup();
    await h.cleanup();
    const deletes = inner.sent.filter((r) => r.method === 'DELETE').map((r) => r.path);
    expect(deletes.sort()).toEqual(
      [
        '/apis/apiextensions.svc.io/v1/customresourcedefinitions/w.example.com',
        `/api/v1/namespaces/${NS}`,
        `/api/v1/namespaces/${NS}-gone`,
        '/api/v1/namespaces/svc-conformance-r1-stray',
      ].sort(),
    );
    expect(inner.sent.find((r) => r.method === 'GET')?.query).toEqual([['labelSelector', 'svc-conformance/run=r1']]);
  });

  it('reports what it could not delete in one line', async () => {
    const inner = fakeTarget((req) => (req.method === 'DELETE' ? { status: 403, headers: {}, bodyText: '', json: {} } : undefined));
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) });
    const h = registerCleanup(g, run, { signals: false });
    handles.push(h);
    await expect(h.cleanup()).rejects.toThrow(`cleanup of run r1 left 1 object(s): /api/v1/namespaces/${NS} (403)`);
  });

  it('SIGINT runs cleanup once, then exits with 130', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, run);
    await g.send({ method: 'POST', path: '/api/v1/namespaces', body: nsBody(NS) });
    const lines: string[] = [];
    let exited: (code: number) => void = () => {};
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    const before = process.listenerCount('SIGINT');
    const h = registerCleanup(g, run, { exit: (c) => exited(c), log: (l) => lines.push(l) });
    handles.push(h);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    process.emit('SIGINT');
    expect(await exitCode).toBe(130);
    expect(inner.sent.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/api/v1/namespaces/${NS}`]);
    expect(lines[0]).toContain('SIGINT');
    h.dispose();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

// The reference server has the system namespaces from its start: nothing of the run's,
// its cleanup included, may write to them or delete them, in either profile.
describe.each(['svc', 'k8s'] as const)('system namespaces of profile %s', (name) => {
  it('are refused for delete, finalize, and writes inside, even with the run label', async () => {
    const inner = fakeTarget();
    const g = createGuardedTarget(inner, runIdentity('r1', profiles[name].runLabel));
    for (const ns of systemNamespaces(profiles[name])) {
      await refused(g.send({ method: 'DELETE', path: `/api/v1/namespaces/${ns}` }));
      await refused(g.send({ method: 'PUT', path: `/api/v1/namespaces/${ns}/finalize`, body: nsBody(ns) }));
      await refused(g.send({ method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: cmBody() }));
    }
    expect(inner.sent).toEqual([]);
  });
});
