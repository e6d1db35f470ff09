// The real kube-controller-manager (1.24, envtest's layout) hosted by the reference server:
// it starts, takes its leader Lease in the system namespace, serves /healthz, records its events, and
// its namespace controller empties and finalizes a deleted namespace (discovery, deletecollection of
// every namespaced type through the metadata client, PUT .../finalize). The server's own namespace
// controller is off, and a deletion without the controller manager is shown to stay Terminating, so
// the removal seen here is the real controller's work. Skips where the binary is absent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { freePort, kubeconfigText, probe, processLauncher, type DaemonProcess } from '../../../harness/processes/controller-daemon.ts';
import { createConfigMap, createNamespace, httpJson } from './server-state.ts';

const assets = process.env['KUBEBUILDER_ASSETS'] ?? path.resolve(import.meta.dirname, '../../../../shared/envtest-assets');
const kcm = path.join(assets, 'kube-controller-manager');
const hasKcm = existsSync(kcm);
const k8s = profiles.k8s;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Polls until `ok` or the time is up; the elapsed time is reported, never asserted. */
async function until(what: string, ok: () => Promise<boolean>, timeoutMs: number, output: () => string): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (await ok()) return performance.now() - t0;
    await sleep(100);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms\n${output().slice(-3000)}`);
}

describe.skipIf(!hasKcm)(
  `kube-controller-manager against the reference server (${hasKcm ? kcm : 'no binary: set KUBEBUILDER_ASSETS'})`,
  () => {
    let server: ReferenceServer;
    let daemon: DaemonProcess;
    let port: number;
    const dir = mkdtempSync(path.join(tmpdir(), 'kcm-hosted-'));
    let startedAt = 0;

    beforeAll(async () => {
      server = await referenceServer({ profile: k8s, builtInNamespaceController: false });
      const kubeconfig = path.join(dir, 'kubeconfig');
      writeFileSync(kubeconfig, kubeconfigText(server.url));
      port = await freePort();
      startedAt = performance.now();
      // --leader-elect stays at its default (true): the Lease is what the daemon suite looks for.
      daemon = processLauncher(kcm).launch([
        `--kubeconfig=${kubeconfig}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        '--controllers=namespace',
        '-v=2',
      ]);
    });
    afterAll(async () => {
      await daemon?.stop();
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('takes its leader Lease in the system namespace, serves /healthz, and records its event', async () => {
      const lease = `/apis/coordination.k8s.io/v1/namespaces/${k8s.systemNamespace}/leases/${k8s.controllerManagerName}`;
      await until(
        'Lease taken',
        async () => {
          const r = await httpJson(server.url, lease);
          return r.status === 200 && typeof (r.body['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity === 'string';
        },
        30_000,
        daemon.output,
      );
      console.info(`kube-controller-manager start to Lease: ${Math.round(performance.now() - startedAt)} ms`);
      await until('/healthz 200', async () => (await probe(port, '/healthz')) === 200, 30_000, daemon.output);
      // The LeaderElection event arrives in protobuf; a zero eventTime must not become a 1970 date.
      await until(
        'LeaderElection event',
        async () => {
          const evs = ((await httpJson(server.url, `/api/v1/namespaces/${k8s.systemNamespace}/events`)).body['items'] ?? []) as Record<
            string,
            unknown
          >[];
          return evs.some((e) => e['reason'] === 'LeaderElection' && (e['eventTime'] ?? null) === null);
        },
        15_000,
        daemon.output,
      );
      expect(daemon.output()).not.toMatch(/Server rejected event|unable to decode/);
    });

    it('its namespace controller empties a deleted namespace and removes it', async () => {
      await until('namespace controller started', async () => /Started "namespace"/.test(daemon.output()), 30_000, daemon.output);
      await createNamespace(server.url, 'doomed');
      await createConfigMap(server.url, 'doomed', 'a', { k: 'v' });
      const dep = await httpJson(server.url, '/apis/apps/v1/namespaces/doomed/deployments', {
        method: 'POST',
        body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } },
      });
      expect(dep.status).toBe(201);
      const t0 = performance.now();
      expect((await httpJson(server.url, '/api/v1/namespaces/doomed', { method: 'DELETE' })).status).toBe(200);
      await until(
        'namespace removed',
        async () => (await httpJson(server.url, '/api/v1/namespaces/doomed')).status === 404,
        60_000,
        daemon.output,
      );
      console.info(`namespace deletion by the real namespace controller: ${Math.round(performance.now() - t0)} ms`);
      expect((await httpJson(server.url, '/api/v1/namespaces/doomed/configmaps/a')).status).toBe(404);
      expect((await httpJson(server.url, '/apis/apps/v1/namespaces/doomed/deployments/d')).status).toBe(404);
      expect(daemon.output()).not.toMatch(/deletion of namespace doomed failed/);
    });
  },
);

describe('the same deletion with no namespace controller running', () => {
  it("stays Terminating with its content (so the removal above is the controller manager's work)", async () => {
    const server = await referenceServer({ profile: k8s, builtInNamespaceController: false });
    try {
      await createNamespace(server.url, 'doomed');
      await createConfigMap(server.url, 'doomed', 'a', { k: 'v' });
      await httpJson(server.url, '/api/v1/namespaces/doomed', { method: 'DELETE' });
      await sleep(500);
      expect((await httpJson(server.url, '/api/v1/namespaces/doomed')).body['status']).toMatchObject({ phase: 'Terminating' });
      expect((await httpJson(server.url, '/api/v1/namespaces/doomed/configmaps/a')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
