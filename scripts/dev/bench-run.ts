/**
 * The bench's last part: one whole default run per target, its wall time, its CPU
 * (user+sys of this process and of the processes it started) and footprint (namespaces, cluster-scoped
 * objects, requests by verb, bytes, slowest checks). The run goes through the command line's own plan and
 * executor in this process (planRun -> executeRun), and the figures are read from the executed run, not
 * from a report. Then the same run again as the command line, with every node process profiled, for
 * where that CPU goes by folder (scripts/dev/bench-cpu.ts; a run of its own, so the profiler's cost stays
 * out of the first figures, and a process of its own, since a profile of every process is set up when
 * each starts). Always the embedded target; also the target of
 * `npm run bench -- --kubeconfig FILE [--profile k8s]`. Figures only: nothing here asserts on time or counts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { footprintLines, requestEconomy } from '../../harness/case/index.ts';
import { tapExchanges, type Exchange } from '../../harness/transport/index.ts';
import { catalog } from '../../reference/catalog/index.ts';
import type { ProfileName } from '../../reference/profile.ts';
import type { EmbeddedTargetSpec } from '../../runner/embedded.ts';
import { aggregate } from '../../reports/aggregate.ts';
import { directStage } from '../../runner/check-stage.ts';
import { newRunId } from '../../runner/env.ts';
import { executeRun, type RunOutcome } from '../../runner/executor.ts';
import { planRun } from '../../runner/plan.ts';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../runner/run-stop.ts';
import { DEFAULT_RUNS } from '../../suites/settings.ts';
import { packageRoot } from '../dist-state.mjs';
import { cpuProfiling, treeCpuMeter } from './bench-cpu.ts';
import { ensureDist } from '../build.ts';
import { replayRun } from './bench-replay.ts';
import { mainServer, replayOrder } from './replay-requests.ts';

/** `run`'s own default (scripts/cli.ts): each failure replayed twice before it is reported. */
const CONFIRM_REPLAYS = 2;

/** A default `run` of the target, as the command line plans it, executed in this process. */
export async function runInProcess(target: { kubeconfig?: string; profile: ProfileName }): Promise<{
  outcome: RunOutcome;
  wallSeconds: number;
  cpuSeconds: { user: number; system: number } | undefined;
  ownCpuSeconds: number;
  exchanges: Exchange[];
}> {
  const planned = planRun(
    {
      kubeconfig: target.kubeconfig,
      profile: target.profile,
      runs: DEFAULT_RUNS,
      reports: '.',
      output: 'text',
      confirm: CONFIRM_REPLAYS,
      timeout: DEFAULT_RUN_TIMEOUT_MS,
    },
    { seed: Math.floor(Math.random() * 2 ** 31), runId: newRunId(), cwd: process.cwd() },
  );
  if (planned.errors !== undefined) throw new Error(planned.errors[0]);
  const tapped: [string, Exchange][] = [];
  const untap = tapExchanges((server, e) => tapped.push([server, e]));
  const children = treeCpuMeter();
  const own = process.cpuUsage();
  const t0 = performance.now();
  let outcome: RunOutcome;
  try {
    outcome = await executeRun(planned.plan, { log: () => undefined, stage: directStage() });
  } finally {
    untap();
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  const mine = process.cpuUsage(own);
  const tree = children();
  const cpuSeconds = tree === undefined ? undefined : { user: tree.user + mine.user / 1e6, system: tree.system + mine.system / 1e6 };
  const server = mainServer(tapped);
  return {
    outcome,
    wallSeconds,
    cpuSeconds,
    ownCpuSeconds: (mine.user + mine.system) / 1e6,
    exchanges: server === undefined ? [] : replayOrder(tapped, server),
  };
}

async function runOnce(
  dir: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; wallSeconds: number }> {
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [path.join(packageRoot, 'bin/svc-conformance.mjs'), 'run', '--reports', dir, ...args], {
      stdio: ['ignore', 'ignore', 'ignore'],
      env,
    });
    child.on('exit', (c) => resolve(c));
  });
  return { code, wallSeconds: (performance.now() - t0) / 1000 };
}

