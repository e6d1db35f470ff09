/**
 * `run --dry-run`: the plan of a run, built from the options alone. Nothing starts (no embedded
 * server, no daemon, no vitest) and the target is not asked anything, not even /version.
 */
import type { AnyCheck } from '../harness/check.ts';
import { toPlanJson, toPlanText, type DryRunPlan } from '../reports/dry-run-plan.ts';

export interface DryRunOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly server?: string;
  readonly inCluster?: true;
  readonly profile: string;
  readonly seed?: number;
  readonly runs: number;
  readonly parallel: number;
  readonly timeout: number;
  readonly fault?: readonly string[];
  readonly variation?: readonly string[];
  readonly suite?: readonly string[];
  readonly check?: readonly string[];
  readonly focus?: readonly string[];
  readonly skip?: readonly string[];
  readonly shard?: { readonly index: number; readonly count: number };
  readonly output: 'text' | 'json';
}

export function targetDescription(o: DryRunOptions): string {
  if (o.server !== undefined) return `${o.server}${o.kubeconfig !== undefined ? ` (credentials from ${o.kubeconfig})` : ''}`;
  if (o.kubeconfig !== undefined || o.context !== undefined)
    return `kubeconfig ${o.kubeconfig ?? '$KUBECONFIG or ~/.kube/config'}${o.context !== undefined ? `, context ${o.context}` : ', its current context'}`;
  if (o.inCluster) return 'the in-cluster API server (service-account files)';
  const extras = [...(o.fault ?? []).map((f) => `fault ${f}`), ...(o.variation ?? []).map((v) => `variation ${v}`)];
  return `embedded reference server, started on loopback when the run starts${extras.length > 0 ? ` with ${extras.join(', ')}` : ''}`;
}

export function dryRunPlan(o: DryRunOptions, version: string, registered: number, selected: readonly AnyCheck[]): string {
  const selection = [
    ...(o.suite ?? []).map((s) => `--suite ${s}`),
    ...(o.check ?? []).map((c) => `--check ${c}`),
    ...(o.focus ?? []).map((p) => `--focus ${p}`),
    ...(o.skip ?? []).map((p) => `--skip ${p}`),
    ...(o.shard !== undefined ? [`--shard ${o.shard.index}/${o.shard.count}`] : []),
  ];
  const plan: DryRunPlan = {
    version,
    target: targetDescription(o),
    profile: o.profile,
    seed: o.seed,
    runs: o.runs,
    parallel: o.parallel,
    timeoutMs: o.timeout,
    selection,
    registered,
    checks: selected.map((c) => ({
      id: c.id,
      suite: c.suite,
      title: c.title,
      clauses: [...c.clauses],
      runs: c.defaultRuns !== undefined ? Math.min(c.defaultRuns, o.runs) : o.runs,
      exclusive: c.exclusive === true,
    })),
  };
  return o.output === 'json' ? toPlanJson(plan) : toPlanText(plan);
}
