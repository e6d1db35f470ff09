// @kubernetes/client-node 1.4 (a real client library) against the in-process reference server, k8s
// profile: an informer (list + watch, resume after a dropped watch, relist after 410 Gone) and
// server-side apply. Each test compares what the client ends up with to the server state read over
// plain HTTP. Skips cleanly where the library cannot be imported.
import { afterEach, describe, expect, it } from 'vitest';
import { variations, type ReferenceServer, type ReferenceServerOptions } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { startProxy, type Proxy } from './tcp-proxy.ts';
import { configMapsPath, createConfigMap, createNamespace, httpFetch, httpJson, managedFieldsOf, ownsDataKey } from './server-state.ts';

import type { KubernetesObject } from '@kubernetes/client-node';

type ClientNode = typeof import('@kubernetes/client-node');
// Lazily, as ECOSYSTEM.md asks (heavy; 2.x would not even import on Node 20).
const k8s: ClientNode | undefined = await import('@kubernetes/client-node').catch(() => undefined);

/** How long a step that works on a correct server may take (generous: machines are shared). */
const SETTLE_MS = 10_000;

interface Rig {
  server: ReferenceServer;
  proxy: Proxy;
  stops: (() => Promise<void>)[];
  /** How long to wait at the step a planted fault breaks (short when the server is known broken). */
  patienceMs: number;
}
let rig: Rig | undefined;

type Setup = Partial<ReferenceServerOptions> & { patienceMs?: number };

async function startRig(setup: Setup): Promise<Rig> {
  const { patienceMs = SETTLE_MS, ...opts } = setup;
  const server = await referenceServer({ profile: 'k8s', ...opts });
  const proxy = await startProxy(server.url);
  rig = { server, proxy, stops: [], patienceMs };
  return rig;
}

afterEach(async () => {
  if (!rig) return;
  for (const stop of rig.stops.splice(0)) await stop();
  await rig.proxy.close();
  await rig.server.close();
  rig = undefined;
});

/** A kubeconfig for a plain-HTTP loopback server (client-node wants skipTLSVerify to allow http://). */
function kubeConfig(lib: ClientNode, server: string) {
  const kc = new lib.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'reference', server, skipTLSVerify: true }],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'reference', cluster: 'reference', user: 'anonymous' }],
    currentContext: 'reference',
  });
  return kc;
}

type Cm = { metadata?: { name?: string; resourceVersion?: string } };
const snapshot = (items: readonly Cm[]) => Object.fromEntries(items.map((o) => [o.metadata?.name, o.metadata?.resourceVersion]).sort());

/** The informer's cache and callbacks, restarted the documented way (after an error) unless stopped. */
async function startInformer(lib: ClientNode, r: Rig, ns: string, labelSelector?: string) {
  const kc = kubeConfig(lib, r.proxy.url);
  const api = kc.makeApiClient(lib.CoreV1Api);
  let lists = 0;
  const events: string[] = [];
  const errors: unknown[] = [];
  let stopped = false;
  // Counts lists that succeeded (a throttled one, under retry-after-429, is retried, not a relist).
  const informer = lib.makeInformer<Cm & KubernetesObject>(
    kc,
    configMapsPath(ns),
    () =>
      api.listNamespacedConfigMap({ namespace: ns, labelSelector }).then((l) => {
        lists++;
        return l;
      }),
    labelSelector,
  );
  informer.on('add', (o) => events.push(`add ${o.metadata?.name}`));
  informer.on('update', (o) => events.push(`update ${o.metadata?.name}`));
  informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
  informer.on('error', (e) => {
    if (stopped) return;
    errors.push(e);
    // client-node's informer stops on a transport error; its README restarts it from the error callback.
    setTimeout(() => {
      if (!stopped) void informer.start();
    }, 20);
  });
  r.stops.push(async () => {
    stopped = true;
    await informer.stop();
  });
  await informer.start();
  return { informer, events, errors, lists: () => lists };
}

