/**
 * Why a run ended before its checks did (issue 32): its `--timeout` ran out, or the CI system sent
 * SIGTERM (or a person Ctrl-C). Either way the run still writes every report with what it has; the
 * checks that did not finish leave their clauses `notChecked` with the reason, never passed.
 */
import { registerRunDeadline } from '../harness/run-deadline.ts';
import type { CheckRecord } from './results.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export type StopReason = 'run timeout' | 'SIGTERM' | 'SIGINT';

/** Exit codes: 3 (the run could not finish, DESIGN.md) for the budget; the shell's 128+n for signals. */
export const STOP_EXIT: Readonly<Record<StopReason, number>> = { 'run timeout': 3, SIGTERM: 143, SIGINT: 130 };

/** What `--timeout` defaults to: far above a default run (minutes), below the usual CI job limits. */
export const DEFAULT_RUN_TIMEOUT_MS = 60 * 60_000;
/** How long running checks may take to wind down once the run stops, before they are abandoned. */
export const STOP_GRACE_MS = 10_000;

/**
 * The clauses of every selected check that reported nothing, as `notChecked` records naming why.
 *   selected [a: x, y; b: z], finished {a}, 'run timeout'  ->  z notChecked "run timeout: check b did not finish"
 */
export function unfinishedRecords(selected: readonly { readonly id: string; readonly clauses: readonly ClauseId[] }[], finished: ReadonlySet<string>, reason: StopReason): CheckRecord[] {
  return selected
    .filter((c) => !finished.has(c.id))
    .flatMap((c) => c.clauses.map((clause) => ({ clause, check: c.id, verdict: 'notChecked' as const, count: 0, note: `${reason}: check ${c.id} did not finish` })));
}

export interface RunStop {
  /** Set once the run must stop; first cause wins. */
  readonly reason: StopReason | undefined;
  /** Settles with the reason when the run must stop; never rejects. */
  readonly stopped: Promise<StopReason>;
  stop(reason: StopReason): void;
  /** Removes the timer and the signal handlers. */
  dispose(): void;
}

/**
 * Arms the budget and the signal handlers. A second signal while the run is already stopping for a
 * signal ends the process at once (`onSecondSignal`): a person pressing Ctrl-C twice means it.
 */
export function armRunStop(timeoutMs: number, onSecondSignal: (signal: NodeJS.Signals) => void, now: () => number = Date.now): RunStop & { readonly deadline: number } {
  let reason: StopReason | undefined;
  let settle!: (r: StopReason) => void;
  const stopped = new Promise<StopReason>((resolve) => (settle = resolve));
  const stop = (r: StopReason) => {
    if (reason !== undefined) return;
    reason = r;
    settle(r);
  };
  // setTimeout holds at most 2^31-1 ms; a longer budget is as good as none.
  const timer = timeoutMs < 2 ** 31 ? setTimeout(() => stop('run timeout'), timeoutMs) : undefined;
  const deadline = now() + timeoutMs;
  const unregister = registerRunDeadline(deadline);
  timer?.unref();
  const onSignal = (signal: NodeJS.Signals) => {
    // After the budget ran out the run is already stopping, within bounds, to the same end.
    if (reason === 'run timeout') return;
    if (reason !== undefined) onSecondSignal(signal);
    else stop(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get reason() {
      return reason;
    },
    stopped,
    stop,
    deadline,
    dispose: () => {
      unregister();
      if (timer) clearTimeout(timer);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}

/** `p`, or `undefined` once `ms` have passed: a wait that must end. */
export function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref())]);
}

/** The one line a stopped run prints, and the run error its summary carries (the verdict cannot be conformant). */
export function stopLine(reason: StopReason, elapsedMs: number, unfinished: number, selected: number): string {
  const after = `${reason} after ${Math.round(elapsedMs / 1000)} s`;
  // Stopped as the last check ended: nothing is notChecked, but failures go unconfirmed.
  if (unfinished === 0) return `${after}: every check had finished; failures are not confirmed`;
  return `${after}: ${unfinished} of ${selected} checks did not finish; their clauses are notChecked ("${reason}")`;
}
