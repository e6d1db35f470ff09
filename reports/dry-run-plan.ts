/**
 * `run --dry-run`: what a run would do, printed before anything starts or is sent: the target, the
 * budget, the selected checks (with the examples each would run) and the clauses they judge.
 */
import { casesOf, type AnyCheck } from '../harness/case/index.ts';
import { profiles } from '../reference/profile.ts';
import type { RunPlan } from '../runner/plan.ts';
import { checks as registry } from '../suites/checks/index.ts';
import { version } from '../runner/executor.ts';
export interface PlannedCheck {
  readonly id: string;
  readonly suite: string;
  readonly title: string;
  readonly clauses: readonly string[];
  /** Examples per property for this check: the run's --runs, or the check's own lower cap. */
  readonly runs: number;
  /** Runs alone, after the others (it restarts or compacts the target). */
  readonly exclusive: boolean;
}

export interface DryRunPlan {
  readonly version: string;
  readonly target: string;
  readonly profile: string;
  /** Undefined: a fresh random seed is drawn when the run starts. */
  readonly seed: number | undefined;
  readonly runs: number;
  readonly parallel: number;
  readonly timeoutMs: number;
  readonly selection: readonly string[];
  readonly registered: number;
  readonly checks: readonly PlannedCheck[];
}

export function planClauses(plan: DryRunPlan): string[] {
  return [...new Set(plan.checks.flatMap((c) => c.clauses))];
}

export function toPlanText(plan: DryRunPlan): string {
  const clauses = planClauses(plan);
  const width = Math.max(0, ...plan.checks.map((c) => c.id.length));
  const suiteWidth = Math.max(0, ...plan.checks.map((c) => c.suite.length));
  const minutes = plan.timeoutMs / 60_000;
  const lines = [
    `svc-conformance ${plan.version} dry run: nothing is started and no request is sent`,
    `target:  ${plan.target}`,
    `profile: ${plan.profile}`,
    `budget:  ${plan.runs} examples per property (fewer where a check caps its own), ${plan.parallel} checks at once, run timeout ${Number.isInteger(minutes) ? `${minutes}m` : `${Math.round(plan.timeoutMs / 1000)}s`}, seed ${plan.seed ?? 'drawn at start'}`,
    `checks:  ${plan.checks.length} of ${plan.registered}${plan.selection.length > 0 ? ` (${plan.selection.join(' ')})` : ''}, judging ${clauses.length} clauses`,
    '',
    ...plan.checks.map(
      (c) =>
        `  ${c.suite.padEnd(suiteWidth)}  ${c.id.padEnd(width)}  ${String(c.runs).padStart(3)} run${c.runs === 1 ? ' ' : 's'}${c.exclusive ? ' (alone)' : '        '}  ${c.title}`,
    ),
    '',
    'clauses:',
    ...wrap(clauses, 100).map((l) => `  ${l}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function toPlanJson(plan: DryRunPlan): string {
  return `${JSON.stringify({ ...plan, clauses: planClauses(plan) }, null, 2)}\n`;
}

function wrap(words: readonly string[], width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && line.length + 1 + w.length > width) {
      out.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') out.push(line);
  return out;
}

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
      runs: casesOf(c, { profile: profiles[o.profile as keyof typeof profiles] ?? profiles.svc }, o.runs).numRuns,
      exclusive: c.exclusive === true,
    })),
  };
  return o.output === 'json' ? toPlanJson(plan) : toPlanText(plan);
}

/** The dry-run text of a plan (the options say what the user typed: a seed not given is drawn at start). */
export function dryRunText(o: Omit<DryRunOptions, 'parallel'>, plan: RunPlan): string {
  return dryRunPlan({ ...o, parallel: plan.budgets.parallel }, version(), registry.length, plan.selection.selected);
}