/** Waits until the informer's cache equals the server's list (names and resourceVersions). */
async function converged(
  r: Rig,
  ns: string,
  list: () => readonly Cm[],
  labelSelector?: string,
  timeoutMs = SETTLE_MS,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  const query = labelSelector === undefined ? '' : `?labelSelector=${encodeURIComponent(labelSelector)}`;
  for (;;) {
    const server = snapshot(((await httpJson(r.server.url, configMapsPath(ns) + query)).body['items'] ?? []) as Cm[]);
    const cache = snapshot(list());
    if (JSON.stringify(cache) === JSON.stringify(server)) return server;
    if (Date.now() > deadline) {
      expect(cache, 'the informer cache never converged to the server state').toEqual(server);
    }
    await new Promise((res) => setTimeout(res, 25));
  }
}

const waitFor = async (cond: () => boolean, what: string, timeoutMs = SETTLE_MS) => {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 25));
  }
};

const mergePatch = (r: Rig, ns: string, name: string, data: Record<string, string>) =>
  httpJson(r.server.url, configMapsPath(ns, name), { method: 'PATCH', body: { data }, contentType: 'application/merge-patch+json' });
const remove = (r: Rig, ns: string, name: string) => httpJson(r.server.url, configMapsPath(ns, name), { method: 'DELETE' });

/** An informer lists, then watches: later writes arrive as add, update and delete. */
async function informerWatches(setup: Setup): Promise<void> {
  const lib = k8s!;
  const r = await startRig(setup);
  await createNamespace(r.server.url, 'inf');
  await createConfigMap(r.server.url, 'inf', 'a', { v: '1' });
  await createConfigMap(r.server.url, 'inf', 'b', { v: '1' });
  const inf = await startInformer(lib, r, 'inf');
  await converged(r, 'inf', () => inf.informer.list('inf'));
  expect([...inf.events].sort()).toEqual(['add a', 'add b']);
  await createConfigMap(r.server.url, 'inf', 'c', { v: '1' });
  expect((await mergePatch(r, 'inf', 'a', { v: '2' })).status).toBe(200);
  expect((await remove(r, 'inf', 'b')).status).toBe(200);
  await waitFor(() => inf.events.length === 5, 'three watch events', r.patienceMs);
  expect(inf.events.slice(2)).toEqual(['add c', 'update a', 'delete b']);
  await converged(r, 'inf', () => inf.informer.list('inf'));
  expect(inf.informer.get('a', 'inf')?.metadata?.resourceVersion).toBe(
    ((await httpJson(r.server.url, configMapsPath('inf', 'a'))).body['metadata'] as Record<string, unknown>)['resourceVersion'],
  );
  expect(inf.lists()).toBe(1);
  expect(inf.errors).toEqual([]);
}

/** An informer whose watch is cut resumes from its resourceVersion and loses nothing. */
async function informerResumes(setup: Setup): Promise<void> {
  const lib = k8s!;
  const r = await startRig(setup);
  await createNamespace(r.server.url, 'resume');
  for (const n of ['a', 'b', 'c']) await createConfigMap(r.server.url, 'resume', n, { v: '1' });
  const inf = await startInformer(lib, r, 'resume');
  await converged(r, 'resume', () => inf.informer.list('resume'));
  // Let the watch connect before it is cut (a write it reports proves it is streaming).
  await createConfigMap(r.server.url, 'resume', 'd', { v: '1' });
  await waitFor(() => inf.events.includes('add d'), 'the watch to report d');
  const connections = r.proxy.accepted();
  r.proxy.hold();
  r.proxy.dropAll();
  // Written while the client is cut off: the resumed watch must replay all of it.
  await createConfigMap(r.server.url, 'resume', 'e', { v: '1' });
  expect((await mergePatch(r, 'resume', 'a', { v: '2' })).status).toBe(200);
  expect((await remove(r, 'resume', 'b')).status).toBe(200);
  expect((await mergePatch(r, 'resume', 'c', { v: '2' })).status).toBe(200);
  r.proxy.release();
  const final = await converged(r, 'resume', () => inf.informer.list('resume'));
  expect(Object.keys(final)).toEqual(['a', 'c', 'd', 'e']);
  expect(r.proxy.accepted()).toBeGreaterThan(connections);
  // Resumed, not relisted: the one list at start is the only one.
  expect(inf.lists()).toBe(1);
  expect(inf.events.slice(inf.events.indexOf('add d') + 1)).toEqual(['add e', 'update a', 'delete b', 'update c']);
}

