/**
 * One finished run of the upstream plan, judged from its exit code and its summary.json (the public
 * report shape of docs/architecture.md "Reports and exit codes"), the compact table `test:upstream` prints, and the sweep table: per clause,
 * the seeds and topologies on which it failed beyond the expectations file. A run is ok only when the
 * CLI exited 0 and the summary shows no failure beyond the expectations file and no error: a missing
 * or unreadable summary is itself an error, never a pass.
 */
import type { SummaryJson } from '../../reports/summary-json.ts';
import type { Topology } from '../../harness/envtest/index.ts';
import type { PlannedRun } from './plan.ts';

export interface RunOutcome {
  readonly name: string;
  readonly topology: Topology;
  readonly seed: number;
  readonly fresh: boolean;
  readonly runs?: number;
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly verdict: string;
  readonly totals?: SummaryJson['totals'];
  /** Failed clauses the expectations file does not list. */
  readonly regressions: readonly string[];
  /** Failed clauses it lists. */
  readonly known: readonly string[];
  /** Clauses with an error verdict, then run-level errors. */
  readonly errors: readonly string[];
  /** Listed clauses with an entry the run exercised and no longer saw (the file may be stale). */
  readonly nowPassing: readonly string[];
  readonly ok: boolean;
}

export function judgeRun(
  run: Pick<PlannedRun, 'name' | 'seed' | 'runs' | 'topology' | 'fresh'>,
  exitCode: number | null,
  wallMs: number,
  summary: SummaryJson | undefined,
  summaryProblem?: string,
): RunOutcome {
  const base = { name: run.name, topology: run.topology, seed: run.seed, fresh: run.fresh, runs: run.runs, wallMs, exitCode };
  if (summary === undefined) {
    return {
      ...base,
      verdict: 'no report',
      regressions: [],
      known: [],
      nowPassing: [],
      errors: [summaryProblem ?? 'no summary.json written'],
      ok: false,
    };
  }
  const failed = summary.clauses.filter((c) => c.status === 'failed');
  const regressions = failed.filter((c) => !c.expectedFailure).map((c) => c.id);
  // A notTested run (preflight refused, too little judged, below --require) says why among its errors.
  const errors = [...summary.clauses.filter((c) => c.status === 'error').map((c) => c.id), ...summary.errors, ...(summary.notTested ?? [])];
  return {
    ...base,
    verdict: summary.verdict,
    totals: summary.totals,
    regressions,
    known: failed.filter((c) => c.expectedFailure).map((c) => c.id),
    errors,
    // Only entries the run exercised and found gone; "not exercised" is no advice to remove anything.
    nowPassing: summary.clauses.filter((c) => c.expectation?.entries.some((e) => e.outcome === 'noLongerOccurs') === true).map((c) => c.id),
    ok: exitCode === 0 && regressions.length === 0 && errors.length === 0,
  };
}

/** The per-run table: one row per run, fixed columns, then the clause ids behind every bad number. */
export function formatOutcomes(outcomes: readonly RunOutcome[]): string {
  const header = ['run', 'topology', 'seed', 'runs', 'time', 'passed', 'failed', 'known', 'inconcl', 'unspec', 'error', 'exit', 'verdict'];
  const rows = outcomes.map((o) => [
    o.name,
    o.topology,
    String(o.seed),
    o.runs === undefined ? 'default' : String(o.runs),
    seconds(o.wallMs),
    count(o.totals?.passed),
    String(o.regressions.length),
    String(o.known.length),
    count(o.totals?.inconclusive),
    count(o.totals?.unspecified),
    String(o.errors.length),
    o.exitCode === null ? '-' : String(o.exitCode),
    o.ok ? 'ok' : `FAIL (${o.verdict})`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i <= 1 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map(line)];
  for (const o of outcomes) {
    if (o.regressions.length > 0) lines.push(`${o.name}: failed beyond the expectations file: ${o.regressions.join(', ')}`);
    if (o.errors.length > 0) lines.push(`${o.name}: errors: ${o.errors.map(firstLine).join('; ')}`);
    if (o.nowPassing.length > 0)
      lines.push(
        `${o.name}: listed in the expectations file, input sent and answered right (no longer occurring): ${o.nowPassing.join(', ')}`,
      );
  }
  return lines.join('\n');
}

/** One clause's failures across the runs of an invocation. */
export interface SweepRow {
  readonly clause: string;
  /** `failed` beyond the expectations file, or an `error` verdict. */
  readonly on: readonly {
    readonly status: 'failed' | 'error';
    readonly topology: Topology;
    readonly seed: number;
    readonly fresh: boolean;
    readonly run: string;
  }[];
}

/**
 * Per clause, where it failed beyond the expectations file or errored, most widespread first. Run-level
 * errors that name no clause (a missing report, a cleanup failure) are under `(run)`.
 *
 *   sweep([{ name: 'api-ha-fresh-7', topology: 'ha', seed: 7, fresh: true, regressions: ['rest:9.3/x'], errors: [] , ...}])
 *   -> [{ clause: 'rest:9.3/x', on: [{ status: 'failed', topology: 'ha', seed: 7, fresh: true, run: 'api-ha-fresh-7' }] }]
 */
export function sweep(outcomes: readonly RunOutcome[]): SweepRow[] {
  const rows = new Map<string, SweepRow['on'][number][]>();
  const add = (clause: string, status: 'failed' | 'error', o: RunOutcome) => {
    const on = rows.get(clause) ?? [];
    on.push({ status, topology: o.topology, seed: o.seed, fresh: o.fresh, run: o.name });
    rows.set(clause, on);
  };
  for (const o of outcomes) {
    for (const c of o.regressions) add(c, 'failed', o);
    for (const e of o.errors) add(/^(rest|node):\S+$/.test(e) ? e : '(run)', 'error', o);
  }
  return [...rows].map(([clause, on]) => ({ clause, on })).sort((a, b) => b.on.length - a.on.length || a.clause.localeCompare(b.clause));
}

/** The sweep as a table a person reads: `rest:9.3/x  failed: ha 7 (fresh); error: single 2`. */
export function formatSweep(rows: readonly SweepRow[], outcomes: readonly RunOutcome[]): string {
  const seeds = (t: Topology) =>
    outcomes.filter((o) => o.topology === t && o.name.startsWith('api-')).map((o) => `${o.seed}${o.fresh ? '*' : ''}`);
  const topologiesRun = [...new Set(outcomes.map((o) => o.topology))];
  const head = `sweep: ${topologiesRun.map((t) => `${t} seeds ${seeds(t).join(', ') || '-'}`).join('; ')} (* fresh)`;
  if (rows.length === 0)
    return `${head}
sweep: no clause failed beyond the expectations file, no error`;
  const width = Math.max(...rows.map((r) => r.clause.length));
  const cell = (r: SweepRow, status: 'failed' | 'error') => {
    const on = r.on.filter((x) => x.status === status);
    return on.length === 0 ? [] : [`${status} on ${on.map((x) => `${x.topology} ${x.seed}${x.fresh ? '*' : ''}`).join(', ')}`];
  };
  return [head, ...rows.map((r) => `${r.clause.padEnd(width)}  ${[...cell(r, 'failed'), ...cell(r, 'error')].join('; ')}`)].join('\n');
}

const count = (n: number | undefined) => (n === undefined ? '-' : String(n));
const firstLine = (s: string) => s.split('\n')[0]!;

export function seconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
