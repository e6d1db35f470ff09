/**
 * Cross-field rules of NodeagentConfiguration (spec 2.2 notes, 8 limits), each with its id (the
 * reference loader's planted faults skip one by id), its clause and examples that break it and keep it
 * (the generators and the model tests use both; the docs table lists them).
 */
import type { Profile } from '../profile.ts';
import { nanosOf } from './config-types.ts';
import type { MinorVersion } from './minor-version.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export interface RuleContext {
  /** Fields of the right type, by svc name. */
  readonly typed: ReadonlyMap<string, unknown>;
  readonly profile: Profile;
  readonly gates: Readonly<Record<string, unknown>>;
  readonly version: MinorVersion;
  /** svc name -> name in the file under the profile. */
  readonly path: (svcName: string) => string;
}

export interface RuleFinding {
  readonly level: 'error' | 'unspecified';
  readonly field: string;
  readonly message: string;
  readonly related?: readonly string[];
}

export interface CrossRule {
  readonly id: string;
  readonly clause: ClauseId;
  readonly summary: string;
  /** svc names of the fields the rule reads (a generator keeps other values of them out of a case). */
  readonly fields: readonly string[];
  readonly check: (ctx: RuleContext) => RuleFinding[];
  /** Overlays (svc names) that break the rule and nothing else, with every other field at its default. */
  readonly breaks: readonly Record<string, unknown>[];
  /** Overlays that keep it, near the edge. */
  readonly keeps: readonly Record<string, unknown>[];
}

const num = (ctx: RuleContext, name: string, dflt: number): number => {
  const v = ctx.typed.get(name);
  return typeof v === 'number' ? v : dflt;
};
const str = (ctx: RuleContext, name: string): string | undefined => {
  const v = ctx.typed.get(name);
  return typeof v === 'string' ? v : undefined;
};
const dur = (ctx: RuleContext, name: string): bigint => (ctx.typed.has(name) ? nanosOf(ctx.typed.get(name)) : 0n);
const list = (ctx: RuleContext, name: string): unknown[] => {
  const v = ctx.typed.get(name);
  return Array.isArray(v) ? v : [];
};
const error = (field: string, message: string, related?: string[]): RuleFinding => ({ level: 'error', field, message, related });

