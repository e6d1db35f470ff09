/**
 * Tonight against last night: a nightly user pages someone for a new failure, not for one the team
 * already knows. Pure: two summaries in (the earlier one as parsed from its summary.json), the changes
 * out. A clause is "failing" when it failed, known or not; "checked" when it has any verdict besides
 * notChecked and skipped.
 */
import type { ClauseStatus, RunResult } from '../runner/results.ts';

export interface BaselineClause {
  readonly id: string;
  readonly status: ClauseStatus;
}

export interface BaselineDiff {
  /** Failing now, not failing in the baseline (or absent from it). */
  readonly newFailures: readonly string[];
  /** Failing in the baseline, passing now. */
  readonly fixed: readonly string[];
  readonly stillFailing: readonly string[];
  /** Checked in the baseline, not checked now: coverage lost. */
  readonly newlyNotChecked: readonly string[];
  readonly newlyChecked: readonly string[];
}

const unchecked = (s: ClauseStatus | undefined): boolean => s === undefined || s === 'notChecked' || s === 'informative' || s === 'skipped';

export function compareWithBaseline(now: RunResult, before: readonly BaselineClause[]): BaselineDiff {
  const prev = new Map(before.map((c) => [c.id, c.status]));
  const out = {
    newFailures: [] as string[],
    fixed: [] as string[],
    stillFailing: [] as string[],
    newlyNotChecked: [] as string[],
    newlyChecked: [] as string[],
  };
  for (const c of now.clauses) {
    const was = prev.get(c.id);
    if (c.status === 'failed') (was === 'failed' ? out.stillFailing : out.newFailures).push(c.id);
    else if (was === 'failed' && c.status === 'passed') out.fixed.push(c.id);
    if (unchecked(c.status) && !unchecked(was)) out.newlyNotChecked.push(c.id);
    if (!unchecked(c.status) && unchecked(was) && prev.has(c.id)) out.newlyChecked.push(c.id);
  }
  return out;
}

/** Reads the clause statuses of a summary.json; throws a one-line message naming what is wrong. */
export function baselineClauses(json: unknown, file: string): BaselineClause[] {
  const clauses = (json as { clauses?: unknown } | null)?.clauses;
  if (!Array.isArray(clauses)) throw new Error(`${file}: not a summary.json (no clauses array)`);
  return clauses.map((c, i) => {
    const { id, status } = (c ?? {}) as { id?: unknown; status?: unknown };
    if (typeof id !== 'string' || typeof status !== 'string') throw new Error(`${file}: clauses[${i}] has no id or status`);
    return { id, status: status as ClauseStatus };
  });
}
