/**
 * Shrinking within a budget. Finding a failure is cheap; shrinking it re-runs a case
 * per candidate, and against a slow or hostile target each candidate may wait out a window, so a
 * search left alone can hold a nightly run for hours. Once the first failure is seen, candidates run
 * only while the per-failure budget lasts and the counterexample is not already small; the others are
 * not run (fast-check counts them as passing, so it settles on the smallest failure it did see).
 *
 *   const b = new ShrinkBudget(60_000, now);  b.mayRun() -> true (searching)
 *   b.failed(40) at t=0;  b.mayRun() at t=10 s -> true;  at t=61 s -> false, b.cutShort -> 'shrinking cut short ...'
 *   run's --timeout 20 s away at a candidate -> false, b.cutShort -> 'shrinking cut short: the run's --timeout ...'
 *   b.failed(3)  -> small: b.mayRun() -> false, b.cutShort -> undefined (it ended because it was small)
 */

/** What `--shrink-time` defaults to: a watch failure shrinks in seconds against a correct-speed target. */
import { runBudgetLeftMs } from '../transport/index.ts';

export const DEFAULT_SHRINK_TIME_MS = 60_000;
/**
 * Shrinking stops when the run's `--timeout` has less than this left: the check then ends with the
 * counterexample it has, and its failure is in the reports, instead of being abandoned by the run's
 * stop (a stopped check's clauses are only notChecked). About one request bound: a candidate in flight
 * when the budget is checked may still wait that long.
 */
export const SHRINK_RUN_RESERVE_MS = 30_000;
/** A counterexample of this many requests or fewer is read at a glance: no more candidates. */
export const SMALL_COUNTEREXAMPLE_REQUESTS = 6;

export class ShrinkBudget {
  private firstFailureAt: number | undefined;
  private smallest = Infinity;
  private outOfTime: 'shrink' | 'run' | undefined;
  /** Candidates run after the first failure. */
  candidates = 0;

  /** `runLeftMs`: what the run's budget has left (harness/transport/run-deadline.ts), undefined when it has none. */
  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number,
    private readonly runLeftMs: () => number | undefined = runBudgetLeftMs,
  ) {}

  /** Whether the next case runs: always before the first failure; then while the budget lasts and nothing small was found. */
  mayRun(): boolean {
    if (this.firstFailureAt === undefined) return true;
    if (this.smallest <= SMALL_COUNTEREXAMPLE_REQUESTS || this.outOfTime !== undefined) return false;
    if (this.now() - this.firstFailureAt >= this.budgetMs) {
      this.outOfTime = 'shrink';
      return false;
    }
    const runLeft = this.runLeftMs();
    if (runLeft !== undefined && runLeft < SHRINK_RUN_RESERVE_MS) {
      this.outOfTime = 'run';
      return false;
    }
    this.candidates++;
    return true;
  }

  /** A case failed with a counterexample of `requests` requests. True for the first failure. */
  failed(requests: number): boolean {
    // A loader's file or a daemon's command line sends no request: its size is not counted in
    // requests, so only the time budget ends its shrinking (a file is shrunk to its one bad field).
    if (requests > 0) this.smallest = Math.min(this.smallest, requests);
    if (this.firstFailureAt !== undefined) return false;
    this.firstFailureAt = this.now();
    return true;
  }

  /** A clause failure was seen and its candidates are being tried. */
  get shrinking(): boolean {
    return this.firstFailureAt !== undefined && this.smallest > 0;
  }

  /** No more candidates at all (the failure was an error: nothing to shrink). */
  stop(): void {
    this.firstFailureAt ??= this.now();
    this.smallest = 0;
  }

  /** The note a failure carries when the budget, not the search, ended its shrinking. */
  get cutShort(): string | undefined {
    if (this.outOfTime === undefined) return undefined;
    if (this.outOfTime === 'run')
      return `shrinking cut short: the run's --timeout was near its end (${this.candidates} candidates tried): the counterexample may not be minimal`;
    return `shrinking cut short after ${Math.round(this.budgetMs / 1000)} s (--shrink-time; ${this.candidates} candidates tried): the counterexample may not be minimal`;
  }
}
