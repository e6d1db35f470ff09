/**
 * What `npm run test:upstream` runs against the upstream binaries, as data: one `svc-conformance run`
 * per suite, seed and topology, each with its expectations file and its own report folder.
 *
 * - Fixed seeds (`--seeds`, default 1, 2, 3) run on the first topology of `--topologies` (default
 *   `single`): the API suites (the default budget on the first seed, a smaller one on the others), the
 *   node-agent suite (fast: one loader process per case) on every seed, the controller-daemon suite
 *   (slow: one real daemon start per case) on the first. Neither of the last two talks to the cluster.
 * - Fresh seeds, drawn anew on every invocation, run the API suites on every topology (each topology
 *   its own control plane): nobody can tune the model to them, so a failure there is a model bug or a
 *   true upstream departure, never a seed to pin. Each is printed with the command that replays it.
 */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { shellQuote } from '../../harness/processes/index.ts';
import type { Topology } from '../../harness/envtest/index.ts';

export type RunKind = 'api' | 'daemon' | 'nodeagent';
export const runKinds: readonly RunKind[] = ['api', 'daemon', 'nodeagent'];

export const expectationFiles: Readonly<Record<RunKind, string>> = {
  api: 'expectations/upstream-kube-apiserver.yaml',
  daemon: 'expectations/upstream-kube-controller-manager.yaml',
  nodeagent: 'expectations/upstream-kubelet.yaml',
};

/** Examples per property on the API seeds after the first fixed one, fresh seeds included. */
export const API_EXTRA_SEED_RUNS = 5;

/**
 * Fresh seeds per topology unless `--fresh` says otherwise: two on one server (the issue asks for at
 * least two per API run), one through the HA pair and one without the watch cache, which keeps the
 * whole of `test:upstream` near ten minutes on two cores (each topology also starts a control plane).
 */
export const DEFAULT_FRESH: Readonly<Record<Topology, number>> = { single: 2, ha: 1, 'no-watch-cache': 1 };

/** Seeds `--seed` accepts and fast-check takes: [0, 2^31). */
export function drawSeeds(n: number, draw: (max: number) => number = (max) => randomInt(0, max)): number[] {
  const out: number[] = [];
  while (out.length < n) {
    const s = draw(2 ** 31);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

export interface PlannedRun {
  /** Also the report folder's name: `api-seed1`, `api-fresh-84122`, `api-ha-fresh-84122`. */
  readonly name: string;
  readonly kind: RunKind;
  readonly topology: Topology;
  readonly seed: number;
  /** Drawn for this invocation, not one of `--seeds`. */
  readonly fresh: boolean;
  /** undefined: the CLI's default budget. */
  readonly runs?: number;
  /** Arguments after `svc-conformance`. */
  readonly args: readonly string[];
  readonly reportsDir: string;
}

/** What to run on one topology's control plane. */
export interface TopologyPlanInput {
  readonly topology: Topology;
  readonly kubeconfig: string;
  /** Absolute paths of the binaries under test (quoted here: the options take command lines). */
  readonly controllerManager: string;
  readonly kubeletConfigLoader: string;
  /** A `--hook compact=` command for the API runs (etcd compaction), so history clauses run in seconds. */
  readonly compactHook?: string;
  /** Fixed seeds to run here (empty on every topology but the first). */
  readonly seeds: readonly number[];
  readonly freshSeeds: readonly number[];
  readonly kinds: readonly RunKind[];
  /** `--runs` for every API run; undefined: the budget rule above. */
  readonly runs?: number;
  readonly reportsRoot: string;
  /** Where the expectations files are (the package root). */
  readonly root: string;
}

export function planRuns(p: TopologyPlanInput): PlannedRun[] {
  const out: PlannedRun[] = [];
  const prefix = p.topology === 'single' ? '' : `${p.topology}-`;
  const add = (kind: RunKind, seed: number, fresh: boolean, runs: number | undefined, extra: readonly string[]) => {
    const name = `${kind}-${prefix}${fresh ? 'fresh-' : 'seed'}${seed}`;
    const reportsDir = path.join(p.reportsRoot, name);
    out.push({
      name,
      kind,
      topology: p.topology,
      seed,
      fresh,
      runs,
      reportsDir,
      args: [
        'run',
        '--kubeconfig',
        p.kubeconfig,
        '--profile',
        'k8s',
        '--seed',
        String(seed),
        ...(runs !== undefined ? ['--runs', String(runs)] : []),
        ...extra,
        '--expectations',
        path.join(p.root, expectationFiles[kind]),
        '--reports',
        reportsDir,
      ],
    });
  };
  const hooks = p.compactHook !== undefined ? ['--hook', `compact=${p.compactHook}`] : [];
  // Expectations entries limited to a watch cache hold on the topologies that have one.
  const capability = ['--target-capability', p.topology === 'no-watch-cache' ? 'no-watch-cache' : 'watch-cache'];
  if (p.kinds.includes('api')) {
    p.seeds.forEach((seed, i) => add('api', seed, false, p.runs ?? (i === 0 ? undefined : API_EXTRA_SEED_RUNS), [...hooks, ...capability]));
    for (const seed of p.freshSeeds) add('api', seed, true, p.runs ?? API_EXTRA_SEED_RUNS, [...hooks, ...capability]);
  }
  if (p.seeds.length > 0) {
    // The daemon under test is handed a private reference API server by `run` (never the cluster under
    // test: it would contend with the control plane's own controller manager).
    if (p.kinds.includes('daemon'))
      add('daemon', p.seeds[0]!, false, undefined, [
        '--suite',
        'controller-daemon',
        '--controller-daemon',
        shellQuote(p.controllerManager),
      ]);
    if (p.kinds.includes('nodeagent'))
      for (const seed of p.seeds)
        add('nodeagent', seed, false, undefined, ['--suite', 'nodeagent-config', '--nodeagent-loader', shellQuote(p.kubeletConfigLoader)]);
  }
  return out;
}

/**
 * The command that runs one API run of the plan again, alone, on a control plane of its own topology:
 * the seed as the only fixed seed, its budget, no fresh seeds.
 *
 *   replayCommand({ topology: 'ha', seed: 84122, runs: 5 }, '/assets')
 *   -> KUBEBUILDER_ASSETS=/assets npm run test:upstream -- --only api --topologies ha --seeds 84122 --runs 5 --fresh 0
 */
export function replayCommand(run: Pick<PlannedRun, 'kind' | 'topology' | 'seed' | 'runs'>, assetsDir: string): string {
  return [
    `KUBEBUILDER_ASSETS=${shellQuote(assetsDir)} npm run test:upstream --`,
    `--only ${run.kind}`,
    `--topologies ${run.topology}`,
    `--seeds ${run.seed}`,
    ...(run.runs !== undefined ? [`--runs ${run.runs}`] : []),
    '--fresh 0',
  ].join(' ');
}
