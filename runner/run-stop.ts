/**
 * Why a run ended before its checks did: its `--timeout` ran out, or the CI system sent
 * SIGTERM (or a person Ctrl-C). Either way the run still writes every report with what it has; the
 * checks that did not finish leave their clauses `notChecked` with the reason, never passed.
 */
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
