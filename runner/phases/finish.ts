/**
 * The last phase: how the run ended, the sweep of what it left, the result as data, its reports and
 * its exit code. A stopped run publishes before its cleanup (CI's kill may follow SIGTERM), then again
 * with what cleanup left; a finished run cleans up first and publishes once.
 */
import { sumFootprints } from '../../harness/case/index.ts';
import { PRECONDITION_FAILED } from '../../harness/case/index.ts';
import { checks as registry } from '../../suites/checks/index.ts';
import type { CapabilityGate } from '../capability-gate.ts';
import type { ExecutedRun, RunIO, RunOutcome } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import type { CheckRecord } from '../results.ts';
import { decideRun, earlyEndLine, EXIT, exitCodeOf, type RunEnd, type RunVerdict } from '../run-verdict.ts';
import type { StopReason } from '../run-stop.ts';
import { leftoverLines, type SweepResult } from '../sweep.ts';
import type { BroughtUp } from './bring-up.ts';
import { sweepAfter } from './sweep-after.ts';
import type { Staged } from './stages.ts';
import type { ArmedStop } from './stop.ts';

export interface FinishInput {
  readonly records: readonly CheckRecord[];
  readonly staged: Staged;
  readonly gate: CapabilityGate | undefined;
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly stop: ArmedStop;
  readonly started: number;
}

export async function finishRun(plan: RunPlan, up: BroughtUp, f: FinishInput, io: RunIO): Promise<RunOutcome> {
  const { log } = io;
  // A signal during confirmation also stops the run here: reports first, then cleanup.
  const stoppedFor = f.staged.reason ?? f.stop.reason;
  const end = runEnd(stoppedFor, f);
  const sweep = () => sweepAfter(plan, up, f.stop, stoppedFor, log);
  const publish = io.edge !== undefined ? io.edge.publish.bind(io.edge) : async (r: ExecutedRun) => verdictOfRecords(r.records, r.end);
  let swept = stoppedFor === undefined ? await sweep() : undefined;
  let run = executedRun(plan, up, f, end, swept);
  // Hurried before the first reports: one set of reports, with what the run leaves.
  let verdict = stoppedFor !== undefined && f.stop.hurriedBy !== undefined ? undefined : await publish(run, stoppedFor === undefined);
  if (stoppedFor !== undefined) {
    if (verdict !== undefined) log(`svc-conformance: reports written; cleaning up run ${plan.runId}`);
    swept = await sweep();
    run = executedRun(plan, up, f, end, swept);
    verdict = await publish(run, true);
  }
  for (const line of swept === undefined ? [] : leftoverLines(swept, plan.profile.runLabel, plan.runId, up.cleanupCommand)) log(`svc-conformance: ${line}`);
  // docs/verdict-rules.md: a failure found is reported however the run ended.
  if (end !== undefined) log(`svc-conformance: ${end.line}`);
  const decided = verdict ?? 'interrupted';
  if (swept !== undefined && (swept.leftovers.length > 0 || swept.unverified !== undefined) && decided === 'conformant') return { exitCode: EXIT.unreachable, run };
  return { exitCode: exitCodeOf(decided, end), run };
}

/** A run the target or its identity refused before any check: one line, and reports when there are any. */
export async function refusedRun(plan: RunPlan, up: BroughtUp, started: number, line: string, io: RunIO): Promise<RunOutcome> {
  const run: ExecutedRun = {
    plan,
    records: [],
    errors: [],
    footprint: sumFootprints([]),
    server: up.target.server,
    nodeagentLoader: up.nodeagent.description,
    startedAt: started,
    durationMs: Date.now() - started,
  };
  if (io.edge !== undefined) return { exitCode: await io.edge.refused(line, run), run };
  io.log(`svc-conformance: ${line}`);
  return { exitCode: EXIT.unreachable, run };
}

/** How the run ended before its checks did: a stop, or a broken precondition (a namespace pool with no clean namespace). */
function runEnd(stoppedFor: StopReason | undefined, f: FinishInput): RunEnd | undefined {
  if (stoppedFor !== undefined) return { kind: stoppedFor, line: f.staged.errors.find((e) => e.startsWith(stoppedFor)) ?? `${stoppedFor}: every check had finished; failures are not confirmed` };
  const precondition = f.records.find((r) => r.note?.includes(PRECONDITION_FAILED))?.note;
  if (precondition === undefined) return undefined;
  return { kind: 'early end', line: earlyEndLine(precondition.slice(precondition.indexOf(PRECONDITION_FAILED)), regressionsOf(f.records, f.known)) };
}

/** The result as data. Checks finish in any order when run in parallel: records and footprints follow check order. */
function executedRun(plan: RunPlan, up: BroughtUp, f: FinishInput, end: RunEnd | undefined, swept: SweepResult | undefined): ExecutedRun {
  const order = new Map(registry.map((c, i) => [c.id, i]));
  const byCheck = (a: { check: string }, b: { check: string }) => (order.get(a.check) ?? 0) - (order.get(b.check) ?? 0);
  const { cleanupCommand } = up;
  const left = swept?.leftovers.length
    ? [`cleanup left ${swept.leftovers.length} object(s) of run ${plan.runId} behind (leftovers)${cleanupCommand !== undefined ? `; remove them with: ${cleanupCommand}` : ''}`]
    : [];
  return {
    plan,
    records: [...f.records].sort(byCheck),
    errors: [...f.staged.errors, ...(swept?.unverified !== undefined ? [swept.unverified] : []), ...left],
    footprint: { ...sumFootprints([...f.staged.footprints].sort(byCheck), f.staged.parallel), ...(f.staged.slowdown !== undefined ? { slowdown: f.staged.slowdown } : {}) },
    server: up.target.server,
    nodeagentLoader: up.nodeagent.description,
    startedAt: f.started,
    durationMs: Date.now() - f.started,
    swept,
    end,
    cleanupCommand,
    ...(f.gate !== undefined ? { capabilities: f.gate.entries } : {}),
  };
}

/** Without reports (the self-tests): the same rules, on the records alone. */
function verdictOfRecords(records: readonly CheckRecord[], end: RunEnd | undefined): RunVerdict {
  return decideRun({ regressions: regressionsOf(records), errors: records.some((r) => r.verdict === 'error'), notTested: [], end }).verdict;
}

/** The clauses failed and not excused as known, once each. */
function regressionsOf(records: readonly CheckRecord[], known?: (r: CheckRecord) => boolean): string[] {
  return [...new Set(records.filter((r) => r.verdict === 'fail' && known?.(r) !== true).map((r) => r.clause))];
}
