/**
 * The clients of the probes before the checks, each request bounded. Opened before the probe phase
 * (runner/phases/probe.ts): its namespace setup goes through the same guard, and the capability probe
 * (runner/phases/capability-probe.ts) works in that namespace instead of creating one more.
 */
import type { TargetConfig } from '../../harness/transport/index.ts';
import { openProbeClients } from '../env.ts';
import type { RunPlan } from '../plan.ts';

/** Longest any one probe request may take: the probe is a few requests, never a run of its own. */
const PROBE_REQUEST_TIMEOUT_MS = 10_000;

export type ProbeClients = ReturnType<typeof openProbeClients>;

/** The caller closes them. */
export function openCapabilityClients(plan: RunPlan, cfg: TargetConfig): ProbeClients {
  return openProbeClients(cfg, plan.runId, plan.profile, PROBE_REQUEST_TIMEOUT_MS);
}
