/**
 * `npm run test:upstream`: the suites against the upstream binaries. For each
 * topology of `--topologies` in turn (harness/envtest: one server, the HA pair behind a balancer, one
 * server without the watch cache) it starts a control plane, runs that topology's part of the plan of
 * scripts/upstream/plan.ts one run at a time, each into its own folder under results/upstream/, and
 * stops it before the next topology starts. It prints the fresh seeds with their replay commands, a
 * table of per-run results and a sweep table (per clause, the seeds and topologies on which it failed
 * beyond the expectations file); runs.json holds both.
 *
 * Exit codes: 0 every run conformant beyond its expectations file with no error; 1 some run failed
 * (a clause failed beyond its expectations file, an error verdict, or no report); 2 usage: bad option,
 * malformed expectations file, or no binaries (one line; with --skip-if-missing, one line and 0);
 * 3 the control plane did not start; 130/143 interrupted.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { AssetsError, resolveAssets, topologies, type BinaryName, type Topology } from '../harness/envtest/index.ts';
import { ExpectationsError, parseExpectations } from '../reports/expectations.ts';
import type { SummaryJson } from '../reports/summary-json.ts';
import { startOrExplain } from './envtest-cli.ts';
import { API_EXTRA_SEED_RUNS, DEFAULT_FRESH, drawSeeds, expectationFiles, planRuns, replayCommand, runKinds, type PlannedRun, type RunKind } from './upstream/plan.ts';
import { formatOutcomes, formatSweep, judgeRun, seconds, sweep, type RunOutcome } from './upstream/outcome.ts';
import { shellQuote } from '../harness/processes/index.ts';

const EXIT = { ok: 0, failed: 1, usage: 2, startFailed: 3 } as const;
/** Far above any run of the plan (the slowest takes a few minutes on two busy cores). */
const RUN_TIMEOUT_MS = 30 * 60_000;
/** How long an interrupted run has to clean up before it is killed. */
const STOP_GRACE_MS = 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string) => process.stderr.write(`test:upstream: ${line}\n`);

const seedList = (v: string): number[] => {
  if (v.trim() === 'none') return [];
  const seeds = v.split(',').map((s) => s.trim());
  if (seeds.length === 0 || seeds.some((s) => !/^\d+$/.test(s))) throw new InvalidArgumentError('a comma-separated list of non-negative integers');
  return seeds.map(Number);
};
const kindList = (v: string): RunKind[] => {
  const kinds = v.split(',').map((s) => s.trim());
  const bad = kinds.filter((k) => !runKinds.includes(k as RunKind));
  if (bad.length > 0) throw new InvalidArgumentError(`unknown ${bad.join(', ')}; known: ${runKinds.join(', ')}`);
  return kinds as RunKind[];
};
const topologyList = (v: string): Topology[] => {
  const list = v.split(',').map((s) => s.trim());
  const bad = list.filter((t) => !topologies.includes(t as Topology));
  if (bad.length > 0) throw new InvalidArgumentError(`unknown ${bad.join(', ')}; known: ${topologies.join(', ')}`);
  if (new Set(list).size !== list.length) throw new InvalidArgumentError('each topology once');
  return list as Topology[];
};
const count = (v: string): number => {
  if (!/^\d+$/.test(v.trim())) throw new InvalidArgumentError('a non-negative integer');
  return Number(v);
};
const positive = (v: string): number => {
  const n = count(v);
  if (n === 0) throw new InvalidArgumentError('a positive integer');
  return n;
};

const UPSTREAM_MARK = '.svc-conformance-upstream';

const program = new Command('test:upstream')
  .description('run the suites against the upstream binaries of KUBEBUILDER_ASSETS (or --assets) on several seeds')
  .option('--assets <dir>', 'folder with etcd, kube-apiserver, kube-controller-manager and kubelet-config-loader (default: KUBEBUILDER_ASSETS)')
  .option('--skip-if-missing', 'when the binaries are absent, say so and exit 0')
  .option('--seeds <list>', 'fixed seeds, comma-separated, run on the first topology (at least 3 for the API and node-agent suites), or none', seedList, [1, 2, 3])
  .option('--fresh <n>', `fresh random seeds for the API suites on each topology (default: ${topologies.map((t) => `${DEFAULT_FRESH[t]} ${t}`).join(', ')})`, count)
  .option('--topologies <list>', `control planes to run on, in order: ${topologies.join(', ')}`, topologyList, [...topologies])
  .option('--runs <n>', "examples per property of every API run (default: the CLI's default on the first fixed seed, 5 on the others)", positive)
  .option('--only <kinds>', `run only these: ${runKinds.join(', ')}`, kindList, [...runKinds])
  .option('--reports <dir>', 'report root; each run writes to <dir>/<run>/', 'results/upstream')
  .exitOverride()
  .configureOutput({ outputError: (s, write) => write(s) });

