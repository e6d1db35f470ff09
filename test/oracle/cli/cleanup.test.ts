// Why: a run killed before its own cleanup left its namespaces and fixtures on the
// cluster, and nothing removed them. `svc-conformance cleanup` removes, by run id or for every run,
// exactly the objects that carry the suite's run label (of any cluster-scoped kind), lists them with
// --dry-run, and never touches an object without the label, even on a target that ignores the selector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiles } from '../../../reference/profile.ts';
import { namedGroup } from '../../../reference/profile.ts';
import { fixtureCrd } from '../../../reference/apply/fixture-type.ts';
import type { Target } from '../../../harness/transport/exchange.ts';
import { referenceBehindProxy, type ProxiedReference, type TargetProxy } from './target-proxy.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const profile = profiles.svc;
const label = profile.runLabel;
let proxy: TargetProxy;
let client: Target;

let served: ProxiedReference;

beforeAll(async () => {
  served = await referenceBehindProxy(profile);
  ({ proxy, client } = served);
});
afterAll(() => served.close());

function cleanup(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'cleanup', '--server', proxy.url, '--wait', '5s', ...args], {
      env: { ...process.env, KUBECONFIG: '' },
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const rbac = `/apis/${namedGroup(profile, 'rbac.authorization')}/v1/clusterroles`;
async function create(path: string, body: Record<string, unknown>): Promise<void> {
  const r = await client.send({ method: 'POST', path, body });
  expect(r.status, r.bodyText).toBe(201);
}
const namespace = (name: string, labels: Record<string, string>) =>
  create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const clusterRole = (name: string, labels: Record<string, string>) =>
  create(rbac, {
    apiVersion: `${namedGroup(profile, 'rbac.authorization')}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels },
    rules: [],
  });
async function exists(path: string): Promise<boolean> {
  const r = await client.send({ method: 'GET', path });
  // A namespace being deleted still exists; the reference server's controller ends it within a moment.
  return r.status === 200 && (r.json as { metadata?: { deletionTimestamp?: string } }).metadata?.deletionTimestamp === undefined;
}

describe('svc-conformance cleanup', () => {
  it('--dry-run lists what carries the label and deletes nothing; then removes exactly that, of every kind; others stay', async () => {
    const run = 'c1ea0001';
    const mine = { [label]: run };
    await namespace(`svc-conformance-${run}-p1`, mine);
    await namespace(`svc-conformance-${run}-p2`, mine);
    const crd = fixtureCrd(profile, mine) as { apiVersion: string; metadata: { name: string } };
    await create(`/apis/${crd.apiVersion}/customresourcedefinitions`, crd);
    // A kind no suite creates today: found by discovery, not by a list of kinds.
    await clusterRole(`svc-conformance-${run}-role`, mine);
    // Not the run's: another run's, unlabelled with the run's name, and labelled but not named as a run names its namespaces.
    await namespace('svc-conformance-c1ea0002-p1', { [label]: 'c1ea0002' });
    await namespace(`svc-conformance-${run}-unlabelled`, {});
    await namespace('team-a', mine);
    await clusterRole('someone-elses-role', {});

    const dry = await cleanup('--run-id', run, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/would delete 4 object\(s\) of run c1ea0001 .*dry run: nothing deleted/);
    for (const name of [`svc-conformance-${run}-p1`, `svc-conformance-${run}-p2`, crd.metadata.name, `svc-conformance-${run}-role`])
      expect(dry.stdout).toContain(name);
    expect(dry.stdout).not.toMatch(/unlabelled|team-a|c1ea0002|someone-elses/);
    expect(await exists(`/api/v1/namespaces/svc-conformance-${run}-p1`)).toBe(true);
    expect(await exists(`/apis/${crd.apiVersion}/customresourcedefinitions/${crd.metadata.name}`)).toBe(true);

    const real = await cleanup('--run-id', run);
    expect(real.code, real.stdout + real.stderr).toBe(0);
    expect(real.stdout).toMatch(/removed 4 object\(s\) of run c1ea0001 .*nothing is left/);
    expect(await exists(`/api/v1/namespaces/svc-conformance-${run}-p1`)).toBe(false);
    expect(await exists(`/apis/${crd.apiVersion}/customresourcedefinitions/${crd.metadata.name}`)).toBe(false);
    expect(await exists(`${rbac}/svc-conformance-${run}-role`)).toBe(false);
    for (const p of [
      '/api/v1/namespaces/svc-conformance-c1ea0002-p1',
      `/api/v1/namespaces/svc-conformance-${run}-unlabelled`,
      '/api/v1/namespaces/team-a',
      `${rbac}/someone-elses-role`,
    ]) {
      expect(await exists(p), p).toBe(true);
    }

    // --all: every run's, still nothing unlabelled.
    const all = await cleanup('--all');
    expect(all.code, all.stdout).toBe(0);
    expect(await exists('/api/v1/namespaces/svc-conformance-c1ea0002-p1')).toBe(false);
    expect(await exists(`/api/v1/namespaces/svc-conformance-${run}-unlabelled`)).toBe(true);
    expect(await exists('/api/v1/namespaces/team-a')).toBe(true);
    const again = await cleanup('--all');
    expect(again.stdout).toMatch(/nothing of every run of the suite/);
  });

  it('a target that ignores the label selector: still only labelled objects are deleted', async () => {
    const run = 'c1ea0003';
    await namespace(`svc-conformance-${run}-p1`, { [label]: run });
    await namespace('svc-conformance-c1ea0004-p1', { [label]: 'c1ea0004' });
    await clusterRole('unlabelled-role-2', {});
    proxy.mode = 'ignore-selector';
    try {
      const r = await cleanup('--run-id', run);
      expect(r.code, r.stdout).toBe(0);
    } finally {
      proxy.mode = 'pass';
    }
    expect(await exists(`/api/v1/namespaces/svc-conformance-${run}-p1`)).toBe(false);
    expect(await exists('/api/v1/namespaces/svc-conformance-c1ea0004-p1')).toBe(true);
    expect(await exists(`${rbac}/unlabelled-role-2`)).toBe(true);
  });

  it('deletes the target refuses: exit 1, naming each object and how to remove it', async () => {
    const run = 'c1ea0005';
    await namespace(`svc-conformance-${run}-p1`, { [label]: run });
    proxy.mode = 'refuse-deletes';
    try {
      const r = await cleanup('--run-id', run, '--wait', '1s');
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain(`the target refused to delete Namespace svc-conformance-${run}-p1: 403`);
      expect(r.stdout).toContain(`Namespace svc-conformance-${run}-p1 (present): kubectl delete namespaces svc-conformance-${run}-p1`);
    } finally {
      proxy.mode = 'pass';
    }
  });

  it('usage errors exit 2 with one line; an unreachable target exits 3', async () => {
    const neither = await cleanup();
    expect(neither.code).toBe(2);
    expect(neither.stderr.trim()).toMatch(/^svc-conformance: cleanup: give either --run-id ID \(one run\) or --all/);
    expect((await cleanup('--run-id', 'x', '--all')).code).toBe(2);
    expect((await cleanup('--run-id', 'Not;AnId')).code).toBe(2);
    const gone = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'cleanup', '--all', '--server', 'http://127.0.0.1:1'], {
        env: { ...process.env, KUBECONFIG: '' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(gone.code).toBe(3);
    expect(gone.stderr.trim().split('\n')).toHaveLength(1);
  });
});
