/**
 * The last phase: the sweep of what the run left, the result as data (runner/phases/run-result.ts),
 * its reports and its exit code. A stopped run publishes before its cleanup (CI's kill may follow SIGTERM), then again
 * with what cleanup left; a finished run cleans up first and publishes once.
 */
import type { ExecutedRun, RunIO, RunOutcome } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import type { CheckRecord } from '../results.ts';
import { decideRun, EXIT, exitCodeOf, type RunEnd, type RunVerdict } from '../run-verdict.ts';
import type { BroughtUp } from './bring-up.ts';
import { executedRun, regressionsOf, type FinishInput } from './run-result.ts';
import { sweepAfter, type SweptAfter } from './sweep-after.ts';

export type { FinishInput } from './run-result.ts';

export async function finishRun(plan: RunPlan, up: BroughtUp, f: FinishInput, io: RunIO): Promise<RunOutcome> {
  const { log } = io;
  // A signal during confirmation also stops the run here: reports first, then cleanup.
  const stoppedFor = f.staged.reason ?? f.stop.reason;
  // What the run leaves is told as soon as it is known, before the reports: a hurried run's exit may
  // cut its reports short on a loaded machine, and these lines are what a person must act on.
  const sweep = async () => {
    const done = await sweepAfter(plan, up, f.stop, stoppedFor, log);
    for (const line of done.lines) log(`svc-conformance: ${line}`);
    return done;
  };
  const resultOf = (swept: SweptAfter | undefined) => executedRun(plan, up, f, stoppedFor, swept?.result);
  const publish = io.edge !== undefined ? io.edge.publish.bind(io.edge) : async (r: ExecutedRun) => verdictOfRecords(r.records, r.end);
  let swept = stoppedFor === undefined ? await sweep() : undefined;
  let run = resultOf(swept);
  // Hurried before the first reports: one set of reports, with what the run leaves.
  let verdict = stoppedFor !== undefined && f.stop.hurriedBy !== undefined ? undefined : await publish(run, stoppedFor === undefined);
  if (stoppedFor !== undefined) {
    if (verdict !== undefined) log(`svc-conformance: reports written; cleaning up run ${plan.runId}`);
    swept = await sweep();
    run = resultOf(swept);
    verdict = await publish(run, true);
  }
  // docs/verdict-rules.md: a failure found is reported however the run ended.
  const { end } = run;
  if (end !== undefined) log(`svc-conformance: ${end.line}`);
  const decided = verdict ?? 'interrupted';
  if (swept !== undefined && (swept.result.leftovers.length > 0 || swept.result.unverified !== undefined) && decided === 'conformant')
    return { exitCode: EXIT.unreachable, run };
  return { exitCode: exitCodeOf(decided, end), run };
}

/** Without reports (the self-tests): the same rules, on the records alone. */
function verdictOfRecords(records: readonly CheckRecord[], end: RunEnd | undefined): RunVerdict {
  return decideRun({ regressions: regressionsOf(records), errors: records.some((r) => r.verdict === 'error'), notTested: [], end }).verdict;
}
