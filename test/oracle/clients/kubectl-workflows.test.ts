// kubectl (a real client) against the in-process reference server, k8s profile: paging, tables,
// server-side apply with conflicts, server-side dry-run and watch. Each test judges both what kubectl
// printed and the server state read back over plain HTTP. Skips cleanly where kubectl is missing.
//
// `--validate=false` on file-based commands: kubectl's client-side validation downloads OpenAPI, which
// the spec does not ask a server to serve; the flag only turns off that download.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { variations, type ReferenceServer, type VariationName } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { hasKubectl, removeKubectlCache, runKubectl, startKubectl, type Background } from './client-process.ts';
import {
  configMapsPath,
  createConfigMap,
  createNamespace,
  httpFetch,
  httpJson,
  managedFieldsOf,
  namesOf,
  ownsDataKey,
} from './server-state.ts';

let server: ReferenceServer;
let dir: string;
/** The server a scenario runs against: the shared good one, or one with a planted fault. */
interface Target {
  readonly url: string;
  /** How long to wait at the step a planted fault breaks (short when the server is known broken). */
  readonly patienceMs: number;
}
let target: Target;
const kubectl = (...args: string[]) => runKubectl(target.url, args);
const manifest = (name: string, ns: string, data: Record<string, string>) => {
  const file = path.join(dir, `${ns}-${name}-${Object.values(data).join('-')}.yaml`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data }));
  return file;
};
const live = (ns: string, name: string) => httpJson(target.url, configMapsPath(ns, name));
const backgrounds: Background[] = [];

/** `get` of one object prints what the server stores. */
async function getsOne(): Promise<void> {
  await createNamespace(target.url, 'one');
  await createConfigMap(target.url, 'one', 'solo', { k: 'v' });
  const got = await kubectl('-n', 'one', 'get', 'configmap', 'solo', '-o', 'json');
  expect(got.status, got.stderr).toBe(0);
  const printed = JSON.parse(got.stdout) as { metadata: Record<string, unknown>; data: unknown };
  const stored = (await live('one', 'solo')).body as { metadata: Record<string, unknown>; data: unknown };
  expect(printed.metadata['uid']).toBe(stored.metadata['uid']);
  expect(printed.metadata['resourceVersion']).toBe(stored.metadata['resourceVersion']);
  expect(printed.data).toEqual({ k: 'v' });
  const missing = await kubectl('-n', 'one', 'get', 'configmap', 'absent');
  expect(missing.status).not.toBe(0);
  expect(missing.stderr).toContain('NotFound');
}

