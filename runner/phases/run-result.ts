/**
 * A finished run's result as data: its records and footprints in check order, its errors, what the
 * sweep left and how the run ended (a stop, or a broken precondition). The finish phase
 * (runner/phases/finish.ts) makes it once per set of reports.
 */
import { sumFootprints } from '../../harness/case/index.ts';
import { PRECONDITION_FAILED } from '../../harness/case/index.ts';
import { checks as registry } from '../../suites/checks/index.ts';
import type { CapabilityGate } from '../capability-gate.ts';
import type { ExecutedRun } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import type { CheckRecord } from '../results.ts';
import { earlyEndLine, type RunEnd } from '../run-verdict.ts';
import type { StopReason } from '../run-stop.ts';
import type { SweepResult } from '../sweep.ts';
import type { BroughtUp } from './bring-up.ts';
import type { Staged } from './stages.ts';
import type { ArmedStop } from './stop.ts';

/** What the phases before the finish produced. */
export interface FinishInput {
  readonly records: readonly CheckRecord[];
  readonly staged: Staged;
  readonly gate: CapabilityGate | undefined;
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly stop: ArmedStop;
  readonly started: number;
}

/** The result as data. Checks finish in any order when run in parallel: records and footprints follow check order. */
export function executedRun(
  plan: RunPlan,
  up: BroughtUp,
  f: FinishInput,
  stoppedFor: StopReason | undefined,
  swept: SweepResult | undefined,
): ExecutedRun {
  const end = runEnd(stoppedFor, f);
  const order = new Map(registry.map((c, i) => [c.id, i]));
  const byCheck = (a: { check: string }, b: { check: string }) => (order.get(a.check) ?? 0) - (order.get(b.check) ?? 0);
  const { cleanupCommand } = up;
  const left = swept?.leftovers.length
    ? [
        `cleanup left ${swept.leftovers.length} object(s) of run ${plan.runId} behind (leftovers)${cleanupCommand !== undefined ? `; remove them with: ${cleanupCommand}` : ''}`,
      ]
    : [];
  return {
    plan,
    records: [...f.records].sort(byCheck),
    errors: [...f.staged.errors, ...(swept?.unverified !== undefined ? [swept.unverified] : []), ...left],
    footprint: {
      ...sumFootprints([...f.staged.footprints].sort(byCheck), f.staged.parallel),
      ...(f.staged.slowdown !== undefined ? { slowdown: f.staged.slowdown } : {}),
    },
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

/** How the run ended before its checks did: a stop, or a broken precondition (a namespace pool with no clean namespace). */
function runEnd(stoppedFor: StopReason | undefined, f: FinishInput): RunEnd | undefined {
  if (stoppedFor !== undefined)
    return {
      kind: stoppedFor,
      line: f.staged.errors.find((e) => e.startsWith(stoppedFor)) ?? `${stoppedFor}: every check had finished; failures are not confirmed`,
    };
  const precondition = f.records.find((r) => r.note?.includes(PRECONDITION_FAILED))?.note;
  if (precondition === undefined) return undefined;
  const regressions = regressionsOf(f.records, f.known);
  return { kind: 'early end', line: earlyEndLine(precondition.slice(precondition.indexOf(PRECONDITION_FAILED)), regressions) };
}

/** The clauses failed and not excused as known, once each. */
export function regressionsOf(records: readonly CheckRecord[], known?: (r: CheckRecord) => boolean): string[] {
  return [...new Set(records.filter((r) => r.verdict === 'fail' && known?.(r) !== true).map((r) => r.clause))];
}
