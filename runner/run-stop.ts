/**
 * Why a run ended before its checks did: its `--timeout` ran out, or the CI system sent
 * SIGTERM (or a person Ctrl-C). Either way the run still writes every report with what it has; the
 * checks that did not finish leave their clauses `notChecked` with the reason, never passed.
 */
import { registerRunDeadline } from '../harness/transport/index.ts';
import type { CheckRecord } from './results.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export type StopReason = 'run timeout' | 'SIGTERM' | 'SIGINT';

/** Exit codes: 3 (the run could not finish, docs/verdict-rules.md) for the budget; the shell's 128+n for signals. */
export const STOP_EXIT: Readonly<Record<StopReason, number>> = { 'run timeout': 3, SIGTERM: 143, SIGINT: 130 };

/** What `--timeout` defaults to: far above a default run (minutes), below the usual CI job limits. */
export const DEFAULT_RUN_TIMEOUT_MS = 60 * 60_000;
/** How long running checks may take to wind down once the run stops, before they are abandoned. */
export const STOP_GRACE_MS = 4_000;
/** The end of the grace: the abandoned checks' requests still in flight get this long to end (runner/env.ts `abandon`). */
export const ABANDON_SETTLE_MS = 1_000;
/**
 * How long the cleanup of a stopped run may take (its deletes, then the wait for them to go), before a
 * last listing of what is left (HURRIED_LISTING_MS): with the grace, a stopped run ends within 13 s of
 * its stop, plus the time its reports take to write. What has not gone by then is listed as left, with
 * the command that removes it.
 */
export const STOPPED_CLEANUP_MS = 6_000;
/** A hurried run's last listing of what it leaves: a target that does not answer gets no more. */
export const HURRIED_LISTING_MS = 3_000;
/** From the hurrying signal to the exit, whatever hangs. */
export const HURRIED_EXIT_MS = 8_000;

/**
 * The clauses of every selected check that reported nothing, as `notChecked` records naming why.
 *   selected [a: x, y; b: z], finished {a}, 'run timeout'  ->  z notChecked "run timeout: check b did not finish"
 */
export function unfinishedRecords(
  selected: readonly { readonly id: string; readonly clauses: readonly ClauseId[] }[],
  finished: ReadonlySet<string>,
  reason: StopReason,
): CheckRecord[] {
  return selected
    .filter((c) => !finished.has(c.id))
    .flatMap((c) =>
      c.clauses.map((clause) => ({
        clause,
        check: c.id,
        verdict: 'notChecked' as const,
        count: 0,
        note: `${reason}: check ${c.id} did not finish`,
      })),
    );
}

/** Hears SIGINT and SIGTERM until the function it returns is called. */
export type SignalListener = (on: (signal: NodeJS.Signals) => void) => () => void;

export interface RunStop {
  /** Set once the run must stop; first cause wins. */
  readonly reason: StopReason | undefined;
  /** Settles with the reason when the run must stop; never rejects. */
  readonly stopped: Promise<StopReason>;
  /** Set by a signal that comes while the run is already stopping: no more grace, no more cleanup. */
  readonly hurriedBy: NodeJS.Signals | undefined;
  /** Settles with that signal; never rejects. */
  readonly hurried: Promise<NodeJS.Signals>;
  stop(reason: StopReason): void;
  /** Removes the timer and the signal handlers. */
  dispose(): void;
}

/**
 * Arms the budget, and the signals when `on.listen` hears them (the command line's process; an
 * in-process run hears none). A signal while the run is already stopping (CI's cancel: SIGINT, then
 * SIGTERM seconds later; a person's second Ctrl-C) hurries it: the running checks lose their grace and
 * the cleanup its wait, but the reports and the list of what is left still come (`onHurry`). Any
 * signal after that ends the process at once (`onAbort`).
 */
export function armRunStop(
  timeoutMs: number,
  on: {
    readonly onHurry: (signal: NodeJS.Signals) => void;
    readonly onAbort: (signal: NodeJS.Signals) => void;
    readonly listen?: SignalListener;
  },
  now: () => number = Date.now,
): RunStop & { readonly deadline: number } {
  let reason: StopReason | undefined;
  let hurriedBy: NodeJS.Signals | undefined;
  let settle!: (r: StopReason) => void;
  let settleHurry!: (s: NodeJS.Signals) => void;
  const stopped = new Promise<StopReason>((resolve) => (settle = resolve));
  const hurried = new Promise<NodeJS.Signals>((resolve) => (settleHurry = resolve));
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
    if (reason === undefined) return stop(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    if (hurriedBy !== undefined) return on.onAbort(signal);
    hurriedBy = signal;
    on.onHurry(signal);
    settleHurry(signal);
  };
  const unlisten = on.listen?.(onSignal);
  return {
    get reason() {
      return reason;
    },
    get hurriedBy() {
      return hurriedBy;
    },
    stopped,
    hurried,
    stop,
    deadline,
    dispose: () => {
      unregister();
      if (timer) clearTimeout(timer);
      unlisten?.();
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
