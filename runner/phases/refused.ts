/**
 * A run the target or its identity refused before any check (the probe phase's answer): one line, and
 * reports when there are any.
 */
import { sumFootprints } from '../../harness/case/index.ts';
import type { ExecutedRun, RunIO, RunOutcome } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import { EXIT } from '../run-verdict.ts';
import type { BroughtUp } from './bring-up.ts';

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
