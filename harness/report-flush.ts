/**
 * The suite files report their checks in file order, each test awaiting its check in the run's one
 * scheduler: one slow check (a CRD fixture that never settles, a held request) holds back the report
 * of every check after it, finished or not. When the run's `--timeout` then stops vitest, those
 * finished checks' records were lost with the cancelled tests: a default run against a target that
 * acknowledges writes and stores nothing found rest:4.1/post failing in 45 checks and reported 0
 * failed. So shortly before the deadline every test still waiting stops waiting: a finished check
 * reports its records, an unfinished one its clauses `notChecked` ("run timeout"), and the tests
 * that follow run in milliseconds, before the run's stop cancels them.
 */
import { unfinishedRecords } from './run-stop.ts';
import { emptyFootprint, type CheckFootprint } from './footprint.ts';
import type { CheckRecord } from './results.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

/** How long before the run's deadline the waiting tests report: vitest runs every remaining test in it. */
export const REPORT_MARGIN_MS = 5_000;

export interface CheckOutcome {
  readonly records: CheckRecord[];
  readonly footprint: CheckFootprint;
}

/**
 * A wait for checks' outcomes that gives up at `deadline - margin` (epoch ms; Infinity: never).
 *   outcome(check, finished)      -> finished's outcome, at once
 *   outcome(check, still running) -> at the flush: its clauses notChecked "run timeout: check X did not finish"
 */
export function reportFlush(deadline: number, now: () => number = Date.now, margin = REPORT_MARGIN_MS): { outcome(check: { readonly id: string; readonly clauses: readonly ClauseId[] }, result: Promise<CheckOutcome>): Promise<CheckOutcome> } {
  const at = deadline - margin;
  let flushed: Promise<void> | undefined;
  const flush = (): Promise<void> => {
    // setTimeout holds at most 2^31-1 ms: a later (or no) deadline never flushes.
    const wait = at - now();
    flushed ??= wait >= 2 ** 31 || !Number.isFinite(wait) ? new Promise<void>(() => undefined) : new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, wait)).unref());
    return flushed;
  };
  return {
    // The result first: when both have settled, the finished check's records win.
    outcome: (check, result) => Promise.race([result, flush().then(() => ({ records: unfinishedRecords([check], new Set(), 'run timeout'), footprint: emptyFootprint(check.id) }))]),
  };
}
