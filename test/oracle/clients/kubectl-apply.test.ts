// kubectl's server-side apply against the reference server (k8s profile): the PATCH kubectl sends
// must be understood, and the conflict answer must be one kubectl explains (rest:4.7, rest:3.2).
// Skips cleanly where kubectl is not installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
let server: ReferenceServer;
const kubectl = (...args: string[]) =>
  new Promise<{ status: number; out: string }>((resolve) => {
    execFile(
      'kubectl',
      [`--server=${server.url}`, ...args],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, KUBECONFIG: '/dev/null' } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });

describe.skipIf(!hasKubectl)('kubectl apply --server-side against the reference server', () => {
  beforeAll(async () => {
    server = await referenceServer({ profile: 'k8s' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('applies, reports a conflict, forces it, and shows the ownership it recorded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kubectl-ssa-'));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const ns = file('ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ssa\n');
    const cm = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c1\n  namespace: ssa\ndata:\n${data}`;
    expect((await kubectl('apply', '--server-side', '--validate=false', '-f', ns)).status).toBe(0);
    expect((await kubectl('apply', '--server-side', '--validate=false', '-f', file('a.yaml', cm('  a: "1"\n  b: "2"\n')))).out).toContain(
      'serverside-applied',
    );
    const conflict = await kubectl(
      'apply',
      '--server-side',
      '--validate=false',
      '--field-manager=other',
      '-f',
      file('b.yaml', cm('  a: "9"\n')),
    );
    expect(conflict.status).not.toBe(0);
    expect(conflict.out).toContain('conflict');
    expect(
      (
        await kubectl(
          'apply',
          '--server-side',
          '--validate=false',
          '--field-manager=other',
          '--force-conflicts',
          '-f',
          path.join(dir, 'b.yaml'),
        )
      ).status,
    ).toBe(0);
    const got = JSON.parse((await kubectl('get', 'configmap', 'c1', '-n', 'ssa', '-o', 'json', '--show-managed-fields')).out) as {
      data: object;
      metadata: { managedFields: { manager: string; operation: string; fieldsV1: object }[] };
    };
    expect(got.data).toEqual({ a: '9', b: '2' });
    const owners = Object.fromEntries(got.metadata.managedFields.map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));
    expect(owners).toEqual({ 'kubectl/Apply': { 'f:data': { 'f:b': {} } }, 'other/Apply': { 'f:data': { 'f:a': {} } } });
  }, 60_000);
});
