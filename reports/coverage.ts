/**
 * Coverage as a report (docs/architecture.md "Checks and results as data"): per doc and per area, how many normative clauses this
 * run actually judged. "Judged" is passed + failed + error: an error still means a check reached the
 * clause; skipped and not checked did not. Needs the catalog because ClauseResult carries no kind.
 */
import type { Clause } from '../reference/catalog/types.ts';
import type { CheckRecord, ClauseResult, RunResult } from '../runner/results.ts';
import { safeFamilyOf, type FamilyOf } from './areas.ts';

export interface CoverageFigure {
  /** Normative clauses judged (passed, failed, error), of `normative`. */
  readonly checked: number;
  readonly normative: number;
  /** Clauses of every kind with a verdict of any sort (the figure the README's coverage table gives), informative ones apart. */
  readonly verdicts: number;
  readonly informative: number;
  readonly notChecked: number;
  readonly clauses: number;
}

type Figure = { -readonly [K in keyof CoverageFigure]: CoverageFigure[K] };
const emptyFigure = (): Figure => ({ checked: 0, normative: 0, verdicts: 0, informative: 0, notChecked: 0, clauses: 0 });

export interface Coverage {
  readonly docs: Readonly<Record<string, CoverageFigure>>;
  readonly areas: Readonly<Record<string, CoverageFigure & { readonly doc: string }>>;
}

export interface CoverageContext {
  readonly catalog: readonly Clause[];
  readonly familyOf: FamilyOf;
}

export function isJudged(c: Pick<ClauseResult, 'status'>): boolean {
  return c.status === 'passed' || c.status === 'failed' || c.status === 'error';
}

export function coverageOf(run: RunResult, ctx: CoverageContext): Coverage {
  const family = safeFamilyOf(ctx.familyOf);
  const byId = new Map(run.clauses.map((c) => [c.id, c]));
  const docs: Record<string, Figure> = {};
  const areas: Record<string, Figure & { doc: string }> = {};
  for (const clause of ctx.catalog) {
    const area = family(clause.id);
    const d = (docs[clause.doc] ??= emptyFigure());
    const a = (areas[area] ??= { doc: clause.doc, ...emptyFigure() });
    const status = byId.get(clause.id)?.status ?? 'notChecked';
    for (const f of [d, a]) {
      f.clauses += 1;
      if (status === 'informative') f.informative += 1;
      // Blocked by a feature not served: left without a verdict, its reason in its notes.
      else if (status === 'notChecked' || status === 'blocked') f.notChecked += 1;
      else f.verdicts += 1;
      if (clause.kind !== 'normative') continue;
      f.normative += 1;
      if (isJudged({ status })) f.checked += 1;
    }
  }
  return { docs, areas };
}

/** A verdict on a clause: the check reached it and the model said something about it. */
const REACHED: ReadonlySet<CheckRecord['verdict']> = new Set(['pass', 'fail', 'unspecified', 'inconclusive', 'error']);

/**
 * Clauses a check names that it left without a verdict in these records (`check: clause`). Stable
 * coverage: a clause reached on one seed and not another would make a nightly report's
 * coverage move with the seed, and a regression on that clause go unseen on half the nights.
 */
export function unreachedClauses(
  checks: readonly { readonly id: string; readonly clauses: readonly string[] }[],
  records: readonly CheckRecord[],
): string[] {
  const reached = new Set(records.filter((r) => REACHED.has(r.verdict)).map((r) => `${r.check}: ${r.clause}`));
  return checks.flatMap((c) => c.clauses.map((clause) => `${c.id}: ${clause}`).filter((key) => !reached.has(key)));
}

/**
 * Clauses some check names that no check of the run gave a verdict: what the report's coverage would
 * show as not checked. For checks whose judge may report on any field of what it generated (the
 * loader's), a clause is claimed by the suite, not by each check.
 */
export function unreachedInRun(checks: readonly { readonly clauses: readonly string[] }[], records: readonly CheckRecord[]): string[] {
  const reached = new Set(records.filter((r) => REACHED.has(r.verdict)).map((r) => r.clause as string));
  return [...new Set(checks.flatMap((c) => c.clauses))].filter((clause) => !reached.has(clause)).sort();
}
