// A real client against the reference server (k8s profile): what kubectl sends the server must
// understand, and what it answers kubectl must accept. Skips cleanly where kubectl is not installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
let server: ReferenceServer;
const scratch: string[] = [];
// Asynchronous on purpose: the server runs in this process and must keep answering meanwhile.
const kubectl = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'kubectl',
      [`--server=${server.url}`, ...args],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, KUBECONFIG: '/dev/null' } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });

describe.skipIf(!hasKubectl)('kubectl against the reference server', () => {
  beforeAll(async () => {
    server = await referenceServer({ profile: 'k8s' });
  });
  afterAll(async () => {
    await server?.close();
    for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('creates, pages with --chunk-size, reads and deletes', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'kubectl-'));
    scratch.push(d);
    const file = path.join(d, 'objs.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: v1\nkind: Namespace\nmetadata: {name: demo}',
        ...['a', 'b', 'c'].map((n) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${n}, namespace: demo}\ndata: {k: ${n}}`),
        'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l, namespace: demo}\nspec: {holderIdentity: me}',
      ].join('\n---\n'),
    );
    const created = await kubectl('create', '--validate=false', '-f', file);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('configmap/c created');
    const paged = await kubectl('-n', 'demo', 'get', 'configmaps', '--chunk-size=1', '-o', 'name', '-v=6');
    expect(paged.stdout.trim().split('\n')).toEqual(['configmap/a', 'configmap/b', 'configmap/c']);
    expect(paged.stderr.match(/continue=/g)?.length).toBe(2);
    expect((await kubectl('-n', 'demo', 'get', 'cm', 'b', '-o', 'jsonpath={.data.k}')).stdout).toBe('b');
    expect((await kubectl('-n', 'demo', 'get', 'leases', '-o', 'name')).stdout.trim()).toBe('lease.coordination.k8s.io/l');
    expect((await kubectl('-n', 'demo', 'delete', 'cm', 'b')).status).toBe(0);
    expect((await kubectl('get', 'cm', '-A', '-o', 'name')).stdout.trim().split('\n')).toEqual(['configmap/a', 'configmap/c']);
  });

  it('typed creates in protobuf, server-side dry-run, and the default Table of kubectl get', async () => {
    expect((await kubectl('create', 'namespace', 'typed')).stdout).toContain('namespace/typed created');
    const cm = await kubectl('-n', 'typed', 'create', 'configmap', 'p', '--from-literal=k=v', '-v=8');
    expect(cm.stderr).toContain('Content-Type: application/vnd.kubernetes.protobuf');
    expect(cm.stdout).toContain('configmap/p created');
    expect((await kubectl('-n', 'typed', 'get', 'cm', 'p', '-o', 'jsonpath={.data.k}')).stdout).toBe('v');
    expect((await kubectl('-n', 'typed', 'create', 'configmap', 'q', '--dry-run=server')).stdout).toContain('(server dry run)');
    expect((await kubectl('-n', 'typed', 'get', 'cm', 'q')).status).not.toBe(0);
    const table = await kubectl('-n', 'typed', 'get', 'cm');
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+CREATED AT$/);
  });
});
