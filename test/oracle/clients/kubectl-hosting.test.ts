// kubectl as a new user runs it against the reference server, in both profiles, through a
// kubeconfig and nothing else: get ns shows the system namespaces; typed creates send protobuf; server
// dry-run; create deployment; apply validates (no --validate=false) through the server's
// fieldValidation found in the OpenAPI v3 documents; explain; auth can-i. Skips where kubectl is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles, systemNamespaces, type ProfileName } from '../../../reference/profile.ts';
import { kubeconfigText } from '../../../harness/processes/controller-daemon.ts';
import { hasKubectl, type Ran } from './client-process.ts';
import { httpJson } from './server-state.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kubectl-hosting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** kubectl with KUBECONFIG=file only, as a user of `serve --kubeconfig-out` runs it. */
const kubectlWith = (kubeconfig: string, args: readonly string[]) =>
  new Promise<Ran>((resolve) => {
    execFile(
      'kubectl',
      [`--cache-dir=${path.join(dir, 'cache')}`, ...args],
      { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL', env: { ...process.env, KUBECONFIG: kubeconfig } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });

describe.skipIf(!hasKubectl).each(['k8s', 'svc'] as const)('kubectl against the reference server, profile %s', (profile: ProfileName) => {
  const p = profiles[profile];
  let server: ReferenceServer;
  let kubeconfig: string;
  const kubectl = (...args: string[]) => kubectlWith(kubeconfig, args);
  beforeAll(async () => {
    server = await referenceServer({ profile: p });
    kubeconfig = path.join(dir, `kubeconfig-${profile}`);
    writeFileSync(kubeconfig, kubeconfigText(server.url));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('get ns lists the system namespaces', async () => {
    const r = await kubectl('get', 'ns', '-o', 'name');
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').sort()).toEqual(
      systemNamespaces(p)
        .map((n) => `namespace/${n}`)
        .sort(),
    );
  });

  it('create ns and cm (protobuf bodies), cm --dry-run=server (not stored), deployment', async () => {
    expect((await kubectl('create', 'ns', 'made')).stdout).toContain('namespace/made created');
    const cm = await kubectl('-n', 'made', 'create', 'cm', 'c', '--from-literal=k=v', '-v=8');
    // kubectl sends the upstream protobuf type in either profile (the svc server takes it as an alias).
    expect(cm.stderr).toContain(`Content-Type: ${profiles.k8s.protobufMediaType}`);
    expect(cm.stdout).toContain('configmap/c created');
    expect((await httpJson(server.url, '/api/v1/namespaces/made/configmaps/c')).body['data']).toEqual({ k: 'v' });
    // In `default`, which exists from the start.
    expect((await kubectl('create', 'cm', 'dry', '--dry-run=server')).stdout).toContain('(server dry run)');
    expect((await httpJson(server.url, '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
    const dep = await kubectl('-n', 'made', 'create', 'deployment', 'web', '--image=nginx');
    expect(dep.stderr).toBe('');
    expect(dep.stdout).toContain('deployment.apps/web created');
    const stored = await httpJson(server.url, '/apis/apps/v1/namespaces/made/deployments/web');
    expect(stored.body['spec']).toMatchObject({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
    });
  });

  it('apply validates without --validate=false, through the server (fieldValidation=Strict)', async () => {
    const file = path.join(dir, `applied-${profile}.yaml`);
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\ndata: {k: one}\n');
    const first = await kubectl('apply', '-f', file, '-v=6');
    expect(first.stdout).toContain('configmap/applied created');
    expect(first.stderr).toMatch(/POST \S+configmaps\?\S*fieldValidation=Strict/);
    expect(first.stderr).not.toMatch(/error|failed to download openapi/i);
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: default}\ndata: {k: two}\n');
    const second = await kubectl('apply', '-f', file);
    expect(second.stdout).toContain('configmap/applied configured');
    expect((await httpJson(server.url, '/api/v1/namespaces/default/configmaps/applied')).body['data']).toEqual({ k: 'two' });
  });

  it('explain reads the OpenAPI v3 schema, custom types included', async () => {
    const data = await kubectl('explain', 'configmap.data');
    expect(data.stdout).toContain('Configuration data.');
    const crd = path.join(dir, `crd-${profile}.yaml`);
    writeFileSync(
      crd,
      [
        'apiVersion: apiextensions.' + p.groupSuffix + '/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: gadgets.example.com}',
        'spec:',
        '  group: example.com',
        '  scope: Namespaced',
        '  names: {plural: gadgets, singular: gadget, kind: Gadget}',
        '  versions:',
        '  - name: v1',
        '    served: true',
        '    storage: true',
        '    schema:',
        '      openAPIV3Schema:',
        '        type: object',
        '        properties:',
        '          spec: {type: object, description: What the gadget should be., properties: {size: {type: integer}}}',
        '',
      ].join('\n'),
    );
    expect((await kubectl('apply', '-f', crd)).stdout).toContain('created');
    const explained = await kubectl('explain', 'gadget.spec');
    expect(explained.stdout).toContain('What the gadget should be.');
  });

  // kubectl posts its review to authorization.k8s.io whatever the server; the svc server serves
  // authorization.svc.io, so `auth can-i` applies to the k8s profile only.
  // (not a skipped case under svc: the case does not exist there)
  if (profile === 'k8s') {
    it('auth can-i posts a SelfSubjectAccessReview and is allowed', async () => {
      const r = await kubectl('auth', 'can-i', 'create', 'configmaps');
      expect(r.stdout.trim()).toBe('yes');
      expect(r.status).toBe(0);
    });
  }
});

describe.skipIf(!hasKubectl)('serve --kubeconfig-out', () => {
  it('writes a kubeconfig, prints its path, and KUBECONFIG=FILE kubectl get ns works as is', async () => {
    const file = path.join(dir, 'served.kubeconfig');
    const bin = path.resolve(import.meta.dirname, '../../../bin/svc-conformance.mjs');
    const child = spawn(process.execPath, [bin, 'serve', '--profile', 'k8s', '--kubeconfig-out', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`serve printed no kubeconfig path: ${out}`)), 45_000);
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes(`kubeconfig written to ${file}`)) {
            clearTimeout(t);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const r = await kubectlWith(file, ['get', 'ns', '-o', 'name']);
      expect(r.stdout).toContain(`namespace/${profiles.k8s.systemNamespace}`);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('an unwritable path is a one-line usage error (exit 2)', async () => {
    const bin = path.resolve(import.meta.dirname, '../../../bin/svc-conformance.mjs');
    const r = await new Promise<Ran>((resolve) => {
      execFile(
        process.execPath,
        [bin, 'serve', '--kubeconfig-out', path.join(dir, 'no/such/dir/kc')],
        { encoding: 'utf8', timeout: 45_000 },
        (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--kubeconfig-out .*ENOENT/);
  });
});