/** An informer whose resourceVersion fell out of the history window gets 410, relists and converges. */
async function informerRelistsOn410(setup: Setup): Promise<void> {
  const lib = k8s!;
  let now = Date.now();
  const r = await startRig({ ...setup, historyWindowMs: 1_000, clock: () => now });
  await createNamespace(r.server.url, 'gone');
  for (const n of ['a', 'b', 'c']) await createConfigMap(r.server.url, 'gone', n, { v: '1' });
  const inf = await startInformer(lib, r, 'gone');
  await converged(r, 'gone', () => inf.informer.list('gone'));
  const d = await createConfigMap(r.server.url, 'gone', 'd', { v: '1' });
  await waitFor(() => inf.events.includes('add d'), 'the watch to report d');
  // The informer's resourceVersion is now d's, the last event it saw.
  const watchedUpTo = String((d.body['metadata'] as Record<string, unknown>)['resourceVersion']);
  r.proxy.hold();
  r.proxy.dropAll();
  await createConfigMap(r.server.url, 'gone', 'e', { v: '1' });
  expect((await mergePatch(r, 'gone', 'a', { v: '2' })).status).toBe(200);
  expect((await remove(r, 'gone', 'b')).status).toBe(200);
  // Time passes beyond the window; the next request compacts the history the informer needs.
  now += 10_000;
  await createConfigMap(r.server.url, 'gone', 'f', { v: '1' });
  r.proxy.release();
  const final = await converged(r, 'gone', () => inf.informer.list('gone'), undefined, r.patienceMs);
  expect(Object.keys(final)).toEqual(['a', 'c', 'd', 'e', 'f']);
  expect(inf.lists()).toBe(2);
  // What the informer met: a watch from its resourceVersion is refused with 410 (checked directly).
  const direct = await httpFetch(`${r.server.url}${configMapsPath('gone')}?watch=true&resourceVersion=${encodeURIComponent(watchedUpTo)}`);
  expect(JSON.parse(await direct.text())).toMatchObject({ type: 'ERROR', object: { code: 410 } });
  const afterCut = inf.events.slice(inf.events.indexOf('add d') + 1);
  expect(afterCut).toContain('delete b');
  expect(afterCut).toEqual(expect.arrayContaining(['add e', 'add f', 'update a']));
  // A write after the relist still arrives through the new watch.
  await createConfigMap(r.server.url, 'gone', 'g', { v: '1' });
  await waitFor(() => inf.events.includes('add g'), 'the watch after the relist to report g');
  await converged(r, 'gone', () => inf.informer.list('gone'));
  expect(inf.lists()).toBe(2);
}

