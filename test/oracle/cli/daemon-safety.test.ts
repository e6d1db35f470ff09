// Safety (docs/architecture.md "Safety"): a daemon under test is never pointed at the user's cluster. Its
// `--leader-elect` defaults to true, so a start against a real API server would contend for the real
// controller manager's lock. Against an external target the run gives the daemon a private reference
// server; this test plays the external cluster and proves the daemon left nothing on it.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { referenceDaemonCommand } from '../../../runner/daemon.ts';
import { resourceTypes, collectionPath } from '../../../reference/resources.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');

function cli(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('the daemon under test never touches an external target', () => {
  it('the lease check passes against a private server and no Lease is written on the target', async () => {
    const cluster = await referenceServer();
    try {
      const r = await cli(
        [
          'run',
          '--server',
          cluster.url,
          '--check',
          'daemon-leader-lease',
          '--runs',
          '1',
          '--controller-daemon',
          referenceDaemonCommand('svc'),
          '--reports',
          path.join(process.env['TMPDIR'] ?? '/tmp', `svc-conf-safety-${process.pid}`),
        ],
        90_000,
      );
      expect(r.out).toContain('daemon-leader-lease: ok');
      expect(r.code).toBe(0);
      const leases = await fetch(`${cluster.url}${collectionPath(resourceTypes(profiles.svc).leases)}`).then(
        (x) => x.json() as Promise<{ items: unknown[] }>,
      );
      expect(leases.items).toEqual([]);
    } finally {
      await cluster.close();
    }
  }, 120_000);
});