/** `get` with --chunk-size=1 returns every object once, one page per object. */
async function pagesByOne(): Promise<void> {
  await createNamespace(target.url, 'paged');
  const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
  for (const n of names) await createConfigMap(target.url, 'paged', n, { n });
  const listed = await kubectl('-n', 'paged', 'get', 'configmaps', '--chunk-size=1', '-o', 'name', '-v=6');
  expect(listed.status, listed.stderr).toBe(0);
  const printed = listed.stdout
    .trim()
    .split('\n')
    .map((l) => l.replace(/^configmap\//, ''));
  const stored = namesOf(await httpJson(target.url, configMapsPath('paged')));
  expect(new Set(printed).size).toBe(printed.length);
  expect([...printed].sort()).toEqual([...stored].sort());
  expect(stored.length).toBe(names.length);
  // One request per page: the first without continue, then one per remaining object.
  const pages = listed.stderr.split('\n').filter((l) => /GET \S+\/configmaps\?\S*limit=1\S* 200 OK/.test(l));
  expect(pages.length).toBe(names.length);
  expect(pages.filter((l) => l.includes('continue=')).length).toBe(names.length - 1);
}

/** -o wide asks for a Table (with fallbacks) and prints the columns and rows the server sent. */
async function printsWideTable(): Promise<void> {
  await createNamespace(target.url, 'wide');
  for (const n of ['w1', 'w2', 'w3']) await createConfigMap(target.url, 'wide', n, { n });
  const wide = await kubectl('-n', 'wide', 'get', 'configmaps', '-o', 'wide', '--chunk-size=2', '-v=8');
  expect(wide.status, wide.stderr).toBe(0);
  const accept = wide.stderr.split('\n').find((l) => /Accept: .*as=Table/.test(l));
  expect(accept, 'kubectl asked for a Table').toBeDefined();
  expect(accept).toMatch(/as=Table;v=v1;g=meta\.k8s\.io,.*application\/json$/);
  // The server's own Table for the same request, read over plain HTTP.
  const res = await httpFetch(`${target.url}${configMapsPath('wide')}`, {
    headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
  });
  const lines = wide.stdout.trim().split('\n');
  const rows = lines.slice(1).map((l) => l.trim().split(/\s{2,}/)[0]);
  // Every object once; the spec fixes no order (the shuffled-order variation).
  expect([...rows].sort()).toEqual(['w1', 'w2', 'w3']);
  if (res.status === 406) {
    // A server may serve no Table at all (rest:2.5.2): kubectl took the application/json fallback.
    expect(wide.stderr).toMatch(/kind.{0,3}:.{0,3}ConfigMapList/);
    expect(lines[0]).toMatch(/^NAME\s/);
    return;
  }
  const table = (await res.json()) as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
  expect(table.kind).toBe('Table');
  const header = lines[0]!.trim().split(/\s{2,}/);
  expect(header).toEqual(table.columnDefinitions.map((c) => c.name.toUpperCase()));
  expect(rows).toEqual(table.rows.map((r) => r.cells[0]));
}

/** `apply --server-side`: a second manager conflicts, --force-conflicts takes the field over. */
async function appliesWithConflicts(): Promise<void> {
  await createNamespace(target.url, 'ssa');
  const first = await kubectl('apply', '--server-side', '--validate=false', '-f', manifest('owned', 'ssa', { k: 'one', keep: 'x' }));
  expect(first.status, first.stderr).toBe(0);
  expect(first.stdout).toContain('configmap/owned serverside-applied');
  let stored = (await live('ssa', 'owned')).body;
  expect(stored['data']).toEqual({ k: 'one', keep: 'x' });
  const byKubectl = managedFieldsOf(stored).find((e) => e.manager === 'kubectl');
  expect(byKubectl?.operation).toBe('Apply');
  expect(ownsDataKey(byKubectl, 'k')).toBe(true);
  const rvBefore = (stored['metadata'] as Record<string, unknown>)['resourceVersion'];

  const other = manifest('owned', 'ssa', { k: 'two' });
  const conflict = await kubectl('apply', '--server-side', '--validate=false', '--field-manager=other', '-f', other);
  expect(conflict.status).not.toBe(0);
  expect(conflict.stderr).toMatch(/conflict/i);
  expect(conflict.stderr).toContain('.data.k');
  stored = (await live('ssa', 'owned')).body;
  expect(stored['data']).toEqual({ k: 'one', keep: 'x' });
  expect((stored['metadata'] as Record<string, unknown>)['resourceVersion']).toBe(rvBefore);

  const forced = await kubectl('apply', '--server-side', '--validate=false', '--field-manager=other', '--force-conflicts', '-f', other);
  expect(forced.status, forced.stderr).toBe(0);
  expect(forced.stdout).toContain('configmap/owned serverside-applied');
  stored = (await live('ssa', 'owned')).body;
  expect((stored['data'] as Record<string, string>)['k']).toBe('two');
  const mf = managedFieldsOf(stored);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'other'),
      'k',
    ),
  ).toBe(true);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'kubectl'),
      'k',
    ),
  ).toBe(false);
  expect(
    ownsDataKey(
      mf.find((e) => e.manager === 'kubectl'),
      'keep',
    ),
  ).toBe(true);
  // kubectl reads the new owner back too.
  const shown = await kubectl('-n', 'ssa', 'get', 'configmap', 'owned', '--show-managed-fields', '-o', 'json');
  expect(
    managedFieldsOf(JSON.parse(shown.stdout) as Record<string, unknown>)
      .map((e) => e.manager)
      .sort(),
  ).toEqual(mf.map((e) => e.manager).sort());
}

