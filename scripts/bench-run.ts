/**
 * The bench's last part (issue 15): one whole default run per target, its wall time and footprint
 * (namespaces, cluster-scoped objects, requests by verb, bytes, slowest checks) read back from
 * summary.json. Always the embedded target; also the target of `npm run bench -- --kubeconfig FILE
 * [--profile k8s]`. Figures only: nothing here asserts on time or counts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { footprintLines, type RunFootprint } from '../harness/footprint.ts';
import { packageRoot } from './run-vitest.ts';

interface Summary {
  readonly durationMs: number;
  readonly totals: Record<string, number>;
  readonly footprint?: RunFootprint;
}

async function oneRun(label: string, args: readonly string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  try {
    const t0 = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [path.join(packageRoot, 'bin/svc-conformance.mjs'), 'run', '--reports', dir, ...args], { stdio: ['ignore', 'ignore', 'ignore'] });
      child.on('exit', (c) => resolve(c));
    });
    const wall = performance.now() - t0;
    let s: Summary;
    try {
      s = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as Summary;
    } catch {
      return [`run against ${label}: no summary.json (exit ${code})`];
    }
    const t = s.totals;
    return [
      `run against ${label}: ${(wall / 1000).toFixed(1)} s wall (exit ${code}); ${t['passed']} passed, ${t['failed']} failed, ${t['unspecified']} unspecified, ${t['inconclusive'] ?? 0} inconclusive, ${t['error']} error`,
      ...(s.footprint ? footprintLines(s.footprint).map((l) => `  ${l}`) : ['  (no footprint in summary.json)']),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runFootprintLines(argv: readonly string[]): Promise<string[]> {
  const out = await oneRun('the embedded target', []);
  const at = argv.indexOf('--kubeconfig');
  if (at >= 0 && argv[at + 1] !== undefined) {
    const profile = argv.includes('--profile') ? ['--profile', argv[argv.indexOf('--profile') + 1] ?? 'k8s'] : ['--profile', 'k8s'];
    out.push(...(await oneRun(argv[at + 1]!, ['--kubeconfig', argv[at + 1]!, ...profile])));
  } else if (process.env['KUBEBUILDER_ASSETS']) {
    out.push(`KUBEBUILDER_ASSETS is set: start that control plane and pass its kubeconfig (npm run bench -- --kubeconfig FILE) to measure it too`);
  }
  return out;
}
