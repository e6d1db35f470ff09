/**
 * The one executor of a run plan (runner/plan.ts): a chain of phases, each a function of the plan and
 * what the phase before it produced (runner/phases/). Bring-up starts or reads the targets, the probe
 * asks the target whether the run can work with it, the capability map splits the selection, the
 * stages run the checks, settling confirms or reproduces their failures, and the finish sweeps what the
 * run left, publishes and decides the exit code. The command line, the self-tests' in-process runs,
 * `npm run mutation` and the benches all run checks through it, in this process
 * (runner/check-stage.ts); what differs is their plan and what watches the run (`RunIO`).
 * A `compare` plan (runner/compare-plan.ts) runs through the same bring-up and probe, once per side,
 * with the lockstep of both servers as its stage (`executeCompare`).
 */
import { within } from './run-stop.ts';
import type { RunPlan } from './plan.ts';
import type { RunIO, RunOutcome } from './executed-run.ts';
import { bringUp } from './phases/bring-up.ts';
import { probeTarget, type Probed } from './phases/probe.ts';
import { openProbeClients, PROBE_REQUEST_TIMEOUT_MS } from './env.ts';
import { capabilityGate } from './phases/capability-probe.ts';
import type { CapabilityGate } from './capability-gate.ts';
import { runStages } from './phases/stages.ts';
import { settleFailures } from './phases/settle.ts';
import { finishRun } from './phases/finish.ts';
import { refusedRun } from './phases/refused.ts';
import { armStop } from './phases/stop.ts';
import type { ComparePlan } from './compare-plan.ts';
import type { CompareIO } from './executed-compare.ts';
import { bringUpSides } from './phases/compare-sides.ts';
import { runLockstepStage } from './phases/lockstep-stage.ts';
import { version } from './version.ts';

export { EXIT, type RunVerdict } from './run-verdict.ts';
export type { ExecutedRun, RunIO, RunOutcome, RunEdge, RunSignals, ReachedTarget } from './executed-run.ts';
export { loadExternalTarget, readText } from './target-files.ts';
export { version } from './version.ts';
export type { CompareEdge, CompareIO, ExecutedCompare } from './executed-compare.ts';

/** How long stopping the daemon's private server and the embedded target may take at the end. */
const CLEANUP_LIMIT_MS = 15_000;

export async function executeRun(plan: RunPlan, io: RunIO): Promise<RunOutcome> {
  const started = Date.now();
  const up = await bringUp(plan);
  const stop = armStop(plan, started, io.edge?.signals, io.log);
  try {
    // One guard for both probes: the capability probe works in the namespace the setup probe made.
    const probes = openProbeClients(up.target, plan.runId, plan.profile, PROBE_REQUEST_TIMEOUT_MS);
    let probed: Probed;
    let gate: CapabilityGate | undefined;
    try {
      probed = await probeTarget(plan, up, io, probes.guarded);
      gate = probed.refused === undefined ? await capabilityGate(plan, probes, probed.setupNamespace, up.settings, io.log) : undefined;
    } finally {
      await probes.close();
    }
    if (probed.refused !== undefined) return await refusedRun(plan, up, started, probed.refused, io);
    const { known } = probed;
    const staged = await runStages(plan, up, { gate, known, stop, started, stage: io.stage, log: io.log });
    const records = await settleFailures(plan, up, { staged, stage: io.stage, known, stop, started, log: io.log });
    // After settling: the map's findings are not replayed, the probe asked once.
    if (gate !== undefined) records.push(...gate.records);
    io.edge?.checksDone();
    return await finishRun(plan, up, { records, staged, gate, known, stop, started }, io);
  } finally {
    stop.dispose();
    // Bounded: a server that waits on a client that never hangs up must not keep the run alive.
    await within(up.close(), CLEANUP_LIMIT_MS);
  }
}

/** A `compare` plan: both sides up and probed, their lockstep as the stage, the result to the edge; returns the exit code. */
export async function executeCompare(plan: ComparePlan, io: CompareIO): Promise<number> {
  const startedAt = new Date();
  const up = await bringUpSides(plan);
  try {
    const [ta, tb] = up.sides;
    io.log(
      `svc-conformance compare ${version()}: target ${ta.label}, reference ${tb.label}; seed ${plan.seed}, ${plan.runs} cases per check, ${plan.selected.length} checks`,
    );
    const staged = await runLockstepStage(plan, up, io.log);
    const side = (s: typeof ta) => ({ server: s.cfg.server, profile: s.profile.name, label: s.label });
    return await io.edge.publish({
      plan,
      target: side(ta),
      reference: side(tb),
      ...staged,
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
    });
  } finally {
    await within(up.close(), CLEANUP_LIMIT_MS);
  }
}