export const crossRules: readonly CrossRule[] = [
  {
    id: 'image-gc-order',
    clause: 'node:2.2/imageGCHighThresholdPercent',
    summary: 'imageGCHighThresholdPercent must exceed imageGCLowThresholdPercent',
    fields: ['imageGCHighThresholdPercent', 'imageGCLowThresholdPercent'],
    check: (ctx) => {
      const high = num(ctx, 'imageGCHighThresholdPercent', 85);
      const low = num(ctx, 'imageGCLowThresholdPercent', 80);
      if (high > low) return [];
      const [h, l] = [ctx.path('imageGCHighThresholdPercent'), ctx.path('imageGCLowThresholdPercent')];
      return [
        ctx.typed.has('imageGCHighThresholdPercent')
          ? error(h, `high threshold ${high} is not above the low threshold ${low}`, [l])
          : error(l, `low threshold ${low} is not below the high threshold ${high}`, [h]),
      ];
    },
    breaks: [
      { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 50 },
      { imageGCHighThresholdPercent: 10, imageGCLowThresholdPercent: 20 },
    ],
    keeps: [
      { imageGCHighThresholdPercent: 51, imageGCLowThresholdPercent: 50 },
      { imageGCHighThresholdPercent: 100, imageGCLowThresholdPercent: 0 },
    ],
  },
  {
    id: 'registry-burst-unused',
    clause: 'node:2.2/registryBurst',
    summary: 'registryBurst is used only when registryPullQPS > 0: with QPS 0 any non-negative burst is accepted',
    fields: ['registryBurst', 'registryPullQPS'],
    check: () => [],
    breaks: [],
    keeps: [
      { registryPullQPS: 0, registryBurst: 0 },
      { registryPullQPS: 0, registryBurst: 1000 },
      { registryPullQPS: 100, registryBurst: 1 },
    ],
  },
  {
    id: 'pods-per-core',
    clause: 'node:2.2/podsPerCore',
    // "Not above maxPods" bounds what the agent runs, not what a file may say: upstream caps the pod
    // capacity at min(podsPerCore x cores, maxPods) (pkg/kubelet/kubelet_node_status.go). A
    // run-time cap rather than a validity rule in the spec's words lets a loader accept the file.
    summary: 'podsPerCore above maxPods: open (a run-time cap; a loader may refuse the file or accept it and cap)',
    fields: ['podsPerCore', 'maxPods'],
    check: (ctx) => {
      const ppc = num(ctx, 'podsPerCore', 0);
      const max = num(ctx, 'maxPods', 110);
      return ppc > max && max >= 0
        ? [
            {
              level: 'unspecified',
              field: ctx.path('podsPerCore'),
              message: `podsPerCore ${ppc} is above maxPods ${max}: "not above maxPods" caps the pods run, the spec does not say the file is refused`,
              related: [ctx.path('maxPods')],
            },
          ]
        : [];
    },
    breaks: [],
    keeps: [
      { podsPerCore: 10, maxPods: 10 },
      { podsPerCore: 0, maxPods: 0 },
    ],
  },
  {
    id: 'shutdown-critical-below-total',
    clause: 'node:2.2/shutdownGracePeriodCriticalPods',
    summary: 'shutdownGracePeriodCriticalPods less than shutdownGracePeriod (equal and non-zero: unspecified; both 0s: the defaults)',
    fields: ['shutdownGracePeriodCriticalPods', 'shutdownGracePeriod'],
    check: (ctx) => {
      const crit = dur(ctx, 'shutdownGracePeriodCriticalPods');
      const total = dur(ctx, 'shutdownGracePeriod');
      const f = ctx.path('shutdownGracePeriodCriticalPods');
      if (crit > total) return [error(f, `critical-pod period is above the total shutdown period`, [ctx.path('shutdownGracePeriod')])];
      if (crit === total && total > 0n)
        return [
          {
            level: 'unspecified',
            field: f,
            message: 'equal to shutdownGracePeriod: "less than" read strictly refuses it, upstream accepts it',
          },
        ];
      return [];
    },
    breaks: [{ shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '11s' }, { shutdownGracePeriodCriticalPods: '1s' }],
    keeps: [
      { shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' },
      { shutdownGracePeriod: '1m', shutdownGracePeriodCriticalPods: '59s' },
    ],
  },
  {
    id: 'shutdown-priority-exclusive',
    clause: 'node:2.2/shutdownGracePeriodByPodPriority',
    summary: 'shutdownGracePeriodByPodPriority empty when shutdownGracePeriod or shutdownGracePeriodCriticalPods is set',
    fields: ['shutdownGracePeriodByPodPriority', 'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods'],
    check: (ctx) => {
      if (list(ctx, 'shutdownGracePeriodByPodPriority').length === 0) return [];
      if (dur(ctx, 'shutdownGracePeriod') === 0n && dur(ctx, 'shutdownGracePeriodCriticalPods') === 0n) return [];
      return [
        error(
          ctx.path('shutdownGracePeriodByPodPriority'),
          'must be empty when shutdownGracePeriod or shutdownGracePeriodCriticalPods is set',
          [ctx.path('shutdownGracePeriod'), ctx.path('shutdownGracePeriodCriticalPods')],
        ),
      ];
    },
    breaks: [{ shutdownGracePeriod: '30s', shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }] }],
    keeps: [
      { shutdownGracePeriod: '0s', shutdownGracePeriodByPodPriority: [{ priority: 0, shutdownGracePeriodSeconds: 30 }] },
      { shutdownGracePeriod: '30s', shutdownGracePeriodByPodPriority: [] },
    ],
  },
  {
    id: 'system-cgroups-need-root',
    clause: 'node:2.2/systemCgroups',
    // "needs cgroupRoot when set" says when the field has effect; it does not oblige a loader to refuse
    // it without. Upstream refuses it (pkg/kubelet/apis/config/validation/validation.go).
    summary: 'systemCgroups without cgroupRoot: open ("needs X" says when the field has effect; refusing and ignoring are both allowed)',
    fields: ['systemCgroups', 'cgroupRoot'],
    check: (ctx) => {
      if (!str(ctx, 'systemCgroups')) return [];
      const root = str(ctx, 'cgroupRoot');
      const f = ctx.path('systemCgroups');
      if (root === '')
        return [
          {
            level: 'unspecified',
            field: f,
            message: 'systemCgroups set with an empty cgroupRoot: "needs cgroupRoot" does not say the file is refused',
            related: [ctx.path('cgroupRoot')],
          },
        ];
      if (root === undefined)
        return [
          {
            level: 'unspecified',
            field: f,
            message: 'systemCgroups set with cgroupRoot left out: the default of cgroupRoot is not shown (2.5)',
          },
        ];
      return [];
    },
    breaks: [],
    keeps: [{ systemCgroups: '/system.slice', cgroupRoot: '/' }],
  },
  {
    id: 'reserved-cpus-vs-cgroups',
    clause: 'node:2.2/reservedSystemCPUs',
    summary: 'reservedSystemCPUs incompatible with systemReservedCgroup and svcReservedCgroup',
    fields: ['reservedSystemCPUs', 'systemReservedCgroup', 'svcReservedCgroup'],
    check: (ctx) => {
      if (!str(ctx, 'reservedSystemCPUs')) return [];
      const set = ['systemReservedCgroup', 'svcReservedCgroup'].filter((n) => str(ctx, n));
      return set.length === 0
        ? []
        : [
            error(
              ctx.path('reservedSystemCPUs'),
              `reservedSystemCPUs cannot be combined with ${set.map(ctx.path).join(' and ')}`,
              set.map(ctx.path),
            ),
          ];
    },
    breaks: [
      { reservedSystemCPUs: '0-1', systemReservedCgroup: '/system.slice' },
      { reservedSystemCPUs: '0', svcReservedCgroup: '/svc.slice' },
    ],
    keeps: [
      { reservedSystemCPUs: '0-1', systemReservedCgroup: '' },
      { reservedSystemCPUs: '', systemReservedCgroup: '/system.slice' },
    ],
  },
  {
    id: 'iptables-bits-distinct',
    clause: 'node:2.2/iptablesMasqueradeBit',
    summary: 'iptablesMasqueradeBit and iptablesDropBit distinct',
    fields: ['iptablesMasqueradeBit', 'iptablesDropBit'],
    check: (ctx) => {
      const m = num(ctx, 'iptablesMasqueradeBit', 14);
      const d = num(ctx, 'iptablesDropBit', 15);
      return m === d
        ? [error(ctx.path('iptablesMasqueradeBit'), `masquerade bit and drop bit are both ${m}`, [ctx.path('iptablesDropBit')])]
        : [];
    },
    breaks: [{ iptablesMasqueradeBit: 3, iptablesDropBit: 3 }, { iptablesDropBit: 14 }],
    keeps: [{ iptablesMasqueradeBit: 3, iptablesDropBit: 4 }],
  },
  {
    id: 'hidden-metrics-previous-minor',
    clause: 'node:2.2/showHiddenMetricsForVersion',
    summary: 'showHiddenMetricsForVersion is <major>.<minor> of the previous minor version (1.23 for the reference v1.24)',
    fields: ['showHiddenMetricsForVersion'],
    check: (ctx) => {
      const v = str(ctx, 'showHiddenMetricsForVersion');
      if (v === undefined || v === '') return [];
      const prev = `${ctx.version.major}.${ctx.version.minor - 1}`;
      const f = ctx.path('showHiddenMetricsForVersion');
      if (!/^[0-9]+\.[0-9]+$/.test(v)) return [error(f, `${JSON.stringify(v)} is not <major>.<minor>`)];
      return v === prev ? [] : [error(f, `${v} is not the previous minor version ${prev}`)];
    },
    breaks: [{ showHiddenMetricsForVersion: '1.24' }, { showHiddenMetricsForVersion: '1.22' }, { showHiddenMetricsForVersion: 'v1.23' }],
    keeps: [{ showHiddenMetricsForVersion: '1.23' }],
  },
  {
    id: 'register-taints-need-register',
    clause: 'node:2.2/registerWithTaints',
    // "only with registerNode true" says when the taints have effect, not that a loader must refuse them
    // without; upstream ignores them (pkg/kubelet/kubelet_node_status.go registers no node).
    summary: 'registerWithTaints with registerNode false: open ("only with X" says when the field has effect)',
    fields: ['registerWithTaints', 'registerNode'],
    check: (ctx) =>
      list(ctx, 'registerWithTaints').length > 0 && ctx.typed.get('registerNode') === false
        ? [
            {
              level: 'unspecified',
              field: ctx.path('registerWithTaints'),
              message: 'registerWithTaints set with registerNode false: "only with registerNode true" does not say the file is refused',
              related: [ctx.path('registerNode')],
            },
          ]
        : [],
    breaks: [],
    keeps: [{ registerNode: false, registerWithTaints: [] }],
  },
  {
    id: 'qos-cgroups-vs-enforcement',
    clause: 'node:2.2/cgroupsPerQOS',
    summary:
      'cgroupsPerQOS false with enforceNodeAllocatable left out: open (the enforcement default is a gap; upstream\'s "pods" needs QoS cgroups)',
    fields: ['cgroupsPerQOS', 'enforceNodeAllocatable'],
    check: (ctx) =>
      ctx.typed.get('cgroupsPerQOS') === false && !ctx.typed.has('enforceNodeAllocatable')
        ? [
            {
              level: 'unspecified',
              field: ctx.path('cgroupsPerQOS'),
              message: 'whether QoS cgroups may be off depends on the default of enforceNodeAllocatable, not shown (2.5)',
            },
          ]
        : [],
    breaks: [],
    keeps: [{ cgroupsPerQOS: true }],
  },
  {
    id: 'gated-fields-with-gate',
    clause: 'node:2.2/qosReserved',
    summary: 'a field that needs a gate is accepted when the gate is on (by default or in featureGates)',
    fields: ['qosReserved', 'featureGates', 'memoryThrottlingFactor', 'topologyManagerScope', 'shutdownGracePeriodByPodPriority'],
    check: () => [],
    breaks: [],
    keeps: [
      { featureGates: { QOSReserved: true }, qosReserved: { memory: '50%' } },
      { featureGates: { MemoryQoS: true }, memoryThrottlingFactor: 0.5 },
      { topologyManagerScope: 'pod' },
      { featureGates: { CPUManager: true }, cpuManagerReconcilePeriod: '5s' },
      { featureGates: { NodeSwap: true }, memorySwap: { swapBehavior: 'LimitedSwap' } },
      { featureGates: { NodeSwap: true }, memorySwap: { swapBehavior: 'UnlimitedSwap' } },
    ],
  },
];

export function ruleById(id: string): CrossRule {
  const r = crossRules.find((x) => x.id === id);
  if (!r) throw new Error(`no cross rule ${id}`);
  return r;
}