/** Server-side apply through patchNamespacedConfigMap: managedFields, conflict (409) and force. */
async function applies(setup: Setup): Promise<void> {
  const lib = k8s!;
  const r = await startRig(setup);
  await createNamespace(r.server.url, 'apply');
  const api = kubeConfig(lib, r.server.url).makeApiClient(lib.CoreV1Api);
  const asApply = lib.setHeaderOptions('Content-Type', lib.PatchStrategy.ServerSideApply);
  const intent = (data: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', namespace: 'apply' },
    data,
  });
  const created = await api.patchNamespacedConfigMap(
    { namespace: 'apply', name: 'x', fieldManager: 'alpha', body: intent({ k: '1', only: 'alpha' }) },
    asApply,
  );
  expect(created.data).toEqual({ k: '1', only: 'alpha' });
  let stored = (await httpJson(r.server.url, configMapsPath('apply', 'x'))).body;
  expect(stored['data']).toEqual({ k: '1', only: 'alpha' });
  const alpha = managedFieldsOf(stored).find((e) => e.manager === 'alpha');
  expect(alpha?.operation).toBe('Apply');
  expect(ownsDataKey(alpha, 'k')).toBe(true);
  // client-node decoded managedFields into its own types: same managers as the server stores.
  expect(created.metadata?.managedFields?.map((e) => e.manager)).toEqual(['alpha']);

  const conflict = await api
    .patchNamespacedConfigMap({ namespace: 'apply', name: 'x', fieldManager: 'beta', body: intent({ k: '2' }) }, asApply)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(conflict).toBeInstanceOf(lib.ApiException);
  expect((conflict as InstanceType<ClientNode['ApiException']>).code).toBe(409);
  expect((await httpJson(r.server.url, configMapsPath('apply', 'x'))).body['data']).toEqual({ k: '1', only: 'alpha' });

  const forced = await api.patchNamespacedConfigMap(
    { namespace: 'apply', name: 'x', fieldManager: 'beta', force: true, body: intent({ k: '2' }) },
    asApply,
  );
  expect(forced.data).toEqual({ k: '2', only: 'alpha' });
  stored = (await httpJson(r.server.url, configMapsPath('apply', 'x'))).body;
  const mf = managedFieldsOf(stored);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'beta'),
      'k',
    ),
  ).toBe(true);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'alpha'),
      'k',
    ),
  ).toBe(false);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'alpha'),
      'only',
    ),
  ).toBe(true);
}

/** An informer with a label selector: objects entering the selection are added, leaving it deleted. */
async function informerSelects(setup: Setup): Promise<void> {
  const lib = k8s!;
  const r = await startRig(setup);
  await createNamespace(r.server.url, 'sel');
  const label = (name: string, app: string | null) =>
    httpJson(r.server.url, configMapsPath('sel', name), {
      method: 'PATCH',
      body: { metadata: { labels: { app } } },
      contentType: 'application/merge-patch+json',
    });
  for (const n of ['in1', 'in2', 'out']) await createConfigMap(r.server.url, 'sel', n, { v: '1' });
  expect((await label('in1', 'x')).status).toBe(200);
  expect((await label('in2', 'x')).status).toBe(200);
  const inf = await startInformer(lib, r, 'sel', 'app=x');
  await converged(r, 'sel', () => inf.informer.list('sel'), 'app=x');
  expect([...inf.events].sort()).toEqual(['add in1', 'add in2']);
  expect((await label('in2', null)).status).toBe(200);
  expect((await label('out', 'x')).status).toBe(200);
  expect((await mergePatch(r, 'sel', 'in1', { v: '2' })).status).toBe(200);
  await waitFor(() => inf.events.length === 5, 'three watch events');
  expect(inf.events.slice(2)).toEqual(['delete in2', 'add out', 'update in1']);
  const final = await converged(r, 'sel', () => inf.informer.list('sel'), 'app=x');
  expect(Object.keys(final)).toEqual(['in1', 'out']);
}

