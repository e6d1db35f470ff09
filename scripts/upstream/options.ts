/** The command line of test:upstream (scripts/test-upstream.ts): its options and their parsers. */
import { Command, InvalidArgumentError } from '@commander-js/extra-typings';
import { topologies, type Topology } from '../../harness/envtest/index.ts';
import { DEFAULT_FRESH, runKinds, type RunKind } from './plan.ts';

const seedList = (v: string): number[] => {
  if (v.trim() === 'none') return [];
  const seeds = v.split(',').map((s) => s.trim());
  if (seeds.length === 0 || seeds.some((s) => !/^\d+$/.test(s)))
    throw new InvalidArgumentError('a comma-separated list of non-negative integers');
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

export const upstreamProgram = new Command('test:upstream')
  .description('run the suites against the upstream binaries of KUBEBUILDER_ASSETS (or --assets) on several seeds')
  .option(
    '--assets <dir>',
    'folder with etcd, kube-apiserver, kube-controller-manager and kubelet-config-loader (default: KUBEBUILDER_ASSETS)',
  )
  .option('--skip-if-missing', 'when the binaries are absent, say so and exit 0')
  .option(
    '--seeds <list>',
    'fixed seeds, comma-separated, run on the first topology (at least 3 for the API and node-agent suites), or none',
    seedList,
    [1, 2, 3],
  )
  .option(
    '--fresh <n>',
    `fresh random seeds for the API suites on each topology (default: ${topologies.map((t) => `${DEFAULT_FRESH[t]} ${t}`).join(', ')})`,
    count,
  )
  .option('--topologies <list>', `control planes to run on, in order: ${topologies.join(', ')}`, topologyList, [...topologies])
  .option(
    '--runs <n>',
    "examples per property of every API run (default: the CLI's default on the first fixed seed, 5 on the others)",
    positive,
  )
  .option('--only <kinds>', `run only these: ${runKinds.join(', ')}`, kindList, [...runKinds])
  .option('--reports <dir>', 'report root; each run writes to <dir>/<run>/', 'results/upstream')
  .exitOverride()
  .configureOutput({ outputError: (s, write) => write(s) });
