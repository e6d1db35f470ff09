/**
 * Planted faults of the reference node-agent loader: each drops or bends one rule of the model, so the
 * self-tests can show the suite notices (test/oracle/nodeagent-faults.test.ts). `skip` names model rule
 * ids (reference/nodeagent/config.ts ValidateOptions.skip); the others change the loader's output.
 */
import { catalog } from '../../reference/catalog/index.ts';
import { configFields } from '../../reference/nodeagent/config-fields.ts';
import { profiles } from '../../reference/profile.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { nodeagentFieldFaults } from './field-faults.ts';
import type { NodeagentFault } from './fault-type.ts';
import { nodeagentDefaultFaults } from './default-faults.ts';

export type { NodeagentFault } from './fault-type.ts';

const INVALID = ['nodeagent-invalid-configs'];
const VALID = ['nodeagent-valid-configs'];
const CREDENTIALS = ['nodeagent-credential-providers'];
const FIELD_TYPES = 'nodeagent-field-types';
/** The deterministic check of every edge file of a clause (generators/nodeagent-edges.ts): it sees the fault on every seed. */
// Spelled as suites/checks/nodeagent.ts nodeagentEdgeCheckId spells it (targets do not import suites).
const edges = (...clauses: ClauseId[]) =>
  clauses.map((c) => `nodeagent-edges-${c.replace(/^node:[\d.]+\//, '').replace(/[^A-Za-z0-9]+/g, '-')}`);

