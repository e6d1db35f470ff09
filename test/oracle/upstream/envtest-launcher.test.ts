// The launcher against the real binaries: the control plane it starts serves /readyz, answers the
// suite's own client with the kubeconfig it wrote, enforces RBAC (the authorization checks need it),
// never prints its token, and leaves no process, port or folder behind. Skips without the binaries.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { getStatus, startControlPlane } from '../../../harness/envtest/index.ts';
import { loadTargetConfig } from '../../../harness/transport/kubeconfig.ts';
import { createTargetClient } from '../../../harness/transport/client.ts';
import { upstreamAssets } from './assets.ts';
import { canBind, processAlive } from '../harness/processes.ts';

const { assets, skipReason } = upstreamAssets(['etcd', 'kube-apiserver', 'kube-controller-manager']);

describe.skipIf(!assets)(`the envtest launcher against the upstream binaries${skipReason}`, () => {
  it('starts etcd, kube-apiserver and kube-controller-manager, serves them with RBAC and an admin token, and stops everything', async () => {
    const lines: string[] = [];
    const cp = await startControlPlane({ assetsDir: assets!.dir, log: (l) => lines.push(l) });
    let stopped = false;
    try {
      expect(cp.components.map((c) => c.name)).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager']);
      const { token, caPem } = cp.credentials();
      expect(await getStatus(`${cp.server}/readyz`, { ca: caPem, token })).toBe(200);

      // The suite's own client, configured from the kubeconfig the launcher wrote, is let in.
      expect(statSync(cp.kubeconfigPath).mode & 0o077).toBe(0);
      const cfg = await loadTargetConfig({ kubeconfig: cp.kubeconfigPath });
      const client = createTargetClient(cfg, { maxRetries: 1 });
      try {
        const list = await client.send({ method: 'GET', path: '/api/v1/namespaces' });
        expect(list.status).toBe(200);
        const names = ((list.json as { items: { metadata: { name: string } }[] }).items ?? []).map((n) => n.metadata.name);
        expect(names).toContain('default');
      } finally {
        await client.close();
      }
      // RBAC, not AlwaysAllow: an anonymous request is authenticated as system:anonymous and refused.
      expect(await getStatus(`${cp.server}/api/v1/namespaces`, { ca: caPem })).toBe(403);
      // A wrong token is refused outright.
      expect(await getStatus(`${cp.server}/api/v1/namespaces`, { ca: caPem, token: 'not-the-token' })).toBe(401);

      expect(lines.some((l) => l.includes('kube-apiserver ready'))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
      expect((parse(readFileSync(cp.kubeconfigPath, 'utf8')) as { users: { user: { token: string } }[] }).users[0]?.user.token).toBe(token);

      const { ms } = await cp.stop();
      stopped = true;
      expect(ms).toBeGreaterThanOrEqual(0);
      // Idempotent: a second stop (e.g. from a signal handler) is the same stop.
      await cp.stop();
      for (const c of cp.components) expect(processAlive(c.pid), `${c.name} (pid ${c.pid}) still running`).toBe(false);
      for (const port of cp.ports) expect(await canBind(port), `port ${port} still taken`).toBe(true);
      expect(existsSync(cp.dir)).toBe(false);
    } finally {
      if (!stopped) await cp.stop();
    }
  }, 240_000);
});
