/**
 * A failure ends its case (fast-check needs it to shrink), not the check: once it is shrunk, the check
 * runs the cases that came after it, in which a failure of a clause already reported ends the case
 * quietly; a failure of another clause is found and shrunk in turn (docs/verdict-rules.md). Clauses no
 * case reached then say which failure stopped the cases, not "no check reached it".
 */
import fc from 'fast-check';
import { ClauseViolation, DEFAULT_SHRINK_TIME_MS, SHRINK_RUN_RESERVE_MS, ShrinkBudget } from '../harness/case/index.ts';
import { runBudgetLeftMs } from '../harness/transport/index.ts';
import type { CheckRecord } from './results.ts';
import { examplesOption, type CheckRunState, type Continuation } from './check-run-state.ts';
import { caseProperty } from './case-property.ts';
import { violationRecords } from './failure-records.ts';
import { recordsFromTally } from './tally-records.ts';

/** Rounds of going on past failures: each one starts only if the one before found a new clause failing. */
const MAX_CONTINUE_ROUNDS = 4;
/** Going on past a failure may take as long as the check took to find it, and at least this. */
const MIN_CONTINUE_MS = 10_000;

/** Starts the note of a clause its check did not reach because its cases stopped at a failure (counted as not judged, never as declined). */
export const NOT_REACHED = 'not reached: ';

/**
 * Why a clause of a check that failed was not reached.
 *   notReachedNote('health-endpoints', ['rest:4.2/verbose'], 14, 14)
 *     -> 'not reached: health-endpoints failed rest:4.2/verbose, and 14 of its 14 later cases stopped at that failure before judging this clause'
 */
export function notReachedNote(
  check: string,
  failed: readonly string[],
  ran: number,
  stopped: number,
  brokeOff?: string,
  outOfTime = 0,
): string {
  const later =
    ran === 0
      ? 'no later case of it ran'
      : `${stopped} of its ${ran} later cases stopped at that failure before judging this clause${stopped < ran ? ' (the others drew no case of it)' : ''}`;
  const timeUp =
    outOfTime > 0
      ? `; ${outOfTime} later cases did not run (going on past a failure may take as long as finding it took, at least ${MIN_CONTINUE_MS / 1000} s, within the run's --timeout)`
      : '';
  return `${NOT_REACHED}${check} failed ${failed.join(', ')}, and ${later}${timeUp}${brokeOff !== undefined ? `; its later cases ended: ${brokeOff}` : ''}`;
}

/**
 * The check's records once its first failure (`failures`, from the pass that ran `firstRuns` cases and
 * began at `started`) is shrunk: the cases after it run, in rounds, each new failure shrunk in turn.
 */
export async function continuePastFailures(
  run: CheckRunState,
  failures: CheckRecord[],
  firstRuns: number,
  started: number,
): Promise<CheckRecord[]> {
  const { check, env, opts } = run;
  const reported = new Set(failures.filter((r) => r.verdict === 'fail').map((r) => r.clause));
  const until = performance.now() + Math.max(MIN_CONTINUE_MS, performance.now() - started);
  let skip = firstRuns;
  let stopped = 0;
  let ran = 0;
  let outOfTime = 0;
  let brokeOff: string | undefined;
  for (let round = 0; round < MAX_CONTINUE_ROUNDS && reported.size > 0; round++) {
    const after: Continuation = {
      skip,
      reported,
      stopped: 0,
      ran: 0,
      outOfTime: 0,
      mayRun: () => performance.now() < until && (runBudgetLeftMs() ?? Infinity) > SHRINK_RUN_RESERVE_MS,
    };
    const roundBudget = new ShrinkBudget(env.settings.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS, () => performance.now());
    const again = await fc.check(caseProperty(run, run.tally, roundBudget, after), {
      seed: opts.seed,
      numRuns: run.numRuns,
      examples: examplesOption(run),
    });
    stopped += after.stopped;
    ran += after.ran;
    outOfTime += after.outOfTime;
    if (!again.failed) break;
    if (!(again.errorInstance instanceof ClauseViolation)) {
      // Trouble in a later case takes nothing back from the failure found: the check ends here.
      brokeOff = again.errorInstance instanceof Error ? again.errorInstance.message.split('\n')[0] : String(again.errorInstance);
      break;
    }
    const more = await violationRecords(run, again.errorInstance, again, roundBudget);
    failures.push(...more);
    for (const r of more) if (r.verdict === 'fail') reported.add(r.clause);
    skip = again.numRuns;
  }
  const records = [...recordsFromTally(check.id, run.tally), ...failures];
  const judged = new Set(records.map((r) => r.clause));
  const why = notReachedNote(check.id, [...reported], ran, stopped, brokeOff, outOfTime);
  for (const clause of check.clauses)
    if (!judged.has(clause)) records.push({ clause, check: check.id, verdict: 'notChecked', count: 0, note: why });
  return records;
}
