/**
 * The bench's last part (issues 15 and 28): one whole default run per target, its wall time, its CPU
 * (user+sys of the whole process tree) and footprint (namespaces, cluster-scoped objects, requests by
 * verb, bytes, slowest checks) read back from summary.json; then the same run again with every node
 * process profiled, for where that CPU goes by folder (scripts/dev/bench-cpu.ts; a run of its own, so the
 * profiler's cost stays out of the first figures). Always the embedded target; also the target of
 * `npm run bench -- --kubeconfig FILE [--profile k8s]`. Figures only: nothing here asserts on time or counts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { footprintLines, type RunFootprint } from '../../harness/case/index.ts';
import { packageRoot } from '../dist-state.mjs';
import { cpuProfiling, treeCpuMeter } from './bench-cpu.ts';
import { ensureDist } from '../build.ts';

interface Summary {
  readonly seed: number;
  readonly durationMs: number;
  readonly totals: Record<string, number>;
  readonly footprint?: RunFootprint;
}

async function runOnce(dir: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; wallSeconds: number }> {
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/svc-conformance.mjs'), 'run', '--reports', dir, ...args], { stdio: ['ignore', 'ignore', 'ignore'], env });
    child.on('exit', (c) => resolve(c));
  });
  return { code, wallSeconds: (performance.now() - t0) / 1000 };
}

async function oneRun(label: string, args: readonly string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  try {
    const cpu = treeCpuMeter();
    const { code, wallSeconds } = await runOnce(dir, args);
    const tree = cpu();
    let s: Summary;
    try {
      s = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as Summary;
    } catch {
      return [`run against ${label}: no summary.json (exit ${code})`];
    }
    const t = s.totals;
    const profiling = cpuProfiling();
    // The same seed: the same cases, so the split is of the run measured above.
    const profiled = await runOnce(dir, [...args, '--seed', String(s.seed)], profiling.env);
    return [
      `run against ${label}: ${wallSeconds.toFixed(1)} s wall (exit ${code}); ${t['passed']} passed, ${t['failed']} failed, ${t['unspecified']} unspecified, ${t['inconclusive'] ?? 0} inconclusive, ${t['error']} error`,
      tree === undefined
        ? "  CPU: the process tree's user+sys needs /proc (Linux)"
        : `  CPU: ${(tree.user + tree.system).toFixed(1)} s user+sys for the whole process tree (${tree.user.toFixed(1)} user, ${tree.system.toFixed(1)} sys)`,
      ...(s.footprint ? footprintLines(s.footprint).map((l) => `  ${l}`) : ['  (no footprint in summary.json)']),
      ...profiling.finish(profiled.wallSeconds),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runFootprintLines(argv: readonly string[]): Promise<string[]> {
  // The CLI as shipped: a stale dist/ would send the runs through tsx, and its transpiling into the figures.
  await ensureDist();
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
