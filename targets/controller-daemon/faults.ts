/**
 * Planted faults of the reference controller daemon: one rule switched off or one default changed at
 * a time. `test/oracle/daemon-faults.test.ts` requires each to be found by its clause and shrunk.
 * `level` says where the suite sees it: `process` faults show in a real daemon start, `help` in the
 * `--help` table, `lint` only through the in-process model checks.
 */
import { gates, type GateSpec, type OptionValue } from '../../reference/controller-daemon/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import { daemonDefaultFaults } from './default-faults.ts';
import type { DaemonFault } from './fault-type.ts';

export type { DaemonFault } from './fault-type.ts';

/** The first gate the spec names in one of node:2.6's lists. */
const firstOf = (list: GateSpec['list']): string => gates.find((g) => g.list === list && g.named)!.name;

const ruleFault = (name: string, rule: string, clause: ClauseId): DaemonFault => ({
  name,
  clause,
  disablesRule: rule,
  description: `accepts values breaking rule ${rule}`,
});

export const daemonFaults: readonly DaemonFault[] = [
  ruleFault('no-renew-deadline-check', 'renew-deadline-within-lease', 'node:2.6/leader-elect-renew-deadline'),
  ruleFault('any-resource-lock', 'resource-lock-kind', 'node:2.6/leader-elect-resource-lock'),
  ruleFault('any-tls-min-version', 'tls-min-version', 'node:2.6/tls-min-version'),
  ruleFault('any-cipher-suite', 'cipher-suites-known', 'node:2.6/tls-cipher-suites'),
  ruleFault('any-controller-name', 'controllers-known', 'node:2.6/controllers'),
  ruleFault('signers-not-exclusive', 'general-signer-excludes-specific', 'node:5/cluster-signing-cert-file'),
  ruleFault('attach-detach-period-one-second', 'attach-detach-period-above-one-second', 'node:8/attach-detach-reconcile-sync-period'),
  ruleFault('any-logging-format', 'logging-format-text', 'node:2.6/logging-format'),
  ruleFault('any-hidden-metrics-version', 'hidden-metrics-previous-minor', 'node:2.6/show-hidden-metrics-for-version'),
  ruleFault('unknown-gates-accepted', 'feature-gates-known', 'node:2.6/feature-gates'),
  {
    name: 'arguments-ignored',
    clause: 'node:1.4',
    description: 'ignores unknown flags and stray arguments (so `--profiling false` keeps profiling on)',
    ignoresNonOptions: true,
  },
  {
    name: 'secure-port-zero-refused',
    clause: 'node:2.6/secure-port',
    description: 'refuses --secure-port=0 instead of running without HTTPS',
    refusesPortZero: true,
  },
  {
    name: 'secure-port-default-10259',
    clause: 'node:2.6/secure-port',
    description: 'prints and uses default secure port 10259',
    defaults: { 'secure-port': 10259 },
  },
  {
    name: 'lease-duration-default-30s',
    clause: 'node:2.6/leader-elect-lease-duration',
    description: 'prints and uses lease duration 30s',
    defaults: { 'leader-elect-lease-duration': 30_000_000_000n },
  },
  {
    name: 'gc-syncs-default-10',
    clause: 'node:8/concurrent-gc-syncs',
    description: 'prints default 10 garbage collector workers',
    defaults: { 'concurrent-gc-syncs': 10 },
  },
  {
    name: 'gate-cpumanager-alpha',
    clause: 'node:2.6/feature-gates/beta-on',
    description: 'lists CPUManager in --help as ALPHA, default false',
    gates: gates.map((g) => (g.name === 'CPUManager' ? { ...g, stage: 'ALPHA' as const, default: false } : g)),
  },
  {
    name: 'gate-beta-off-enabled',
    clause: 'node:2.6/feature-gates/beta-off',
    description: `lists ${firstOf('beta-off')} in --help as BETA, default true (a gate the spec lists off by default)`,
    gates: gates.map((g) => (g.name === firstOf('beta-off') ? { ...g, default: true } : g)),
  },
  {
    name: 'gate-alpha-enabled',
    clause: 'node:2.6/feature-gates/alpha',
    description: `lists ${firstOf('alpha')} in --help as ALPHA, default true (alpha gates default false)`,
    gates: gates.map((g) => (g.name === firstOf('alpha') ? { ...g, default: true } : g)),
  },
  {
    name: 'lease-name-wrong',
    clause: 'node:2.6/leader-elect-resource-name',
    description: 'takes the lease under the name controller-manager',
    leaseName: 'controller-manager',
  },
  {
    name: 'tls-min-version-ignored',
    clause: 'node:2.6/tls-min-version',
    description: 'accepts --tls-min-version but serves TLS 1.2 anyway',
    ignoresTlsMinVersion: true,
  },
  {
    name: 'cipher-suites-ignored',
    clause: 'node:2.6/tls-cipher-suites',
    description: 'accepts --tls-cipher-suites but negotiates any suite',
    ignoresCipherSuites: true,
  },
  {
    name: 'sni-first-match',
    clause: 'node:2.6/tls-sni-cert-key',
    description: 'serves the first matching SNI pair, so an earlier wildcard beats an exact name',
    sniFirstMatch: true,
  },
  {
    name: 'self-signed-outside-cert-dir',
    clause: 'node:2.6/cert-dir',
    description: 'generates its self-signed pair in a temporary directory, not --cert-dir',
    ignoresCertDir: true,
  },
  {
    name: 'strings-one-value',
    clause: 'node:2.6/types',
    description: 'refuses a comma-separated list in a strings option (--authorization-always-allow-paths=/healthz,/readyz)',
    stringsOneValue: true,
  },
  {
    name: 'alpha-gates-locked',
    clause: 'rest:9.3/feature-gate-lifecycle',
    description: 'refuses --feature-gates that enable an alpha gate (alpha gates locked off)',
    alphaGatesLocked: true,
  },
  {
    name: 'healthz-forbidden',
    clause: 'node:5/authorization-always-allow-paths',
    description: 'answers 403 on /healthz too',
    healthzForbidden: true,
  },
];

export function daemonFaultByName(name: string): DaemonFault | undefined {
  return daemonFaults.find((f) => f.name === name) ?? daemonDefaultFaults.find((f) => f.name === name);
}
