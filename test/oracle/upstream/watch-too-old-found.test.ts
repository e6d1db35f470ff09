// The 410 reach without hooks against upstream: a kube-apiserver whose etcd compaction runs every 2 s
// (--etcd-compaction-interval, the launcher's apiServerFlags) is soon older than its history, so a run of
// `watch-too-old-found` alone (no compaction hook, no --slow) finds a namespace the control plane made
// at its start and judges rest:6.1.3, rest:7/410 and rest:4.5/meaning/exact, which upstream passes.
// Skips with one line without the binaries.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../../../harness/envtest/index.ts';
import { upstreamAssets } from './assets.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
// The controller manager deletes the run's namespaces: without it they stay Terminating and the run exits 3.
const { assets, skipReason } = upstreamAssets(['etcd', 'kube-apiserver', 'kube-controller-manager']);

describe.skipIf(!assets)(`watch-too-old-found against an upstream server older than its history${skipReason}`, () => {
  it('judges rest:6.1.3, rest:7/410 and rest:4.5/meaning/exact, and passes them, without hooks', async () => {
    // Compaction every 2 s keeps 2 to 4 s of history; the window the run is told is longer than that.
    const cp = await startControlPlane({ assetsDir: assets!.dir, apiServerFlags: ['--etcd-compaction-interval=2s'] });
    try {
      const reports = mkdtempSync(path.join(tmpdir(), 'svc-too-old-found-'));
      const r = spawnSync(
        process.execPath,
        [
          bin,
          'run',
          '--kubeconfig',
          cp.kubeconfigPath,
          '--profile',
          'k8s',
          '--check',
          'watch-too-old-found',
          '--history-window',
          '6s',
          '--seed',
          '7',
          '--reports',
          reports,
        ],
        { encoding: 'utf8', timeout: 120_000 },
      );
      expect(r.status, r.stderr.slice(-2000)).toBe(0);
      const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as { clauses: { id: string; status: string }[] };
      const status = (id: string) => summary.clauses.find((c) => c.id === id)?.status;
      expect({ watch: status('rest:6.1.3'), gone: status('rest:7/410'), exact: status('rest:4.5/meaning/exact') }).toEqual({
        watch: 'passed',
        gone: 'passed',
        exact: 'passed',
      });
      // A 410 was seen: the history was really left behind (the watch may be served from the watch cache).
      expect(r.stdout + r.stderr).toMatch(/410 [1-9]/);
    } finally {
      await cp.stop();
    }
  }, 180_000);
});
