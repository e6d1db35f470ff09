/**
 * The third phase: the capability map, before any check. What the target serves splits the selection
 * (runner/capability-gate.ts): checks that need a feature the target lacks are not run.
 */
import type { TargetSettings } from '../../harness/case/index.ts';
import { probeCapabilities } from '../../harness/interpreters/index.ts';
import { gateChecks, type CapabilityGate } from '../capability-gate.ts';
import type { RunPlan } from '../plan.ts';
import type { ProbeClients } from '../env.ts';

/** Longest the whole probe may take: a target that holds connections gets its run, not a stall before it. */
const PROBE_LIMIT_MS = 30_000;

/** Nothing when no API suite is selected or the run replays one counterexample. `namespace`: the setup probe's, made through `clients.guarded`. */
export async function capabilityGate(
  plan: RunPlan,
  clients: ProbeClients,
  namespace: string | undefined,
  settings: TargetSettings,
  log: (line: string) => void,
): Promise<CapabilityGate | undefined> {
  const chosen = plan.selection.selected;
  if (plan.capabilityProbe === false || plan.path !== undefined || !chosen.some((c) => c.suite.startsWith('rest-'))) return undefined;
  try {
    let timer: NodeJS.Timeout | undefined;
    // The wait for a new type to be served is the run's eventual window, spent once here.
    const limitMs = PROBE_LIMIT_MS + settings.eventualWindowMs;
    const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limitMs)));
    const probing = probeCapabilities(clients.guarded, clients.plain, {
      profile: plan.profile,
      runId: plan.runId,
      watchWaitMs: settings.watchWaitMs,
      typeWaitMs: settings.eventualWindowMs,
      namespace,
    });
    const map = await Promise.race([probing, bound]);
    clearTimeout(timer);
    if (map === 'late') {
      log(`svc-conformance: capability probe undecided (no map within ${Math.round(limitMs / 1000)} s); every check runs`);
      return undefined;
    }
    return gateChecks(chosen, map, { seed: plan.seed, replay: plan.replayCommand, runLabel: plan.profile.runLabel, runId: plan.runId });
  } catch (e) {
    // A probe that breaks decides nothing: every check runs and finds out for itself.
    log(`svc-conformance: capability probe undecided (${e instanceof Error ? e.message : String(e)}); every check runs`);
    return undefined;
  }
}
