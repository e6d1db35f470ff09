/**
 * Flag sets for the controller daemon suite (node:2.6, 5, 8): valid sets the model accepts, and a valid
 * set plus exactly one violation of a rule the model states. A set is a list of picks (plain data)
 * rendered under a naming profile; fast-check shrinks the list, so a failing case ends as the smallest
 * disagreeing command line. Values are chosen so that the verdict does not depend on what the spec
 * leaves open (the daemon's version, formats other than text that upstream registers as alpha). The
 * one-second boundary of the attach-detach period is its own kind, so a daemon that departs there
 * (upstream 1.24 accepts exactly 1s) fails under a stable check id, listed in the expectations.
 */
import fc from 'fast-check';
import {
  flagName,
  gateName,
  gates,
  knownControllers,
  lifecycleGates,
  optionByName,
  parseFlags,
  ruleOfClause,
} from '../reference/controller-daemon/index.ts';
import type { ProfileName } from '../reference/profile.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

/** One or more `--option=value` words; options by their svc name. */
export interface FlagPick {
  readonly flags: readonly (readonly [option: string, value: string])[];
}

export interface Violation extends FlagPick {
  /** The clause a daemon breaks by accepting it. */
  readonly clause: ClauseId;
  readonly rule: string;
  /** Words after the flags, as typed (syntax violations: a stray argument, an unknown flag). */
  readonly words?: readonly string[];
}

export function renderPick(p: FlagPick & { words?: readonly string[] }, profile: ProfileName): string[] {
  return [...p.flags.map(([o, v]) => `--${flagName(optionByName(o)!, profile)}=${v}`), ...(p.words ?? [])];
}

export const renderPicks = (ps: readonly FlagPick[], profile: ProfileName) => ps.flatMap((p) => renderPick(p, profile));

const one = (option: string, values: readonly string[]): fc.Arbitrary<FlagPick> =>
  fc.constantFrom(...values).map((v) => ({ flags: [[option, v]] }));

/** Any gate the spec names, set either way (GA gates excepted: none are listed today). */
const namedGatePick = (profile: ProfileName): fc.Arbitrary<FlagPick> =>
  fc
    .tuple(fc.constantFrom(...gates.filter((g) => g.named && g.stage !== 'GA').map((g) => gateName(g, profile))), fc.boolean())
    .map(([g, on]) => ({ flags: [['feature-gates', `${g}=${on}`]] }));

/** rest:9.3's life cycle on the gates of node:2.6: one alpha gate enabled and one beta gate that is on by default disabled, in one setting. */
export const gateLifecyclePick = (profile: ProfileName): fc.Arbitrary<FlagPick> => {
  const { enable, disable } = lifecycleGates(profile);
  return fc
    .tuple(fc.constantFrom(...enable), fc.constantFrom(...disable))
    .map(([on, off]) => ({ flags: [['feature-gates', `${on}=true,${off}=false`]] }));
};

/** Any known controller, enabled alone, or disabled from the default set. */
const controllerPick: fc.Arbitrary<FlagPick> = fc
  .tuple(fc.constantFrom(...knownControllers), fc.constantFrom('only', 'minus'))
  .map(([c, how]) => ({ flags: [['controllers', how === 'only' ? c : `*,-${c}`]] }));

