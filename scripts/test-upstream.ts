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
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BinaryName, type Topology } from '../harness/envtest/index.ts';
import { startOrExplain } from './envtest-cli.ts';
import { API_EXTRA_SEED_RUNS, DEFAULT_FRESH, drawSeeds, planRuns, replayCommand, type PlannedRun, type RunKind } from './upstream/plan.ts';
import { formatOutcomes, formatSweep, seconds, sweep, type RunOutcome } from './upstream/outcome.ts';
import { shellQuote } from '../harness/processes/index.ts';
import { EXIT, say } from './upstream/console.ts';
import { upstreamProgram as program } from './upstream/options.ts';
import { assetsOrExit, claimReportsRoot, expectationFilesRead } from './upstream/preflight.ts';
import { forwardSignals, runAndJudge } from './upstream/child-runs.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<number> {
  try {
    program.parse(process.argv);
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'commander.helpDisplayed' || code === 'commander.version' ? EXIT.ok : EXIT.usage;
  }
  const o = program.opts();
  const kinds = o.only;
  const required: BinaryName[] = [
    'etcd',
    'kube-apiserver',
    'kube-controller-manager',
    ...(kinds.includes('nodeagent') ? ['kubelet-config-loader' as const] : []),
  ];
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
    for (const seed of seeds)
      say(
        `test:upstream: fresh seed ${seed} on ${t}; replay: ${replayCommand({ kind: 'api', topology: t, seed, runs: o.runs ?? API_EXTRA_SEED_RUNS }, assets.dir)}`,
      );
  }

  const signals = forwardSignals();
  const started = Date.now();
  let ran: TopologyRuns;
  try {
    ran = await runTopologies(
      { topologies: o.topologies, seeds: o.seeds, fresh, kinds, runs: o.runs, assets, logRoot, reportsRoot },
      signals,
    );
  } finally {
    signals.stop();
  }
  if (ran === 'usage') return EXIT.usage;
  const { outcomes, controlPlanes, planned, startFailed } = ran;
  const interrupted = signals.interrupted;

  const sweepRows = sweep(outcomes);
  const replays = Object.fromEntries(planned.filter((r) => r.kind === 'api').map((r) => [r.name, replayCommand(r, assets.dir)]));
  writeFileSync(
    path.join(reportsRoot, 'runs.json'),
    `${JSON.stringify({ controlPlanes, outcomes, sweep: sweepRows, replays, wallMs: Date.now() - started }, null, 2)}\n`,
  );
  return finalWord({
    outcomes,
    sweepRows,
    controlPlanes,
    topologies: o.topologies,
    reportsRoot,
    started,
    interrupted: interrupted.signal,
    startFailed,
  });
}

interface UpstreamRuns {
  readonly topologies: readonly Topology[];
  /** Fixed seeds, run on the first topology only. */
  readonly seeds: readonly number[];
  readonly fresh: ReadonlyMap<Topology, readonly number[]>;
  readonly kinds: readonly RunKind[];
  readonly runs: number | undefined;
  readonly assets: Exclude<ReturnType<typeof assetsOrExit>, number>;
  readonly logRoot: string;
  readonly reportsRoot: string;
}

type TopologyRuns = { outcomes: RunOutcome[]; controlPlanes: ControlPlaneRecord[]; planned: PlannedRun[]; startFailed: boolean } | 'usage';

/** Each topology in turn: its control plane started, its part of the plan run one run at a time, the control plane stopped. */
async function runTopologies(u: UpstreamRuns, signals: ReturnType<typeof forwardSignals>): Promise<TopologyRuns> {
  const outcomes: RunOutcome[] = [];
  const controlPlanes: ControlPlaneRecord[] = [];
  const planned: PlannedRun[] = [];
  let startFailed = false;
  for (const [index, topology] of u.topologies.entries()) {
    if (signals.interrupted.signal) break;
    const logDir = path.join(u.logRoot, topology);
    const cp = await startOrExplain(
      { assetsDir: u.assets.dir, controllerManager: 'required', topology, logDir, log: say, stopOnSignals: false },
      (line) => process.stderr.write(`${line}\n`),
    );
    if (typeof cp === 'number') {
      if (cp === 2) return 'usage';
      // A topology that does not start fails the invocation; the others still run.
      controlPlanes.push({ topology, startFailed: true });
      startFailed = true;
      continue;
    }
    say(
      `test:upstream: ${topology} control plane ready in ${seconds(cp.timings.total!)} at ${cp.server}; component logs in ${path.relative(process.cwd(), logDir)}/`,
    );
    const plan = planRuns({
      topology,
      kubeconfig: cp.kubeconfigPath,
      controllerManager: u.assets.binaries['kube-controller-manager']!,
      kubeletConfigLoader: u.assets.binaries['kubelet-config-loader'] ?? '',
      compactHook: `node ${shellQuote(path.join(root, 'scripts', 'etcd-compact.mjs'))} ${cp.etcdUrl}`,
      seeds: index === 0 ? u.seeds : [],
      freshSeeds: u.fresh.get(topology)!,
      kinds: u.kinds,
      runs: u.runs,
      reportsRoot: u.reportsRoot,
      root,
    });
    planned.push(...plan);
    try {
      for (const run of plan) {
        if (signals.interrupted.signal) break;
        outcomes.push(await runAndJudge(run, outcomes.length + 1, cp.kubeconfigPath, u.assets.dir, (child) => signals.running(child)));
        signals.running(undefined);
      }
    } finally {
      controlPlanes.push(await stopControlPlane(cp, topology));
    }
  }
  return { outcomes, controlPlanes, planned, startFailed };
}

/** Stops a topology's control plane and records its timings, with the evidence that the runs met both servers of a pair, not one. */
async function stopControlPlane(
  cp: Exclude<Awaited<ReturnType<typeof startOrExplain>>, number>,
  topology: Topology,
): Promise<ControlPlaneRecord> {
  const connections = cp.balancerCounts?.();
  const { ms } = await cp.stop();
  say(
    `test:upstream: ${topology} control plane stopped in ${seconds(ms)}${connections !== undefined ? `; the balancer handed ${connections.join(' and ')} connections to the API servers` : ''}`,
  );
  return { topology, readyMs: cp.timings.total!, stopMs: ms, balancerConnections: connections };
}

type ControlPlaneRecord = {
  topology: Topology;
  readyMs?: number;
  stopMs?: number;
  startFailed?: boolean;
  balancerConnections?: readonly number[];
};

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
function finalWord({
  outcomes,
  sweepRows: rows,
  controlPlanes,
  topologies: ran,
  reportsRoot,
  started,
  interrupted,
  startFailed,
}: Ending): number {
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

process.exitCode = await main();