async function oneRun(label: string, target: { kubeconfig?: string; profile: ProfileName }): Promise<string[]> {
  const { outcome, wallSeconds, cpuSeconds, ownCpuSeconds, exchanges } = await runInProcess(target);
  const { run, exitCode } = outcome;
  // The replay server is of the bench's profile, svc: only the embedded run of that profile is replayed.
  const overhead =
    run.plan.target.kind === 'embedded' && target.profile === 'svc'
      ? await overheadLines(exchanges, run.plan.target, cpuSeconds, ownCpuSeconds)
      : [];
  const clauses = aggregate(run.records, catalog);
  const count = (status: string) => clauses.filter((c) => c.status === status).length;
  // As summary.json's footprint.perVerdict has it: the executed run's footprint carries none of its own.
  const footprint = { ...run.footprint, perVerdict: run.footprint.perVerdict ?? requestEconomy(run.records, clauses, run.footprint) };
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  try {
    const profiling = cpuProfiling();
    // The same seed: the same cases, so the split is of the run measured above.
    const args = [
      ...(target.kubeconfig !== undefined ? ['--kubeconfig', target.kubeconfig] : []),
      '--profile',
      target.profile,
      '--seed',
      String(run.plan.seed),
    ];
    const profiled = await runOnce(dir, args, profiling.env);
    return [
      `run against ${label}: ${wallSeconds.toFixed(1)} s wall (exit ${exitCode}); ${count('passed')} passed, ${count('failed')} failed, ${count('unspecified')} unspecified, ${count('inconclusive')} inconclusive, ${count('error')} error`,
      cpuSeconds === undefined
        ? '  CPU: the processes it started need /proc (Linux)'
        : `  CPU: ${(cpuSeconds.user + cpuSeconds.system).toFixed(1)} s user+sys for this process and those it started (${cpuSeconds.user.toFixed(1)} user, ${cpuSeconds.system.toFixed(1)} sys)`,
      ...footprintLines(footprint).map((l) => `  ${l}`),
      ...overhead,
      ...profiling.finish(profiled.wallSeconds),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The run's CPU against a bare replay of its API requests (scripts/dev/bench-replay.ts). */
async function overheadLines(
  exchanges: readonly Exchange[],
  spec: EmbeddedTargetSpec,
  tree: { user: number; system: number } | undefined,
  ownCpuSeconds: number,
): Promise<string[]> {
  if (exchanges.length === 0) return ['  harness overhead: the run sent no request to replay'];
  const replay = await replayRun(exchanges, spec);
  const runCpu = tree === undefined ? ownCpuSeconds : tree.user + tree.system;
  const x = (n: number) => `${(n / replay.cpuSeconds).toFixed(2)}x`;
  return [
    `  bare replay of its ${replay.requests} API requests (one undici connection, fresh server, same order): ${replay.cpuSeconds.toFixed(1)} CPU-s, ${replay.wallSeconds.toFixed(1)} s wall; ${replay.sameStatus} answered with the run's status`,
    `  harness overhead (run CPU / replay CPU): ${x(runCpu)} (goal <= 1.2x); this process alone (no daemon or helper processes): ${x(ownCpuSeconds)}`,
  ];
}

export async function runFootprintLines(argv: readonly string[]): Promise<string[]> {
  // The CLI as shipped: a stale dist/ would send the runs through tsx, and its transpiling into the figures.
  await ensureDist();
  const out = await oneRun('the embedded target', { profile: 'svc' });
  const at = argv.indexOf('--kubeconfig');
  if (at >= 0 && argv[at + 1] !== undefined) {
    const profile = argv.includes('--profile') ? (argv[argv.indexOf('--profile') + 1] ?? 'k8s') : 'k8s';
    if (profile !== 'svc' && profile !== 'k8s') return [...out, `--profile ${profile}: svc or k8s`];
    out.push(...(await oneRun(argv[at + 1]!, { kubeconfig: argv[at + 1]!, profile })));
  } else if (process.env['KUBEBUILDER_ASSETS']) {
    out.push(
      `KUBEBUILDER_ASSETS is set: start that control plane and pass its kubeconfig (npm run bench -- --kubeconfig FILE) to measure it too`,
    );
  }
  return out;
}