/** --dry-run=server on create and on apply persists nothing. */
async function dryRunsOnServer(): Promise<void> {
  await createNamespace(target.url, 'dry');
  const created = await kubectl('create', '--dry-run=server', '--validate=false', '-f', manifest('c', 'dry', { k: 'v' }));
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toContain('configmap/c created (server dry run)');
  const applied = await kubectl(
    'apply',
    '--server-side',
    '--dry-run=server',
    '--validate=false',
    '-f',
    manifest('a', 'dry', { k: 'v' }),
    '-o',
    'json',
  );
  expect(applied.status, applied.stderr).toBe(0);
  expect((JSON.parse(applied.stdout) as { data: unknown }).data).toEqual({ k: 'v' });
  expect((await live('dry', 'c')).status).toBe(404);
  expect((await live('dry', 'a')).status).toBe(404);
  expect(namesOf(await httpJson(target.url, configMapsPath('dry')))).toEqual([]);
  // A dry-run change of an existing object leaves it as it was (forced: the creator owns .data.k).
  await createConfigMap(target.url, 'dry', 'kept', { k: 'v' });
  const before = (await live('dry', 'kept')).body;
  const changed = await kubectl(
    'apply',
    '--server-side',
    '--force-conflicts',
    '--dry-run=server',
    '--validate=false',
    '-o',
    'json',
    '-f',
    manifest('kept', 'dry', { k: 'changed' }),
  );
  expect(changed.status, changed.stderr).toBe(0);
  expect((JSON.parse(changed.stdout) as { data: unknown }).data).toEqual({ k: 'changed' });
  expect((await live('dry', 'kept')).body).toEqual(before);
  // kubectl sends a dry-run delete as DeleteOptions {dryRun: [All]} in the body, not in the query.
  const deleted = await kubectl('-n', 'dry', 'delete', 'configmap', 'kept', '--dry-run=server');
  expect(deleted.status, deleted.stderr).toBe(0);
  expect(deleted.stdout).toContain('(server dry run)');
  const labelled = await kubectl('-n', 'dry', 'label', 'configmap', 'kept', 'l=v', '--dry-run=server');
  expect(labelled.status, labelled.stderr).toBe(0);
  expect((await live('dry', 'kept')).body).toEqual(before);
}

/** `get --watch-only` prints the changes written after it started. */
async function watches(): Promise<void> {
  await createNamespace(target.url, 'watched');
  await createConfigMap(target.url, 'watched', 'before', { k: 'v' });
  const watch = startKubectl(
    target.url,
    ['-n', 'watched', 'get', 'configmaps', '--watch-only', '--output-watch-events', '--request-timeout=20s', '-v=6'],
    25_000,
  );
  backgrounds.push(watch);
  await watch.waitFor('stderr', /configmaps\?\S*watch=true\S* 200 OK/);
  await createConfigMap(target.url, 'watched', 'w', { k: '1' });
  await watch.waitFor('stdout', /^ADDED\s+w\s/m);
  const patched = await httpJson(target.url, configMapsPath('watched', 'w'), {
    method: 'PATCH',
    body: { data: { k: '2' } },
    contentType: 'application/merge-patch+json',
  });
  expect(patched.status).toBe(200);
  await watch.waitFor('stdout', /^MODIFIED\s+w\s/m);
  expect((await httpJson(target.url, configMapsPath('watched', 'w'), { method: 'DELETE' })).status).toBe(200);
  await watch.waitFor('stdout', /^DELETED\s+w\s/m, target.patienceMs);
  await watch.stop();
  // Only what happened after the start: the object that existed before is not reported.
  expect(watch.stdout()).not.toMatch(/\sbefore\s/);
  expect(
    watch
      .stdout()
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/).slice(0, 2).join(' ')),
  ).toEqual(['ADDED w', 'MODIFIED w', 'DELETED w']);
  expect((await live('watched', 'w')).status).toBe(404);
}