async function main(): Promise<number> {
  try {
    program.parse(process.argv);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  const o = program.opts();
  const kinds = o.only;
  const required: BinaryName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', ...(kinds.includes('nodeagent') ? ['kubelet-config-loader' as const] : [])];
  const assets = assetsOrExit(o.assets, o.skipIfMissing, required);
  if (typeof assets === 'number') return assets;
  if (!expectationFilesRead(kinds)) return EXIT.usage;
  const reportsRoot = path.resolve(o.reports);
  if (!claimReportsRoot(reportsRoot)) return EXIT.usage;
  const logRoot = path.join(reportsRoot, 'logs');
  rmSync(logRoot, { recursive: true, force: true });
  const fresh = new Map(o.topologies.map((t) => [t, kinds.includes('api') ? drawSeeds(o.fresh ?? DEFAULT_FRESH[t]) : []] as const));
  say(
    `test:upstream: binaries from ${assets.dir}; ${o.seeds.length > 0 ? `fixed seeds ${o.seeds.join(', ')} on ${o.topologies[0]}` : 'no fixed seeds'}; topologies ${o.topologies.join(', ')}; reports in ${path.relative(process.cwd(), reportsRoot) || '.'}/`,
  );
  for (const [t, seeds] of fresh) {
    for (const seed of seeds) say(`test:upstream: fresh seed ${seed} on ${t}; replay: ${replayCommand({ kind: 'api', topology: t, seed, runs: o.runs ?? API_EXTRA_SEED_RUNS }, assets.dir)}`);
  }

  const signals = forwardSignals();
  const interrupted = signals.interrupted;

  const outcomes: RunOutcome[] = [];
  const controlPlanes: ControlPlaneRecord[] = [];
  const planned: PlannedRun[] = [];
  const started = Date.now();
  let startFailed = false;
  try {
    for (const [index, topology] of o.topologies.entries()) {
      if (interrupted.signal) break;
      const logDir = path.join(logRoot, topology);
      const cp = await startOrExplain({ assetsDir: assets.dir, controllerManager: 'required', topology, logDir, log: say, stopOnSignals: false }, (line) => process.stderr.write(`${line}\n`));
      if (typeof cp === 'number') {
        if (cp === 2) return EXIT.usage;
        // A topology that does not start fails the invocation; the others still run.
        controlPlanes.push({ topology, startFailed: true });
        startFailed = true;
        continue;
      }
      say(`test:upstream: ${topology} control plane ready in ${seconds(cp.timings.total!)} at ${cp.server}; component logs in ${path.relative(process.cwd(), logDir)}/`);
      const plan = planRuns({
        topology,
        kubeconfig: cp.kubeconfigPath,
        controllerManager: assets.binaries['kube-controller-manager']!,
        kubeletConfigLoader: assets.binaries['kubelet-config-loader'] ?? '',
        compactHook: `node ${shellQuote(path.join(root, 'scripts', 'etcd-compact.mjs'))} ${cp.etcdUrl}`,
        seeds: index === 0 ? o.seeds : [],
        freshSeeds: fresh.get(topology)!,
        kinds,
        runs: o.runs,
        reportsRoot,
        root,
      });
      planned.push(...plan);
      try {
        for (const run of plan) {
          if (interrupted.signal) break;
          outcomes.push(await runAndJudge(run, outcomes.length + 1, cp.kubeconfigPath, assets.dir, (child) => signals.running(child)));
          signals.running(undefined);
        }
      } finally {
        controlPlanes.push(await stopControlPlane(cp, topology));
      }
    }
  } finally {
    signals.stop();
  }

  const sweepRows = sweep(outcomes);
  const replays = Object.fromEntries(planned.filter((r) => r.kind === 'api').map((r) => [r.name, replayCommand(r, assets.dir)]));
  writeFileSync(path.join(reportsRoot, 'runs.json'), `${JSON.stringify({ controlPlanes, outcomes, sweep: sweepRows, replays, wallMs: Date.now() - started }, null, 2)}\n`);
  return finalWord({ outcomes, sweepRows, controlPlanes, topologies: o.topologies, reportsRoot, started, interrupted: interrupted.signal, startFailed });
}

/**
 * Ctrl-C / SIGTERM: the running suite gets the signal once (it cleans up what it created, then
 * exits), then the control plane stops. Runs are in their own process groups, so a terminal's
 * Ctrl-C reaches them only through here.
 */
function forwardSignals(): { readonly interrupted: { signal?: NodeJS.Signals }; running(child: ReturnType<typeof spawn> | undefined): void; stop(): void } {
  const interrupted: { signal?: NodeJS.Signals } = {};
  let current: ReturnType<typeof spawn> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted.signal) return;
    interrupted.signal = signal;
    say(`test:upstream: ${signal}: stopping`);
    const pid = current?.pid;
    if (pid === undefined) return;
    signalGroup(pid, signal);
    setTimeout(() => signalGroup(pid, 'SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    interrupted,
    running: (child) => {
      current = child;
    },
    stop: () => {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}

/** Stops a topology's control plane and records its timings, with the evidence that the runs met both servers of a pair, not one. */
async function stopControlPlane(cp: Exclude<Awaited<ReturnType<typeof startOrExplain>>, number>, topology: Topology): Promise<ControlPlaneRecord> {
  const connections = cp.balancerCounts?.();
  const { ms } = await cp.stop();
  say(`test:upstream: ${topology} control plane stopped in ${seconds(ms)}${connections !== undefined ? `; the balancer handed ${connections.join(' and ')} connections to the API servers` : ''}`);
  return { topology, readyMs: cp.timings.total!, stopMs: ms, ...(connections !== undefined ? { balancerConnections: connections } : {}) };
}

type ControlPlaneRecord = { topology: Topology; readyMs?: number; stopMs?: number; startFailed?: boolean; balancerConnections?: readonly number[] };

/** The upstream binaries, or the exit code when they are missing: 0 with --skip-if-missing, else a usage error. */
function assetsOrExit(dir: string | undefined, skipIfMissing: boolean | undefined, required: BinaryName[]): ReturnType<typeof resolveAssets> | number {
  try {
    return resolveAssets({ dir, required });
  } catch (e) {
    if (!(e instanceof AssetsError)) throw e;
    if (skipIfMissing) {
      say(`test:upstream: skipped (--skip-if-missing): ${e.message}`);
      return EXIT.ok;
    }
    fail(`${e.message} (--skip-if-missing to skip)`);
    return EXIT.usage;
  }
}

/** A malformed expectations file would fail every run the same way: refused before anything starts. */
function expectationFilesRead(kinds: readonly RunKind[]): boolean {
  for (const kind of kinds) {
    const file = path.join(root, expectationFiles[kind]);
    try {
      parseExpectations(readFileSync(file, 'utf8'), path.relative(process.cwd(), file));
    } catch (e) {
      if (e instanceof ExpectationsError) fail(e.message);
      else fail(`${path.relative(process.cwd(), file)}: ${(e as Error).message.split('\n')[0]}`);
      return false;
    }
  }
  return true;
}

/**
 * Each run's folder and logs/ are replaced whole: only in a root this command made (its mark, or the
 * runs.json of an earlier version), or a new or empty one; never a user's folder. Marks it.
 */
function claimReportsRoot(reportsRoot: string): boolean {
  const entries = existsSync(reportsRoot) ? readdirSync(reportsRoot) : [];
  if (entries.length > 0 && !entries.includes(UPSTREAM_MARK) && !entries.includes('runs.json')) {
    fail(`--reports ${reportsRoot}: holds files test:upstream did not write, and it replaces its run folders there; choose a new or empty folder (nothing was deleted)`);
    return false;
  }
  mkdirSync(reportsRoot, { recursive: true });
  writeFileSync(path.join(reportsRoot, UPSTREAM_MARK), 'Written by svc-conformance test:upstream: its run folders here are replaced by its next run.\n');
  return true;
}

/** Run number `n` of the invocation, in a fresh reports folder, judged; says what it did and how to replay a failed fresh seed. */
async function runAndJudge(run: PlannedRun, n: number, kubeconfig: string, assetsDir: string, started: (child: ReturnType<typeof spawn>) => void): Promise<RunOutcome> {
  rmSync(run.reportsDir, { recursive: true, force: true });
  mkdirSync(run.reportsDir, { recursive: true });
  say(`[${n}] ${run.name}: svc-conformance ${displayArgs(run, kubeconfig)}`);
  const t0 = Date.now();
  const exitCode = await runOnce(run, started);
  const outcome = judgeRun(run, exitCode, Date.now() - t0, ...readSummary(run.reportsDir));
  say(
    `[${n}] ${run.name}: ${outcome.ok ? 'ok' : 'FAIL'} in ${seconds(outcome.wallMs)} (${outcome.totals?.passed ?? 0} passed, ${outcome.regressions.length} failed beyond expectations, ${outcome.known.length} known, ${outcome.errors.length} error; output in ${path.relative(process.cwd(), path.join(run.reportsDir, 'output.txt'))})`,
  );
  if (!outcome.ok && run.fresh) say(`[${n}] ${run.name}: replay: ${replayCommand(run, assetsDir)}`);
  return outcome;
}

interface Ending {
  readonly outcomes: readonly RunOutcome[];
  readonly sweepRows: ReturnType<typeof sweep>;
  readonly controlPlanes: readonly ControlPlaneRecord[];
  readonly topologies: readonly Topology[];
  readonly reportsRoot: string;
  readonly started: number;
  readonly interrupted: NodeJS.Signals | undefined;
  readonly startFailed: boolean;
}

/** The tables, the last line and the exit code of the invocation. */
function finalWord({ outcomes, sweepRows: rows, controlPlanes, topologies: ran, reportsRoot, started, interrupted, startFailed }: Ending): number {
  say('');
  say(formatOutcomes(outcomes));
  say('');
  say(formatSweep(rows, outcomes));
  const bad = outcomes.filter((x) => !x.ok).length;
  if (interrupted) {
    say(`test:upstream: interrupted after ${outcomes.length} runs`);
    return interrupted === 'SIGINT' ? 130 : 143;
  }
  if (startFailed) {
    say(
      `test:upstream: FAILED: the ${controlPlanes
        .filter((c) => c.startFailed)
        .map((c) => c.topology)
        .join(', ')} control plane did not start (${bad} of ${outcomes.length} runs failed besides), in ${seconds(Date.now() - started)}`,
    );
    return EXIT.startFailed;
  }
  say(
    bad === 0
      ? `test:upstream: passed: ${outcomes.length} runs on ${ran.join(', ')}, 0 failed beyond the expectations files, 0 errors, in ${seconds(Date.now() - started)}`
      : `test:upstream: FAILED: ${bad} of ${outcomes.length} runs (tables above; reports in ${path.relative(process.cwd(), reportsRoot)}/<run>/), in ${seconds(Date.now() - started)}`,
  );
  return bad === 0 ? EXIT.ok : EXIT.failed;
}

/** One `svc-conformance run` in its own process group, its output to <reports>/output.txt. */
function runOnce(run: PlannedRun, started: (child: ReturnType<typeof spawn>) => void): Promise<number | null> {
  const fd = openSync(path.join(run.reportsDir, 'output.txt'), 'w');
  const child = spawn(process.execPath, [bin, ...run.args], { stdio: ['ignore', fd, fd], detached: true, cwd: root });
  closeSync(fd);
  started(child);
  // A run that hangs must not hang CI: stopped like an interrupted one, and judged (no report: failed).
  const limit = setTimeout(() => {
    say(`test:upstream: ${run.name} still running after ${seconds(RUN_TIMEOUT_MS)}: stopping it`);
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
    setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS).unref();
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve(code);
    });
  });
}

function readSummary(dir: string): [SummaryJson | undefined, string | undefined] {
  const file = path.join(dir, 'summary.json');
  try {
    return [JSON.parse(readFileSync(file, 'utf8')) as SummaryJson, undefined];
  } catch (e) {
    return [undefined, `${path.relative(process.cwd(), file)}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not written (see output.txt)' : (e as Error).message}`];
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The run's arguments for a person: the private kubeconfig path shortened, nothing secret in any case. */
function displayArgs(run: PlannedRun, kubeconfig: string): string {
  return run.args
    .map((a) => (a === kubeconfig ? '<envtest-kubeconfig>' : a.includes(' ') ? JSON.stringify(a) : a))
    .join(' ')
    .split(`${root}/`)
    .join('');
}

process.exitCode = await main();
