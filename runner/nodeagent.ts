/** The node-agent config loader a run tests, decided before its checks start. */
import type { NodeagentLoaderSettings } from '../harness/processes/index.ts';
import { embeddedLoaderDescription } from '../targets/nodeagent-loader/embedded.ts';
import type { RunPlan } from './plan.ts';

/**
 * `run --nodeagent-loader CMD`: that command; without it the embedded reference loader when the API
 * target is embedded too (a run against a real cluster does not judge our own loader), else none. The
 * plan has refused unknown faults, faults with a command and an empty command (runner/plan.ts).
 */
export function nodeagentLoaderSettings(plan: RunPlan): { settings?: NodeagentLoaderSettings; description: string | null } {
  const { loader, faults } = plan.nodeagent;
  if (loader !== undefined) return { settings: { command: loader }, description: loader };
  if (plan.target.kind === 'external' && faults.length === 0) return { description: null };
  return { settings: { faults: [...faults] }, description: embeddedLoaderDescription(faults) };
}