/** `get NAME --watch-only` reports that object only (kubectl sends fieldSelector=metadata.name=NAME). */
async function watchesOneByName(): Promise<void> {
  await createNamespace(target.url, 'named');
  await createConfigMap(target.url, 'named', 'one', { k: '1' });
  await createConfigMap(target.url, 'named', 'noise', { k: '1' });
  const watch = startKubectl(
    target.url,
    ['-n', 'named', 'get', 'configmap', 'one', '--watch-only', '--output-watch-events', '--request-timeout=20s', '-v=6'],
    25_000,
  );
  backgrounds.push(watch);
  await watch.waitFor('stderr', /configmaps\?\S*fieldSelector=metadata\.name%3Done\S*watch=true\S* 200 OK/);
  expect(
    (
      await httpJson(target.url, configMapsPath('named', 'noise'), {
        method: 'PATCH',
        body: { data: { k: '2' } },
        contentType: 'application/merge-patch+json',
      })
    ).status,
  ).toBe(200);
  await createConfigMap(target.url, 'named', 'more', { k: '1' });
  expect(
    (
      await httpJson(target.url, configMapsPath('named', 'one'), {
        method: 'PATCH',
        body: { data: { k: '2' } },
        contentType: 'application/merge-patch+json',
      })
    ).status,
  ).toBe(200);
  await watch.waitFor('stdout', /^MODIFIED\s+one\s/m, target.patienceMs);
  await watch.stop();
  // Written before the change to `one`, so already sent if the selector were ignored.
  const names = watch
    .stdout()
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/)[1]);
  expect(names.length).toBeGreaterThan(0);
  expect(new Set(names)).toEqual(new Set(['one']));
}

/** `kubectl patch` (strategic merge by default) and client-side kubectl apply (also strategic merge). */
async function patchesAndAppliesClientSide(): Promise<void> {
  await createNamespace(target.url, 'csa');
  await createConfigMap(target.url, 'csa', 'p', { a: '1' });
  const patched = await kubectl('-n', 'csa', 'patch', 'configmap', 'p', '-p', '{"data":{"b":"2","a":null}}', '-v=8');
  expect(patched.status, patched.stderr).toBe(0);
  expect(patched.stderr).toContain('Content-Type: application/strategic-merge-patch+json');
  expect((await live('csa', 'p')).body['data']).toEqual({ b: '2' });

  const created = await kubectl('apply', '--validate=false', '-f', manifest('csa-obj', 'csa', { keep: '1', drop: '1' }));
  expect(created.status, created.stderr).toBe(0);
  expect(created.stdout).toContain('configmap/csa-obj created');
  const changed = await kubectl('apply', '--validate=false', '-f', manifest('csa-obj', 'csa', { keep: '2' }), '-v=6');
  expect(changed.status, changed.stderr).toBe(0);
  expect(changed.stdout).toContain('configmap/csa-obj configured');
  expect(changed.stderr).toMatch(/PATCH \S+\/configmaps\/csa-obj\S* 200 OK/);
  const stored = (await live('csa', 'csa-obj')).body;
  // The key the manifest no longer names is removed (kubectl sends it as null).
  expect(stored['data']).toEqual({ keep: '2' });
  const lastApplied = ((stored['metadata'] as Record<string, Record<string, string>>)['annotations'] ?? {})[
    'kubectl.kubernetes.io/last-applied-configuration'
  ];
  expect(JSON.parse(lastApplied ?? '{}')).toMatchObject({ data: { keep: '2' } });
  const again = await kubectl('apply', '--validate=false', '-f', manifest('csa-obj', 'csa', { keep: '2' }));
  expect(again.stdout).toContain('configmap/csa-obj unchanged');
}

