/**
 * The sweep of what the run left, bounded. A stopped run waits less for its deletes to take effect (it
 * must end within bounds), and a hurried one not at all: it lists what is there and goes.
 */
import { HURRIED_LISTING_MS, STOPPED_CLEANUP_MS, within, type StopReason } from '../run-stop.ts';
import type { RunPlan } from '../plan.ts';
import { cleanupRuns, leftoverLines, sweepRun, type SweepResult } from '../sweep.ts';
import type { BroughtUp } from './bring-up.ts';
import type { ArmedStop } from './stop.ts';

/** Longest cleanup of an external target: the sweep's own wait plus its requests. */
const SWEEP_LIMIT_MS = 60_000;

/** What the sweep found, and the terminal lines naming what is left (each with its removal command). */
export interface SweptAfter {
  readonly result: SweepResult;
  readonly lines: readonly string[];
}

export async function sweepAfter(
  plan: RunPlan,
  up: BroughtUp,
  stop: ArmedStop,
  stoppedFor: StopReason | undefined,
  log: (line: string) => void,
): Promise<SweptAfter> {
  const { profile, runId } = plan;
  const external = plan.target.kind === 'external';
  const limitMs = stoppedFor === undefined ? SWEEP_LIMIT_MS : STOPPED_CLEANUP_MS;
  const sweeping = sweepRun(up.target, profile, runId, log, {
    hurry: stop.hurried,
    ...(stoppedFor !== undefined ? { waitMs: STOPPED_CLEANUP_MS - 2_000 } : {}),
  });
  // A listing of its own, whatever the sweep is waiting on (a delete the target holds).
  const listing = async (): Promise<SweepResult | undefined> => {
    const r = await within(cleanupRuns(up.target, profile.runLabel, { runId }, { log, dryRun: true }), HURRIED_LISTING_MS);
    return r === undefined ? undefined : { leftovers: r.leftovers, unverified: r.unverified };
  };
  // The embedded target too: what a hostile fault keeps (a namespace left Terminating) is named.
  const bounded = within(sweeping, limitMs).then((r) => r ?? (stoppedFor !== undefined ? listing() : undefined));
  // The embedded target goes with this process, and all it holds: nothing to list in a hurry.
  const swept = await Promise.race([bounded, stop.hurried.then(() => (external ? listing() : { leftovers: [] }))]);
  const listWith =
    up.cleanupCommand !== undefined ? `${up.cleanupCommand} --dry-run` : `kubectl get namespaces -l ${profile.runLabel}=${runId}`;
  const result = swept ?? {
    leftovers: [],
    unverified:
      stop.hurriedBy !== undefined
        ? `cleanup of run ${runId} was cut short by ${stop.hurriedBy} before it could list what is left; list it with: ${listWith}`
        : `cleanup of run ${runId} did not finish within ${limitMs / 1000} s; list what is left with: ${listWith}`,
  };
  return { result, lines: leftoverLines(result, profile.runLabel, runId, up.cleanupCommand) };
}
