/**
 * Runs one check as a fast-check async property against the target and turns the outcome into
 * CheckRecords: passes and unspecified observations from the tally, and for a failure the shrunk
 * counterexample with its readable steps, curl script, seed and path. Infrastructure trouble and our
 * own bugs become `error`, never a nonconformance.
 *
 * The parts: the property of the check's cases (case-property.ts), the records of a failure
 * (failure-records.ts) and the cases after it (continue-past-failures.ts), sharing check-run-state.ts.
 */
import fc from 'fast-check';
import type { CheckRecord } from './results.ts';
import {
  casesOf,
  CheckNotApplicable,
  ClauseViolation,
  DEFAULT_SHRINK_TIME_MS,
  emptyFootprint,
  ownEnv,
  ShrinkBudget,
  Tally,
} from '../harness/case/index.ts';
import type { AnyCheck, CheckEnv, CheckFootprint } from '../harness/case/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { newCheckJournal, type CheckJournal } from './check-journal.ts';
import { examplesOption, type CheckRunState, type RunCheckOptions } from './check-run-state.ts';
import { caseProperty } from './case-property.ts';
import { violationRecords } from './failure-records.ts';
import { continuePastFailures } from './continue-past-failures.ts';
import { recordsFromTally } from './tally-records.ts';

export type { RunCheckOptions } from './check-run-state.ts';
export { NOT_REACHED, notReachedNote } from './continue-past-failures.ts';
export { recordsFromTally } from './tally-records.ts';

/**
 * Runs one check with a transcript and footprint of its own: every request sent through its env is
 * recorded there, so checks may run concurrently and a counterexample holds only its case's.
 */
export async function runCheck(
  check: AnyCheck,
  env: CheckEnv,
  opts: RunCheckOptions,
  footprint: CheckFootprint = emptyFootprint(check.id),
): Promise<CheckRecord[]> {
  const own = ownEnv(env, footprint);
  const t0 = performance.now();
  const journal = newCheckJournal(check.id, footprint);
  try {
    const records = await runCheckAlone(check, own, opts, journal);
    // Every way out of the check starts its records with the tally's, made when its cases were done.
    if (journal.tally !== undefined) journal.tallyRecords = recordsFromTally(check.id, journal.tally).length;
    delete journal.tally;
    journal.complete = true;
    return records;
  } finally {
    footprint.wallMs = Math.round(performance.now() - t0);
  }
}

async function runCheckAlone(check: AnyCheck, env: CheckEnv, opts: RunCheckOptions, journal: CheckJournal): Promise<CheckRecord[]> {
  const notApplicable = check.applicable?.(env);
  if (notApplicable !== undefined) {
    return check.clauses.map((clause) => ({ clause, check: check.id, verdict: 'notChecked' as const, count: 0, note: notApplicable }));
  }
  const tally = new Tally();
  journal.tally = tally;
  journal.entries = tally.journal;
  journal.blobs = tally.blobs;
  const budget = new ShrinkBudget(env.settings.shrinkTimeMs ?? DEFAULT_SHRINK_TIME_MS, () => performance.now());
  const { examples, numRuns } = casesOf(check, env, opts.runs);
  const run: CheckRunState = {
    check,
    env,
    opts,
    journal,
    tally,
    examples,
    numRuns,
    inputs: new WeakMap(),
    excusedFirst: undefined,
    excusedAttached: false,
    caseNumber: 0,
  };
  const started = performance.now();
  const details = await fc.check(caseProperty(run, tally, opts.path === undefined ? budget : undefined), {
    seed: opts.seed,
    numRuns,
    examples: examplesOption(run),
    ...(opts.path !== undefined ? { path: opts.path, endOnFailure: true } : {}),
    ...(check.shrink === false ? { endOnFailure: true } : {}),
  });
  if (!details.failed && run.excusedFirst === undefined) return recordsFromTally(check.id, tally);

  const err = details.failed ? details.errorInstance : run.excusedFirst!;
  if (err instanceof ClauseViolation) {
    const failures = await violationRecords(run, err, details, budget);
    // A replay judges its one case; a check that does not shrink (a concurrent workload) is not replayable case by case;
    // a check whose cases all ran (only excused failures met) has no later case to go on to.
    if (opts.path !== undefined || check.shrink === false || !details.failed) return [...recordsFromTally(check.id, tally), ...failures];
    return continuePastFailures(run, failures, details.numRuns, started);
  }
  return [...recordsFromTally(check.id, tally), ...brokenCheckRecords(check, err)];
}

/** The records of a check that could not go on: not applicable as a whole (or in some clauses), or broken by trouble. */
function brokenCheckRecords(check: AnyCheck, err: unknown): CheckRecord[] {
  if (err instanceof CheckNotApplicable) {
    // No clauses named: the whole check could not run (a precondition of the run, such as --namespace).
    const clauses = err.clauses.length > 0 ? err.clauses : check.clauses;
    return clauses.map((clause) => ({ clause, check: check.id, verdict: err.verdict, count: 0, note: err.reason }));
  }
  const what =
    err instanceof InfrastructureError
      ? `infrastructure: ${err.message}`
      : `suite error (a bug of ours, not the target's): ${err instanceof Error ? err.message : String(err)}`;
  return check.clauses.map((clause) => ({ clause, check: check.id, verdict: 'error' as const, count: 0, note: what }));
}