/** A CustomResourceDefinition applied with kubectl makes its kind usable by kubectl at once. */
async function customResources(): Promise<void> {
  await createNamespace(target.url, 'custom');
  const crd = path.join(dir, 'crd.json');
  writeFileSync(
    crd,
    JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
            },
          },
        ],
      },
    }),
  );
  const defined = await kubectl('apply', '--server-side', '--validate=false', '-f', crd);
  expect(defined.status, defined.stderr).toBe(0);
  const widget = path.join(dir, 'widget.json');
  writeFileSync(
    widget,
    JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'custom' }, spec: { size: 3 } }),
  );
  const applied = await kubectl('apply', '--server-side', '--validate=false', '-f', widget);
  expect(applied.status, applied.stderr).toBe(0);
  expect(applied.stdout).toContain('widget.example.com/w1 serverside-applied');
  const widgetPath = '/apis/example.com/v1/namespaces/custom/widgets/w1';
  expect((await httpJson(target.url, widgetPath)).body['spec']).toEqual({ size: 3 });
  const listed = await kubectl('-n', 'custom', 'get', 'widgets', '-o', 'name');
  expect(listed.stdout.trim()).toBe('widget.example.com/w1');
  const patched = await kubectl('-n', 'custom', 'patch', 'widget', 'w1', '--type=merge', '-p', '{"spec":{"size":4}}');
  expect(patched.status, patched.stderr).toBe(0);
  expect((await httpJson(target.url, widgetPath)).body['spec']).toEqual({ size: 4 });
  // Discovery names every verb served, for built-in and custom types alike.
  const watchable = await kubectl('api-resources', '--verbs=watch', '-o', 'name');
  expect(watchable.stdout.split('\n')).toEqual(expect.arrayContaining(['configmaps', 'widgets.example.com']));
}