// Any path below a top-level field: a nested type's member, a list index, a map key, a provider's field.
const nestedClauses = catalog.filter((c) => /^node:2\.[1234]\//.test(c.id)).map((c) => c.id);

/** The clauses of the top-level int32 fields: where a wrapped value can pass for a valid one. */
const int32Clauses = configFields.filter((f) => f.type.kind === 'scalar' && f.type.scalar === 'int32').map((f) => f.clause);

/** Top-level fields 2.5 shows no values for (no sample a valid file could carry): hairpinMode, the eviction maps... */
const unshownFields = configFields.filter((f) => f.def.kind === 'gap' && f.samples(profiles.svc).length === 0);

const configClauses = catalog.filter((c) => /^node:2\.[234]\//.test(c.id)).map((c) => c.id);

export const nodeagentFaults = [
  {
    name: 'gc-thresholds-unordered',
    clauses: ['node:2.2/imageGCHighThresholdPercent'],
    description: 'accepts an image GC high threshold not above the low one',
    skip: ['image-gc-order'],
    checks: [...INVALID, ...edges('node:2.2/imageGCHighThresholdPercent')],
  },
  {
    name: 'negative-max-pods',
    clauses: ['node:2.2/maxPods'],
    description: 'accepts a negative maxPods',
    skip: ['range:maxPods'],
    checks: [...INVALID, ...edges('node:2.2/maxPods')],
  },
  {
    name: 'port-zero',
    clauses: ['node:2.2/port'],
    description: 'accepts port 0 and ports above 65535',
    skip: ['range:port'],
    checks: [...INVALID, ...edges('node:2.2/port')],
  },
  {
    name: 'oom-score-unbounded',
    clauses: ['node:2.2/oomScoreAdj'],
    description: 'accepts oomScoreAdj outside [-1000, 1000]',
    skip: ['range:oomScoreAdj'],
    checks: [...INVALID, ...edges('node:2.2/oomScoreAdj')],
  },
  {
    name: 'iptables-bits-shared',
    clauses: ['node:2.2/iptablesMasqueradeBit'],
    description: 'accepts equal masquerade and drop bits',
    skip: ['iptables-bits-distinct'],
    checks: [...INVALID, ...edges('node:2.2/iptablesMasqueradeBit')],
  },
  {
    name: 'max-images-minus-two',
    clauses: ['node:2.2/nodeStatusMaxImages'],
    description: 'accepts nodeStatusMaxImages below -1',
    skip: ['range:nodeStatusMaxImages'],
    checks: [...INVALID, ...edges('node:2.2/nodeStatusMaxImages')],
  },
  {
    name: 'lease-zero',
    clauses: ['node:2.2/nodeLeaseDurationSeconds'],
    description: 'accepts a lease duration of 0',
    skip: ['range:nodeLeaseDurationSeconds'],
    checks: [...INVALID, ...edges('node:2.2/nodeLeaseDurationSeconds')],
  },
  {
    name: 'priority-shutdown-not-exclusive',
    clauses: ['node:2.2/shutdownGracePeriodByPodPriority'],
    description: 'accepts per-priority periods beside shutdownGracePeriod',
    skip: ['shutdown-priority-exclusive'],
    checks: [...INVALID, ...edges('node:2.2/shutdownGracePeriodByPodPriority')],
  },
  {
    name: 'critical-above-total',
    clauses: ['node:2.2/shutdownGracePeriodCriticalPods'],
    description: 'accepts a critical-pod period above the total',
    skip: ['shutdown-critical-below-total'],
    checks: [...INVALID, ...edges('node:2.2/shutdownGracePeriodCriticalPods')],
  },
  {
    name: 'reserved-cpus-with-cgroups',
    clauses: ['node:2.2/reservedSystemCPUs'],
    description: 'accepts reservedSystemCPUs beside a reserved cgroup',
    skip: ['reserved-cpus-vs-cgroups'],
    checks: [...INVALID, ...edges('node:2.2/reservedSystemCPUs')],
  },
  {
    name: 'any-hidden-metrics-version',
    clauses: ['node:2.2/showHiddenMetricsForVersion'],
    description: 'accepts any showHiddenMetricsForVersion',
    skip: ['hidden-metrics-previous-minor'],
    checks: [...INVALID, ...edges('node:2.2/showHiddenMetricsForVersion')],
  },
  { name: 'any-kind', clauses: ['node:2.2/kind'], description: 'accepts any apiVersion and kind', skip: ['kind'], checks: INVALID },
  {
    name: 'cgroup-driver-any',
    clauses: ['node:2.2/cgroupDriver'],
    description: 'accepts any cgroupDriver',
    skip: ['range:cgroupDriver'],
    checks: [...INVALID, ...edges('node:2.2/cgroupDriver')],
  },
  {
    name: 'swap-behavior-any',
    clauses: ['node:2.2/memorySwap'],
    description: 'accepts any memorySwap.swapBehavior',
    skip: ['range:swapBehavior'],
    checks: [...INVALID, ...edges('node:2.2/memorySwap')],
  },
  {
    name: 'lax-scalars',
    clauses: [...configClauses, 'node:2/durations'],
    description: 'accepts values of the wrong type (quoted bools and numbers, bad durations)',
    skip: ['type'],
    checks: [...INVALID, FIELD_TYPES],
  },
  {
    name: 'unshown-fields-any-type',
    clauses: unshownFields.map((f) => f.clause),
    description: `accepts a value of any type in the fields whose values 2.5 does not show (${unshownFields.map((f) => f.name).join(', ')})`,
    skip: unshownFields.map((f) => `type:${f.name}`),
    checks: [FIELD_TYPES],
  },
  {
    name: 'burst-needs-qps',
    clauses: ['node:2.2/registryBurst'],
    description: 'rejects a registryBurst above 0 when registryPullQPS is 0 (the burst is only unused)',
    checks: VALID,
  },
  {
    name: 'gate-default-off',
    clauses: ['node:2.2/qosReserved', 'node:2.2/memoryThrottlingFactor', 'node:2.2/cpuManagerPolicyOptions'],
    description: 'rejects gated fields even when featureGates turns the gate on',
    checks: VALID,
  },
  {
    name: 'report-frequency-ignores-update',
    clauses: ['node:2.2/nodeStatusReportFrequency'],
    description: 'prints nodeStatusReportFrequency 5m even when nodeStatusUpdateFrequency is set',
    checks: VALID,
  },
  {
    name: 'max-pods-default-100',
    clauses: ['node:2.2/maxPods', 'node:8/nodeagent-maxPods'],
    description: 'prints maxPods 100 when it is left out',
    checks: VALID,
  },
  {
    name: 'token-cache-default-5m',
    clauses: ['node:2.3/NodeagentAuthentication.webhook', 'node:5.1'],
    description: 'prints authentication.webhook.cacheTTL 5m when it is left out',
    checks: VALID,
  },
  {
    name: 'nested-paths-top-level',
    clauses: nestedClauses,
    description: 'names only the top-level field in errors about nested ones',
    checks: [...INVALID, FIELD_TYPES, ...CREDENTIALS],
  },
  {
    name: 'globs-outside-domain',
    clauses: ['node:2.1/matchImages'],
    description: 'accepts matchImages patterns with globs in the port or path',
    skip: ['cp:patterns'],
    checks: [...CREDENTIALS, ...edges('node:2.1/matchImages')],
  },
  // As upstream's kubelet does: one matchImages breaker in three, so the random properties caught it on some seeds only.
  {
    name: 'path-globs-allowed',
    clauses: ['node:2.1/matchImages'],
    description: 'accepts matchImages patterns with a glob in the path (a glob in the port is still refused)',
    skip: ['cp:path-globs'],
    checks: edges('node:2.1/matchImages'),
  },
  // As upstream's kubelet does (ValidateKubeletConfiguration: "either zero or otherwise >= 1 sec"): a valid file refused.
  {
    name: 'sub-second-shutdown-refused',
    clauses: ['node:2.2/shutdownGracePeriod'],
    description: 'refuses a non-zero shutdownGracePeriod under one second (300ms)',
    checks: edges('node:2.2/shutdownGracePeriod'),
  },
  // Section 2's row: durations are written as strings; a loader reading a bare number as one (seconds, say) breaks it.
  {
    name: 'durations-as-numbers',
    clauses: ['node:2/durations'],
    description: 'accepts a duration field written as a number or a bool',
    skip: ['durations-as-numbers'],
    checks: [FIELD_TYPES, ...edges('node:2/durations')],
  },
  {
    name: 'provider-name-optional',
    clauses: ['node:2.1/name'],
    description: 'accepts a credential provider without a name',
    skip: ['cp:name'],
    checks: [...CREDENTIALS, ...edges('node:2.1/name')],
  },
  {
    name: 'cache-duration-optional',
    clauses: ['node:2.1/defaultCacheDuration'],
    description: 'accepts a credential provider without defaultCacheDuration (as if it defaulted to 0)',
    skip: ['cp:cache-duration'],
    checks: [...CREDENTIALS, ...edges('node:2.1/defaultCacheDuration')],
  },
  // Boundary inputs: an integer past int32 cut to 32 bits, as a C-style or unchecked parse does.
  {
    name: 'int32-wraps',
    clauses: int32Clauses,
    description: 'reads an int32 field past its range modulo 2^32 (4294977546 becomes port 10250) instead of refusing it',
    checks: edges(...int32Clauses),
  },
] as const satisfies readonly NodeagentFault[];

/** A fault of the table above, or one of the per-field families (field-faults.ts, default-faults.ts). */
export type NodeagentFaultName =
  | (typeof nodeagentFaults)[number]['name']
  | `type-ignored/${string}`
  | `range-ignored/${string}`
  | `default-changed/${string}`
  | `credential-rule-skipped/${string}`;

/** Every fault name `nodeagentFault` knows: what `--nodeagent-fault` accepts. */
export const nodeagentFaultNames: ReadonlySet<string> = new Set(
  [...nodeagentFaults, ...nodeagentFieldFaults, ...nodeagentDefaultFaults].map((f) => f.name),
);

export function nodeagentFault(name: string): NodeagentFault | undefined {
  return (
    (nodeagentFaults as readonly NodeagentFault[]).find((f) => f.name === name) ??
    nodeagentFieldFaults.find((f) => f.name === name) ??
    nodeagentDefaultFaults.find((f) => f.name === name)
  );
}
