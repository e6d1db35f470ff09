/** The node-agent config loader a run tests, decided before its checks start. */
import type { Profile } from '../reference/profile.ts';
import { ConfigError } from '../harness/transport/index.ts';
import type { NodeagentLoaderSettings } from '../harness/processes/index.ts';
import { embeddedLoader } from '../targets/nodeagent-loader/embedded.ts';
import { nodeagentFault, nodeagentFaults, type NodeagentFaultName } from '../targets/nodeagent-loader/faults.ts';

/**
 * `run --nodeagent-loader CMD`: that command; without it the embedded reference loader when the API
 * target is embedded too (a run against a real cluster does not judge our own loader), else none.
 */
export function nodeagentLoaderSettings(
  o: { nodeagentLoader?: string; nodeagentFault?: string[] },
  externalServer: boolean,
  profile: Profile,
): { settings?: NodeagentLoaderSettings; description: string | null } {
  const faults = o.nodeagentFault ?? [];
  for (const f of faults) if (!nodeagentFault(f)) throw new ConfigError(`unknown node-agent fault ${f}; known: ${nodeagentFaults.map((x) => x.name).join(', ')}`);
  if (o.nodeagentLoader !== undefined) {
    if (faults.length > 0) throw new ConfigError('--nodeagent-fault applies to the embedded node-agent loader only');
    if (o.nodeagentLoader.trim() === '') throw new ConfigError('--nodeagent-loader needs a command');
    return { settings: { command: o.nodeagentLoader }, description: o.nodeagentLoader };
  }
  if (externalServer && faults.length === 0) return { description: null };
  return { settings: { faults }, description: embeddedLoader(profile, faults as NodeagentFaultName[]).description };
}
