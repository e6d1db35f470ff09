/**
 * A run the preflight stopped (harness/transport/preflight.ts): no check ran, yet CI still finds its reports.
 * summary.json, summary.md, the HTML page and JUnit say `notTested` with the preflight's line, and every
 * selected clause is notChecked with it; the terminal gets that one line and nothing else (exit 3).
 */
import type { Clause } from '../reference/catalog/types.ts';
import { buildRunResult, toSummaryJson, writeReports, type Expectations, type FamilyOf } from './index.ts';

export interface RefusedRun {
  readonly line: string;
  readonly selected: readonly { readonly id: string; readonly clauses: readonly string[] }[];
  readonly catalog: readonly Clause[];
  readonly familyOf: FamilyOf;
  readonly profile: string;
  readonly seed: number;
  readonly server: string;
  readonly nodeagentLoader: string | null;
  readonly target?: import('./run-identity.ts').TargetIdentity;
  readonly invocation?: import('../runner/results.ts').RunInvocation;
  readonly startedMs: number;
  readonly version: string;
  readonly reportsDir: string;
  readonly output: 'text' | 'json';
  readonly expectations?: Expectations;
}

/** Writes the reports of a refused run, prints its line, and returns the exit code (3). */
export async function reportRefusedRun(r: RefusedRun): Promise<number> {
  const records = r.selected.flatMap((c) =>
    c.clauses.map((clause) => ({
      clause: clause as import('../reference/catalog/clause-ids.ts').ClauseId,
      check: c.id,
      verdict: 'notChecked' as const,
      count: 0,
      note: r.line,
    })),
  );
  const result = buildRunResult({
    records,
    catalog: r.catalog,
    profile: r.profile,
    seed: r.seed,
    server: r.server,
    nodeagentLoader: r.nodeagentLoader,
    target: r.target,
    invocation: r.invocation,
    startedAt: new Date(r.startedMs).toISOString(),
    durationMs: Date.now() - r.startedMs,
    version: r.version,
    errors: [],
    refused: r.line,
    expectations: r.expectations,
  });
  await writeReports(result, r.reportsDir, r.familyOf, { catalog: r.catalog });
  if (r.output === 'json') process.stdout.write(toSummaryJson(result, { catalog: r.catalog, familyOf: r.familyOf }));
  process.stderr.write(`svc-conformance: ${r.line}\n`);
  return 3;
}
