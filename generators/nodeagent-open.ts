/**
 * Node-agent configuration files with one value the spec leaves open (2.5 gaps and the like): valid
 * files otherwise, never a failure; the suite records what a loader does with each value, and each
 * value's decision has a small property of its own so that every one is recorded on every seed.
 */
import fc from 'fast-check';
import type { Profile } from '../reference/profile.ts';
import { validateNodeagentConfig } from '../reference/nodeagent/config.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';
import { baseDoc, inProfile, validConfigArb, withOverlay, type Doc, type NodeagentCase } from './nodeagent.ts';

/** Values the spec leaves open (2.5 gaps and the like), svc names: the suite records what a loader does. */
const OPEN_OVERLAYS: readonly Doc[] = [
  { hairpinMode: 'promiscuous-bridge' },
  { hairpinMode: 'hairpin-veth' },
  { cpuCFSQuotaPeriod: '100ms' },
  { topologyManagerPolicy: 'best-effort' },
  { topologyManagerPolicy: 'single-numa-node' },
  { configMapAndSecretChangeDetectionStrategy: 'Cache' },
  { evictionHard: { 'memory.available': '100Mi' } },
  { evictionSoft: { 'nodefs.available': '15%' }, evictionSoftGracePeriod: { 'nodefs.available': '1m' } },
  { evictionMinimumReclaim: { 'memory.available': '0Mi' } },
  { enforceNodeAllocatable: ['pods'] },
  { allowedUnsafeSysctls: ['net.core.*'] },
  { authorization: { mode: 'AlwaysAllow' } },
  { registerWithTaints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] },
  { systemCgroups: '/system.slice' },
  { reservedSystemCPUs: null },
  { shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '30s' },
  { podsPerCore: 111, maxPods: 110 },
  { podsPerCore: 11, maxPods: 10 },
  { systemReserved: { memory: 'lots' } },
  { svcReserved: { cpu: 'half' } },
  { systemCgroups: '/system.slice', cgroupRoot: '' },
  { registerNode: false, registerWithTaints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] },
  { cgroupsPerQOS: false },
  { memorySwap: { swapBehavior: 'LimitedSwap' } },
  { qosReserved: { memory: '50%' } },
  { memoryThrottlingFactor: 0.5 },
];

/** A valid file with one value the spec leaves open (one of the pool, or the given one): never a failure, the report records the answer. */
export function openConfigArb(p: Profile, onlyOverlay?: number): fc.Arbitrary<NodeagentCase> {
  const overlays = onlyOverlay === undefined ? OPEN_OVERLAYS : [OPEN_OVERLAYS[onlyOverlay]!];
  return fc
    .record({ valid: validConfigArb(p), open: fc.constantFrom(...overlays) })
    .map(({ valid, open }) => ({ doc: onValidBase(valid.doc, inProfile(open, p)) }));
}

function onValidBase(valid: Doc, overlay: Doc): Doc {
  const rest = Object.fromEntries(
    Object.entries(valid).filter(
      ([k]) =>
        !(k in overlay) &&
        !['cgroupRoot', 'featureGates', 'enforceNodeAllocatable', 'shutdownGracePeriodByPodPriority', 'registerNode'].includes(k),
    ),
  );
  return withOverlay(rest, overlay);
}

export interface OpenDecision {
  /** The first decision the model leaves open for the value, alone in a file of defaults. */
  readonly clause: ClauseId;
  /** Its place in the pool (`openConfigArb(p, overlay)`). */
  readonly overlay: number;
}

/**
 * Every open value of the pool with the decision it is recorded under. One small property per value
 * keeps each recorded at the default budget: drawn from the whole pool, 25 files leave some of the
 * pool's decisions unseen on most seeds, and a report's coverage would move with the seed.
 */
export function openDecisions(p: Profile): OpenDecision[] {
  return OPEN_OVERLAYS.map((overlay, i) => {
    const first = validateNodeagentConfig(onValidBase(baseDoc(p), inProfile(overlay, p)), p).unspecified[0];
    if (!first) throw new Error(`open overlay ${JSON.stringify(overlay)}: the model leaves nothing open`);
    return { clause: first.clause, overlay: i };
  });
}