/** KubernetesObjectApi: apply of a Lease (its path found through discovery), dry-run, paged list. */
async function objectApiApplies(setup: Setup): Promise<void> {
  const lib = k8s!;
  const r = await startRig(setup);
  await createNamespace(r.server.url, 'objapi');
  const api = lib.KubernetesObjectApi.makeApiClient(kubeConfig(lib, r.server.url));
  const lease = (name: string, holder: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'objapi' },
    spec: { holderIdentity: holder },
  });
  const leasePath = (name: string) => `/apis/coordination.k8s.io/v1/namespaces/objapi/leases/${name}`;
  const dry = await api.patch(lease('dry', 'me'), undefined, 'All', 'holder', undefined, lib.PatchStrategy.ServerSideApply);
  expect(dry.metadata?.name).toBe('dry');
  expect((await httpJson(r.server.url, leasePath('dry'))).status).toBe(404);
  for (const n of ['l1', 'l2', 'l3'])
    await api.patch(lease(n, 'me'), undefined, undefined, 'holder', undefined, lib.PatchStrategy.ServerSideApply);
  const stored = (await httpJson(r.server.url, leasePath('l2'))).body;
  expect(stored['spec']).toEqual({ holderIdentity: 'me' });
  const entry = managedFieldsOf(stored).find((e) => e.manager === 'holder');
  expect(entry?.operation).toBe('Apply');
  expect(entry?.fieldsV1).toMatchObject({ 'f:spec': { 'f:holderIdentity': {} } });
  // Paging through the library's own list call: every object once.
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = await api.list(
      'coordination.k8s.io/v1',
      'Lease',
      'objapi',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      1,
      token,
    );
    pages++;
    seen.push(...page.items.map((i) => i.metadata?.name ?? '?'));
    token = page.metadata?._continue || undefined;
  } while (token !== undefined && pages < 10);
  // Every object once; the spec fixes no order (the shuffled-order variation).
  expect([...seen].sort()).toEqual(['l1', 'l2', 'l3']);
  expect(pages).toBe(3);
}

describe.skipIf(!k8s)(
  `@kubernetes/client-node 1.4 against the reference server (k8s profile)${k8s ? '' : ' [skipped: @kubernetes/client-node cannot be imported]'}`,
  () => {
    it('an informer lists, then watches: later writes arrive as add, update and delete', () => informerWatches({}));
    it('an informer whose watch is cut resumes from its resourceVersion and loses nothing', () => informerResumes({}));
    it('an informer whose resourceVersion fell out of the history window gets 410, relists and converges', () => informerRelistsOn410({}));
    it('server-side apply through patchNamespacedConfigMap: managedFields, conflict (409) and force', () => applies({}));
    it('KubernetesObjectApi: apply of a Lease through discovery, dry-run, paged list', () => objectApiApplies({}));
    it('an informer with a label selector: entering the selection adds, leaving it deletes', () => informerSelects({}));

    // Legal variations (behaviour the spec allows) must not break a real client either.
    const scenarios = { informerWatches, informerResumes, informerRelistsOn410, informerSelects, applies, objectApiApplies };
    // Pairs left out: the variation legitimately changes what the scenario asserts on, not whether the
    // client works (a deletion that lingers 300 ms as Terminating; a conflict answered 422, not 409).
    const assertsOnWhatVaries: Partial<Record<string, readonly string[]>> = {
      'deletion-lingers': ['informerWatches', 'informerResumes', 'informerRelistsOn410'],
      'conflict-as-422': ['applies'],
    };
    const pairs = variations.flatMap((v) =>
      Object.keys(scenarios)
        .filter((k) => !assertsOnWhatVaries[v.name]?.includes(k))
        .map((k) => [v.name, k] as const),
    );
    it.each(pairs)('legal variation %s: %s', async (variation, scenario) => {
      await scenarios[scenario as keyof typeof scenarios]({ variations: [variation] });
    });

    // The same workflows must go wrong on a server with a planted bug: they can fail, and they
    // fail for the bug (a short patience, as the broken server never gets there).
    it.each([
      ['watch-drop-events', informerWatches, /three watch events/],
      ['watch-too-old-served-from-oldest', informerRelistsOn410, /never converged/],
      ['apply-conflicts-forced', applies, /ApiException/],
      ['apply-force-ignored', applies, /HTTP-Code: 409/],
      ['dry-run-persists', objectApiApplies, /expected 200 to be 404/],
      ['page-overflow', objectApiApplies, /expected 2 to be 3/],
    ] as const)('fails against the planted fault %s', async (fault, scenario, why) => {
      await expect(scenario({ faults: [fault], patienceMs: 1_000 })).rejects.toThrow(why);
    });
  },
);
