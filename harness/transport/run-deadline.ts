/**
 * The deadlines of the runs in this process, armed by the runner (runner/run-stop.ts), so that the
 * client's retry (harness/transport/retry-policy.ts) and shrinking (harness/case/shrink-budget.ts) do not start what
 * the run could not wait for anyway. It lives here, below the runner, because the client consults it.
 */
const activeDeadlines = new Map<symbol, number>();

/** Notes a run's deadline (epoch ms) for runBudgetLeftMs; returns its removal. */
export function registerRunDeadline(deadline: number): () => void {
  const key = Symbol('run deadline');
  activeDeadlines.set(key, deadline);
  return () => void activeDeadlines.delete(key);
}

/** Milliseconds left of the nearest armed run budget; undefined when no run is armed. */
export function runBudgetLeftMs(now: number = Date.now()): number | undefined {
  if (activeDeadlines.size === 0) return undefined;
  return Math.min(...activeDeadlines.values()) - now;
}
