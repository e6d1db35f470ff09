/**
 * What `npm run test:upstream` runs against the upstream binaries, as data: one `svc-conformance run`
 * per suite and seed, each with its expectations file and its own report folder. Budgets keep the whole
 * plan at about ten minutes on two cores: the API suites get the default budget on the first seed and
 * a smaller one on the others; the node-agent suite (fast: one loader process per case) the default on
 * every seed; the controller-daemon suite (slow: one real daemon start per case) one seed.
 */
import path from 'node:path';
import { shellQuote } from '../../harness/controller-daemon.ts';

export type RunKind = 'api' | 'daemon' | 'nodeagent';
export const runKinds: readonly RunKind[] = ['api', 'daemon', 'nodeagent'];

export const expectationFiles: Readonly<Record<RunKind, string>> = {
  api: 'expectations/upstream-kube-apiserver.yaml',
  daemon: 'expectations/upstream-kube-controller-manager.yaml',
  nodeagent: 'expectations/upstream-kubelet.yaml',
};

/** Examples per property on the API seeds after the first. */
export const API_EXTRA_SEED_RUNS = 5;

export interface PlannedRun {
  /** Also the report folder's name: `api-seed1`. */
  readonly name: string;
  readonly kind: RunKind;
  readonly seed: number;
  /** undefined: the CLI's default budget. */
  readonly runs?: number;
  /** Arguments after `svc-conformance`. */
  readonly args: readonly string[];
  readonly reportsDir: string;
}

export interface PlanInput {
  readonly kubeconfig: string;
  /** Absolute paths of the binaries under test (quoted here: the options take command lines). */
  readonly controllerManager: string;
  readonly kubeletConfigLoader: string;
  /** A `--hook compact=` command for the API runs (etcd compaction), so history clauses run in seconds. */
  readonly compactHook?: string;
  readonly seeds: readonly number[];
  readonly kinds: readonly RunKind[];
  readonly reportsRoot: string;
  /** Where the expectations files are (the package root). */
  readonly root: string;
}

export function planRuns(p: PlanInput): PlannedRun[] {
  const out: PlannedRun[] = [];
  const add = (kind: RunKind, seed: number, runs: number | undefined, extra: readonly string[]) => {
    const name = `${kind}-seed${seed}`;
    const reportsDir = path.join(p.reportsRoot, name);
    out.push({
      name,
      kind,
      seed,
      ...(runs !== undefined ? { runs } : {}),
      reportsDir,
      args: [
        'run', '--kubeconfig', p.kubeconfig, '--profile', 'k8s', '--seed', String(seed),
        ...(runs !== undefined ? ['--runs', String(runs)] : []),
        ...extra,
        '--expectations', path.join(p.root, expectationFiles[kind]),
        '--reports', reportsDir,
      ],
    });
  };
  const hooks = p.compactHook !== undefined ? ['--hook', `compact=${p.compactHook}`] : [];
  // The envtest kube-apiserver runs with its default watch cache: entries limited to one hold.
  if (p.kinds.includes('api')) p.seeds.forEach((seed, i) => add('api', seed, i === 0 ? undefined : API_EXTRA_SEED_RUNS, [...hooks, '--target-capability', 'watch-cache']));
  // The daemon under test is handed a private reference API server by `run` (never the cluster under
  // test: it would contend with the control plane's own controller manager).
  if (p.kinds.includes('daemon')) add('daemon', p.seeds[0]!, undefined, ['--suite', 'controller-daemon', '--controller-daemon', shellQuote(p.controllerManager)]);
  if (p.kinds.includes('nodeagent')) for (const seed of p.seeds) add('nodeagent', seed, undefined, ['--suite', 'nodeagent-config', '--nodeagent-loader', shellQuote(p.kubeletConfigLoader)]);
  return out;
}