describe.skipIf(!hasKubectl)(
  `kubectl workflows against the reference server (k8s profile)${hasKubectl ? '' : ' [skipped: no kubectl on PATH]'}`,
  () => {
    beforeAll(async () => {
      server = await referenceServer({ profile: 'k8s' });
      target = { url: server.url, patienceMs: 10_000 };
      dir = mkdtempSync(path.join(tmpdir(), 'kubectl-wf-'));
    });
    afterEach(async () => {
      await Promise.all(backgrounds.splice(0).map((b) => b.stop()));
    });
    afterAll(async () => {
      await server?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      removeKubectlCache();
    });

    it('get of one object prints what the server stores', () => getsOne());
    it('list with --chunk-size=1 returns every object once, one page per object', () => pagesByOne());
    it('-o wide asks for a Table (with fallbacks) and prints the columns and rows the server sent', () => printsWideTable());
    it('apply --server-side: a second manager conflicts, --force-conflicts takes the field over', () => appliesWithConflicts());
    it('--dry-run=server on create and on apply persists nothing', () => dryRunsOnServer());
    it('get --watch-only prints the changes written after it started', () => watches());
    it('get NAME --watch-only prints that object only', () => watchesOneByName());
    it('kubectl patch and client-side kubectl apply (strategic merge patch)', () => patchesAndAppliesClientSide());
    it('a CRD applied with kubectl makes its kind usable at once (discovery of custom types)', () => customResources());

    // Legal variations (behaviour the spec allows) must not break kubectl. Each runs the workflows it
    // can touch (kubectl is slow to start; all of them against every variation costs ~40 s).
    const scenarios = {
      getsOne,
      pagesByOne,
      printsWideTable,
      appliesWithConflicts,
      dryRunsOnServer,
      watches,
      watchesOneByName,
      patchesAndAppliesClientSide,
    };
    type Scenario = keyof typeof scenarios;
    const touched: Record<VariationName, readonly Scenario[]> = {
      'opaque-rv': ['pagesByOne', 'watches', 'appliesWithConflicts'],
      'shuffled-order': ['pagesByOne', 'printsWideTable'],
      'stale-any': ['watches', 'watchesOneByName'],
      'no-remaining-count': ['pagesByOne'],
      'short-pages': ['pagesByOne', 'printsWideTable'],
      'opaque-continue': ['pagesByOne', 'printsWideTable'],
      'pretty-json': ['getsOne', 'watches', 'appliesWithConflicts'],
      'extra-fields': ['getsOne', 'printsWideTable', 'appliesWithConflicts'],
      'invalid-as-400': ['getsOne'],
      'items-with-kind': ['pagesByOne', 'printsWideTable'],
      'status-200-on-create': ['dryRunsOnServer', 'patchesAndAppliesClientSide'],
      latency: ['watches'],
      'retry-after-429': ['pagesByOne', 'appliesWithConflicts', 'watches', 'patchesAndAppliesClientSide'],
      'delete-returns-object': ['watches'],
      'no-bookmarks': ['watches'],
      'bookmark-after-state': ['watches'],
      'watch-split-chunks': ['watches', 'watchesOneByName'],
      'no-table-support': ['printsWideTable', 'watches'],
      'no-protobuf-writes': ['dryRunsOnServer', 'patchesAndAppliesClientSide'],
      'protobuf-on-wildcard': ['getsOne', 'pagesByOne'],
      'dry-run-flag-persists': ['dryRunsOnServer'],
      // These two change what kubectl prints, legitimately (a Terminating MODIFIED before DELETED; an
      // "is invalid" message for the 422 conflict), not whether it works: no scenario here asserts on them.
      'deletion-lingers': [],
      'conflict-as-422': [],
      'associative-lists-reversed': ['appliesWithConflicts'],
      // kubectl never sends a stale resourceVersion precondition in these workflows.
      'preconditions-race': [],
      'table-plain-content-type': ['printsWideTable'],
      // kubectl reads without a resourceVersion (Most Recent): the 504 of a lagging cache never reaches it.
      'watch-cache-lag-504': [],
      // kubectl never sends application/* alone.
      'subtype-wildcard-406': ['getsOne'],
      'generate-name-prefix-validated': ['getsOne'],
      'namespace-deletion-slow': ['getsOne'],
      'omit-empty-collections': ['getsOne', 'appliesWithConflicts', 'patchesAndAppliesClientSide'],
      // kubectl creates no CustomResourceDefinition in a product group here.
      'crd-protected-groups': [],
      // The workflows change no definition's schema.
      'crd-schema-change-lags': [],
      // kubectl get --watch ends with the stream: that is the variation's whole effect.
      'watch-short-timeout': [],
      'finalizer-removal-lags': [],
      // kubectl sends each query parameter once.
      'repeated-parameter-refused': [],
    };
    it.each(variations.flatMap((v) => touched[v.name].map((k) => [v.name, k] as const)))(
      'legal variation %s: %s',
      async (variation, scenario) => {
        const varied = await referenceServer({ profile: 'k8s', variations: [variation] });
        target = { url: varied.url, patienceMs: 10_000 };
        try {
          await scenarios[scenario]();
        } finally {
          target = { url: server.url, patienceMs: 10_000 };
          await Promise.all(backgrounds.splice(0).map((b) => b.stop()));
          await varied.close();
        }
      },
    );

    // The same workflows must go wrong on a server with a planted bug, and for that bug (pages: one
    // request per object is what the check counts; an overflowing page or an empty last page changes it).
    it.each([
      ['page-overflow', pagesByOne, /expected 3 to be 6/],
      ['continue-on-last-page', pagesByOne, /expected 7 to be 6/],
      ['apply-conflicts-forced', appliesWithConflicts, /not to be \+0/],
      ['apply-force-ignored', appliesWithConflicts, /conflict/],
      ['dry-run-persists', dryRunsOnServer, /expected 200 to be 404/],
      ['watch-drop-events', watches, /timed out waiting for \/\^DELETED/],
    ] as const)('fails against the planted fault %s', async (fault, scenario, why) => {
      const faulty = await referenceServer({ profile: 'k8s', faults: [fault] });
      target = { url: faulty.url, patienceMs: 1_500 };
      try {
        await expect(scenario()).rejects.toThrow(why);
      } finally {
        target = { url: server.url, patienceMs: 10_000 };
        await Promise.all(backgrounds.splice(0).map((b) => b.stop()));
        await faulty.close();
      }
    });
  },
);
