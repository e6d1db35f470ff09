/**
 * `run --dry-run`: what a run would do, printed before anything starts or is sent: the target, the
 * budget, the selected checks (with the examples each would run) and the clauses they judge.
 */
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
      (c) => `  ${c.suite.padEnd(suiteWidth)}  ${c.id.padEnd(width)}  ${String(c.runs).padStart(3)} run${c.runs === 1 ? ' ' : 's'}${c.exclusive ? ' (alone)' : '        '}  ${c.title}`,
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
