/**
 * results/summary.json: a public interface (docs/architecture.md "Reports and exit codes"); CI scripts parse it. The keys of the
 * documented shape come first and in the documented order; everything after them is an allowed extra.
 * Renaming or dropping a documented key breaks users, so test/unit/reports pins each one.
 */
import type { Counterexample, RunResult } from '../runner/results.ts';
import { coverageOf, type Coverage, type CoverageContext } from './coverage.ts';
import { verdictHeadline } from './verdict-line.ts';

export interface SummaryJson {
  tool: 'svc-conformance';
  version: string;
  profile: string;
  seed: number;
  verdict: RunResult['verdict'];
  /** `kind`, `description`, `reportedVersion`: added after the documented two (absent in older reports). */
  target: import('../runner/results.ts').RunTarget;
  totals: RunResult['totals'];
  clauses: SummaryClause[];
  startedAt: string;
  durationMs: number;
  errors: string[];
  coverage?: Coverage;
  /** Namespaces and cluster-scoped objects created, requests by verb, bytes, wall time per check. */
  footprint?: import('../harness/case/index.ts').RunFootprint;
  /** External targets: what cleanup left behind, each with its removal command; [] when nothing. */
  leftovers?: import('../runner/results.ts').RunLeftover[];
  /** External targets: the `svc-conformance cleanup` command that removes whatever the run left. */
  cleanupCommand?: string;
  /** Why the verdict is notTested, one line each. */
  notTested?: string[];
  /** Components the run was not given (a loader, a daemon beside an external server): the checks and clauses each holds. */
  notSelected?: import('../runner/results.ts').NotSelected[];
  /** The command line (scrubbed), the selection and the expectations files of the run. */
  invocation?: import('../runner/results.ts').RunInvocation;
  /** A nonconformant run that did not finish or judged too little: why, short (`timed out`) and in full. */
  incomplete?: { because: string[]; lines: string[] };
  /** The verdict with how much was judged: `nonconformant: 3 failures, 310 clauses judged; incomplete: timed out`. */
  verdictLine?: string;
  /** What the run reached on the target (reports/scorecard.ts), its selection's measure and --require. */
  scorecard?: import('../harness/case/index.ts').Scorecard;
  /** The capability map (reports/capability-map.ts): what the target serves, feature by feature. */
  capabilities?: import('../runner/results.ts').CapabilityEntry[];
}

export interface SummaryClause {
  id: string;
  section: string;
  summary: string;
  status: RunResult['clauses'][number]['status'];
  checks: number;
  counterexamples: Counterexample[];
  notes: string[];
  expectedFailure: boolean;
  /** A listed clause: each expectations entry and its outcome, and a failure no entry excuses. */
  expectation?: import('../runner/results.ts').ClauseExpectation;
}

/** The coverage block needs the catalog (clause kinds); without it the block is left out. */
export function toSummary(run: RunResult, coverage?: CoverageContext): SummaryJson {
  const summary: SummaryJson = {
    tool: run.tool,
    version: run.version,
    profile: run.profile,
    seed: run.seed,
    verdict: run.verdict,
    target: {
      server: run.target.server,
      nodeagentLoader: run.target.nodeagentLoader,
      kind: run.target.kind,
      description: run.target.description,
      reportedVersion: run.target.reportedVersion,
    },
    totals: { ...run.totals },
    clauses: run.clauses.map((c) => ({
      id: c.id,
      section: c.section,
      summary: c.summary,
      status: c.status,
      checks: c.checks,
      // A recorded history goes to its own file (histories/), not into the summary.
      counterexamples: c.counterexamples.map(({ history: _history, ...x }) => ({ ...x, steps: [...x.steps] })),
      notes: [...c.notes],
      expectedFailure: c.expectedFailure === true,
      expectation: c.expectation,
    })),
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    errors: [...run.errors],
  };
  if (coverage !== undefined) summary.coverage = coverageOf(run, coverage);
  // Per-check reach adds up to the scorecard; the summary carries the sum only.
  if (run.footprint !== undefined) {
    const { reach: _sum, ...footprint } = run.footprint;
    summary.footprint = { ...footprint, checks: footprint.checks.map(({ reach: _reach, ...c }) => c) };
  }
  if (run.notTested !== undefined) summary.notTested = [...run.notTested];
  if (run.notSelected !== undefined) summary.notSelected = run.notSelected.map((n) => ({ ...n, checks: [...n.checks] }));
  if (run.invocation !== undefined) summary.invocation = { ...run.invocation, expectations: [...run.invocation.expectations] };
  if (run.incomplete !== undefined) summary.incomplete = { because: [...run.incomplete.because], lines: [...run.incomplete.lines] };
  summary.verdictLine = verdictHeadline(run);
  if (run.scorecard !== undefined) summary.scorecard = run.scorecard;
  if (run.capabilities !== undefined) summary.capabilities = run.capabilities.map((e) => ({ ...e, blocks: [...e.blocks] }));
  if (run.leftovers !== undefined) summary.leftovers = run.leftovers.map((l) => ({ ...l }));
  if (run.cleanupCommand !== undefined) summary.cleanupCommand = run.cleanupCommand;
  return summary;
}

export function toSummaryJson(run: RunResult, coverage?: CoverageContext): string {
  return `${JSON.stringify(toSummary(run, coverage), null, 2)}\n`;
}