/** Valid values per option, kept to the ones whose meaning the spec fixes. */
const validPicks = (profile: ProfileName): readonly fc.Arbitrary<FlagPick>[] => [
  namedGatePick(profile),
  controllerPick,
  one('leader-elect', ['true', 'false']),
  one('leader-elect-lease-duration', ['15s', '20s', '1m0s']),
  one('leader-elect-renew-deadline', ['5s', '10s']),
  one('leader-elect-retry-period', ['1s', '2s']),
  one('leader-elect-resource-lock', ['leases', 'endpointsleases', 'configmapsleases']),
  one('tls-min-version', ['VersionTLS12', 'VersionTLS13']),
  one('tls-cipher-suites', [
    'TLS_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  ]),
  one('controllers', ['*', '*,-job', '*,tokencleaner', 'job,cronjob', '-bootstrapsigner,*']),
  one('feature-gates', ['AllBeta=false', 'CPUManager=false', 'NodeSwap=true', 'AllAlpha=true,NodeSwap=false']),
  one('concurrent-gc-syncs', ['1', '20', '50']),
  one('concurrent-deployment-syncs', ['1', '5', '10']),
  one('attach-detach-reconcile-sync-period', ['2s', '1m0s', '5m0s']),
  one('node-monitor-grace-period', ['40s', '50s']),
  one('terminated-pod-gc-threshold', ['-1', '0', '100', '12500']),
  one('large-cluster-size-threshold', ['0', '50', '500']),
  one('secondary-node-eviction-rate', ['0', '0.01', '0.5']),
  one('horizontal-pod-autoscaler-tolerance', ['0.1', '0.25']),
  one('logging-format', ['text']),
  one('v', ['0', '2', '4']),
  one('profiling', ['true', 'false']),
  one('enable-garbage-collector', ['true']),
  one('authorization-always-allow-paths', ['/healthz', '/healthz,/readyz,/livez,/metrics']),
  one('cluster-signing-duration', ['1h0m0s', '8760h0m0s']),
  fc.constantFrom('10.244.0.0/16', '10.0.0.0/8').map(
    (c): FlagPick => ({
      flags: [
        ['allocate-node-cidrs', 'true'],
        ['cluster-cidr', c],
      ],
    }),
  ),
  fc.constantFrom('10.96.0.0/12', '10.0.0.0/24').map(
    (r): FlagPick => ({
      flags: [
        ['allocate-node-cidrs', 'true'],
        ['cluster-cidr', '10.244.0.0/16'],
        ['service-cluster-ip-range', r],
      ],
    }),
  ),
];

/** Every option a valid set may carry (each pick sampled once: the options of a pick do not vary). */
export function validPickOptions(profile: ProfileName): string[] {
  return [...new Set(validPicks(profile).flatMap((a) => fc.sample(a, { numRuns: 1, seed: 0 })[0]!.flags.map(([o]) => o)))];
}

export function validFlagSet(profile: ProfileName, maxPicks = 4): fc.Arbitrary<FlagPick[]> {
  return fc.array(fc.oneof(...validPicks(profile)), { maxLength: maxPicks }).filter((ps) => {
    const p = parseFlags(renderPicks(ps, profile), profile);
    return p.errors.length === 0 && p.open.length === 0;
  });
}

export interface ViolationKind {
  /** Short name, the suffix of the check id (`daemon-invalid-flags/resource-lock`). */
  readonly name: string;
  readonly clause: ClauseId;
  readonly rule: string;
  readonly arbitrary: fc.Arbitrary<Violation>;
  /**
   * `main-loop`: a control-loop value, which a daemon may refuse when the loop starts after leadership
   * (reference/controller-daemon/rules.ts): the base set then leaves leader election and the controller
   * list at their defaults, so the loop that reads the value runs once the Lease is taken.
   */
  readonly binding: 'refuse' | 'main-loop';
  /** Runs per property when fewer than the check's default suffice (a fixed value). */
  readonly runs?: number;
}

const kind = (
  name: string,
  clause: ClauseId,
  rule: string,
  option: string,
  values: readonly string[],
  extra: readonly (readonly [string, string])[] = [],
): ViolationKind => ({
  name,
  clause,
  rule,
  binding: ruleOfClause(clause)?.binding === 'main-loop' ? 'main-loop' : 'refuse',
  arbitrary: fc.constantFrom(...values).map((v) => ({ clause, rule, flags: [...extra, [option, v] as const] })),
});

/** One violation kind per rule (and per flag syntax the daemon must refuse). */
export const violationKinds: readonly ViolationKind[] = [
  kind(
    'renew-deadline',
    'node:2.6/leader-elect-renew-deadline',
    'renew deadline at most the lease duration',
    'leader-elect-renew-deadline',
    ['16s', '1m0s'],
    [['leader-elect-lease-duration', '15s']],
  ),
  kind('resource-lock', 'node:2.6/leader-elect-resource-lock', 'lock type', 'leader-elect-resource-lock', [
    'endpoints',
    'configmaps',
    'lease',
  ]),
  kind('tls-min-version', 'node:2.6/tls-min-version', 'TLS version name', 'tls-min-version', ['VersionTLS14', 'TLS12']),
  kind('cipher-suites', 'node:2.6/tls-cipher-suites', 'known cipher suites', 'tls-cipher-suites', [
    'TLS_NO_SUCH_SUITE',
    'TLS_AES_128_GCM_SHA256,RC4',
  ]),
  kind('controllers', 'node:2.6/controllers', 'known controller names', 'controllers', ['*,-nosuchcontroller', 'jobs']),
  kind(
    'signing-pairs',
    'node:5/cluster-signing-cert-file',
    'general signing pair excludes the specific pairs',
    'cluster-signing-legacy-unknown-cert-file',
    ['/tmp/legacy.crt'],
    [
      ['cluster-signing-cert-file', '/tmp/ca.crt'],
      ['cluster-signing-key-file', '/tmp/ca.key'],
    ],
  ),
  kind(
    'attach-detach-period',
    'node:8/attach-detach-reconcile-sync-period',
    'must exceed one second',
    'attach-detach-reconcile-sync-period',
    ['500ms', '0s'],
  ),
  // The boundary on its own: exactly one second does not exceed one second. One run: the value is fixed.
  {
    ...kind(
      'attach-detach-period-boundary',
      'node:8/attach-detach-reconcile-sync-period',
      'must exceed one second (exactly 1s is refused)',
      'attach-detach-reconcile-sync-period',
      ['1s'],
    ),
    runs: 1,
  },
  kind('logging-format', 'node:2.6/logging-format', 'text only', 'logging-format', ['xml', 'TEXT']),
  kind('hidden-metrics-version', 'node:2.6/show-hidden-metrics-for-version', 'previous minor only', 'show-hidden-metrics-for-version', [
    '0.1',
    'abc',
  ]),
  kind('feature-gates', 'node:2.6/feature-gates', 'known gates with boolean values', 'feature-gates', [
    'NoSuchGate=true',
    'CPUManager=maybe',
  ]),
  kind('secure-port', 'node:2.6/secure-port', 'a port', 'secure-port', ['70000']),
  kind('int-value', 'node:8/concurrent-gc-syncs', 'an integer', 'concurrent-gc-syncs', ['many', '1.5']),
  kind('duration-value', 'node:2.6/leader-elect-lease-duration', 'a duration with a unit', 'leader-elect-lease-duration', ['15', '1d']),
  {
    name: 'syntax',
    clause: 'node:1.4',
    rule: 'options only: no arguments, no unknown flags, a boolean takes no separate value',
    binding: 'refuse',
    arbitrary: fc
      .constantFrom(['--profiling', 'false'], ['--no-such-option=1'], ['extra-argument'])
      .map((words) => ({ clause: 'node:1.4', rule: 'options only', flags: [], words })),
  },
];

/**
 * Open decisions (rules binding `open`): an option set without the option it needs. A daemon may refuse
 * the command line or accept it and ignore the option; the suite records which.
 */
export const openKinds: readonly Omit<ViolationKind, 'binding'>[] = [
  openKind(
    'cluster-cidr',
    'node:2.6/cluster-cidr',
    'needs --allocate-node-cidrs true',
    'cluster-cidr',
    ['10.244.0.0/16'],
    [['allocate-node-cidrs', 'false']],
  ),
  openKind(
    'service-range',
    'node:2.6/service-cluster-ip-range',
    'needs --allocate-node-cidrs true',
    'service-cluster-ip-range',
    ['10.96.0.0/12'],
    [['allocate-node-cidrs', 'false']],
  ),
];

function openKind(
  name: string,
  clause: ClauseId,
  rule: string,
  option: string,
  values: readonly string[],
  extra: readonly (readonly [string, string])[],
): Omit<ViolationKind, 'binding'> {
  return {
    name,
    clause,
    rule,
    arbitrary: fc.constantFrom(...values).map((v) => ({ clause, rule, flags: [...extra, [option, v] as const] })),
  };
}

/** Picks that leave the main loop as by default: leader election on at its place, every default controller. */
const keepsMainLoop = (ps: readonly FlagPick[]) =>
  ps.every((p) => p.flags.every(([o]) => !o.startsWith('leader-elect') && o !== 'controllers'));

export function invalidFlagSet(
  profile: ProfileName,
  v: Pick<ViolationKind, 'arbitrary'> & { binding?: ViolationKind['binding'] },
  maxPicks = 3,
): fc.Arbitrary<{ base: FlagPick[]; violation: Violation }> {
  const base = v.binding === 'main-loop' ? validFlagSet(profile, maxPicks).filter(keepsMainLoop) : validFlagSet(profile, maxPicks);
  return fc.record({ base, violation: v.arbitrary });
}

/** The rendered words of an invalid case: the violation last, so it wins over the base picks. */
export const renderInvalid = (c: { base: readonly FlagPick[]; violation: Violation }, profile: ProfileName) => [
  ...renderPicks(c.base, profile),
  ...renderPick(c.violation, profile),
];
