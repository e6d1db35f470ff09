/**
 * Every rule the spec states about the controller daemon's option values, as named data: the linter
 * prints them, the reference daemon enforces them (its planted faults switch one off), the suite
 * generates one violation per rule. A rule sees the values with defaults applied and the values set.
 */
import { isIP } from 'node:net';
import type { ProfileName } from '../profile.ts';
import { unknownControllerItems } from './controllers.ts';
import { resolveGates } from './gates.ts';
import { flagName, generalSigningOptions, optionByName, options, specificSigningOptions } from './options.ts';
import { cipherSuiteClass } from './tls.ts';
import { tlsMinVersions } from '../tls-names.ts';
import type { FlagError, OtherComponents } from './types.ts';
import type { Values } from './effective.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export interface RuleContext {
  readonly profile: ProfileName;
  /** The version the daemon reports, `<major>.<minor>` (reference: 1.24). */
  readonly version: string;
  readonly other: OtherComponents;
}

export interface Rule {
  readonly name: string;
  readonly option: string;
  readonly clause: ClauseId;
  readonly rule: string;
  /**
   * How the spec binds a daemon (default `refuse`: the command line is invalid and refused at start).
   * `open`: the spec ties the option to another ("needs X", "only with X"): without X the option has no
   * effect, and a daemon may refuse the command line or accept it and ignore the option (as the
   * node-agent rules read "needs feature G"). `main-loop`: the value configures a control loop, which
   * runs only once leadership is gained ("Gain leadership before running the main loop"): a daemon may
   * refuse it at start or when the loop starts.
   */
  readonly binding?: 'refuse' | 'open' | 'main-loop';
  /** Messages of the violations (none: the rule holds). */
  readonly check: (all: Values, set: Values, cx: RuleContext) => string[];
}

const SECOND = 1_000_000_000n;
const dur = (v: Values, k: string) => v[k] as bigint;
const num = (v: Values, k: string) => v[k] as number;
const list = (v: Values, k: string) => (v[k] as readonly string[] | undefined) ?? [];
const isSet = (set: Values, k: string) => Object.hasOwn(set, k) && set[k] !== '';

export const rules: readonly Rule[] = [
  {
    name: 'renew-deadline-within-lease',
    option: 'leader-elect-renew-deadline',
    clause: 'node:2.6/leader-elect-renew-deadline',
    rule: 'at most --leader-elect-lease-duration',
    check: (v) =>
      dur(v, 'leader-elect-renew-deadline') > dur(v, 'leader-elect-lease-duration')
        ? ['the renew deadline exceeds the lease duration']
        : [],
  },
  {
    name: 'resource-lock-kind',
    option: 'leader-elect-resource-lock',
    clause: 'node:2.6/leader-elect-resource-lock',
    rule: 'one of leases, endpointsleases, configmapsleases',
    check: (v) =>
      ['leases', 'endpointsleases', 'configmapsleases'].includes(v['leader-elect-resource-lock'] as string)
        ? []
        : [`${JSON.stringify(v['leader-elect-resource-lock'])} is not a lock type`],
  },
  {
    name: 'tls-min-version',
    option: 'tls-min-version',
    clause: 'node:2.6/tls-min-version',
    rule: `one of ${tlsMinVersions.join(', ')}`,
    check: (_v, set) =>
      isSet(set, 'tls-min-version') && !tlsMinVersions.includes(set['tls-min-version'] as string)
        ? [`${JSON.stringify(set['tls-min-version'])} is not a TLS version`]
        : [],
  },
  {
    name: 'cipher-suites-known',
    option: 'tls-cipher-suites',
    clause: 'node:2.6/tls-cipher-suites',
    rule: 'each a preferred or insecure cipher suite name',
    check: (_v, set) =>
      list(set, 'tls-cipher-suites')
        .filter((c) => cipherSuiteClass(c) === 'unknown')
        .map((c) => `unknown cipher suite ${JSON.stringify(c)}`),
  },
  {
    name: 'secure-port-range',
    option: 'secure-port',
    clause: 'node:2.6/secure-port',
    rule: 'a port, 0 to 65535 (0 disables HTTPS)',
    check: (v) => (num(v, 'secure-port') < 0 || num(v, 'secure-port') > 65535 ? [`${num(v, 'secure-port')} is not a port`] : []),
  },
  {
    name: 'bind-address-ip',
    option: 'bind-address',
    clause: 'node:2.6/bind-address',
    rule: 'an IP address (blank: all interfaces)',
    check: (v) =>
      v['bind-address'] === '' || isIP(v['bind-address'] as string) !== 0
        ? []
        : [`${JSON.stringify(v['bind-address'])} is not an IP address`],
  },
  {
    name: 'cert-and-key-together',
    option: 'tls-cert-file',
    clause: 'node:2.6/tls-cert-file',
    rule: 'the default certificate and key are given together',
    check: (_v, set) =>
      isSet(set, 'tls-cert-file') !== isSet(set, 'tls-private-key-file')
        ? ['only one of --tls-cert-file and --tls-private-key-file is given']
        : [],
  },
  {
    name: 'controllers-known',
    option: 'controllers',
    clause: 'node:2.6/controllers',
    rule: '*, a known controller name or -name',
    check: (v) => unknownControllerItems(list(v, 'controllers')).map((c) => `${JSON.stringify(c)} is not in the list of known controllers`),
  },
  {
    name: 'general-signer-excludes-specific',
    option: 'cluster-signing-cert-file',
    clause: 'node:5/cluster-signing-cert-file',
    rule: 'with the general signing pair no specific --cluster-signing-* file may be set',
    check: (_v, set) =>
      generalSigningOptions.some((k) => isSet(set, k))
        ? specificSigningOptions.filter((k) => isSet(set, k)).map((k) => `--${k} is set together with the general signing pair`)
        : [],
  },
  {
    name: 'cluster-cidr-needs-allocation',
    option: 'cluster-cidr',
    clause: 'node:2.6/cluster-cidr',
    rule: 'needs --allocate-node-cidrs true',
    binding: 'open',
    check: (v, set) =>
      isSet(set, 'cluster-cidr') && v['allocate-node-cidrs'] !== true ? ['--cluster-cidr is set without --allocate-node-cidrs'] : [],
  },
  {
    name: 'service-range-needs-allocation',
    option: 'service-cluster-ip-range',
    clause: 'node:2.6/service-cluster-ip-range',
    rule: 'needs --allocate-node-cidrs true',
    binding: 'open',
    check: (v, set) =>
      isSet(set, 'service-cluster-ip-range') && v['allocate-node-cidrs'] !== true
        ? ['--service-cluster-ip-range is set without --allocate-node-cidrs']
        : [],
  },
  {
    name: 'attach-detach-period-above-one-second',
    option: 'attach-detach-reconcile-sync-period',
    clause: 'node:8/attach-detach-reconcile-sync-period',
    rule: 'must exceed one second',
    binding: 'main-loop',
    check: (v) => (dur(v, 'attach-detach-reconcile-sync-period') <= SECOND ? ['the period does not exceed one second'] : []),
  },
  {
    name: 'logging-format-text',
    option: 'logging-format',
    clause: 'node:2.6/logging-format',
    rule: 'only text is permitted',
    check: (v) => (v['logging-format'] === 'text' ? [] : [`format ${JSON.stringify(v['logging-format'])} is not permitted`]),
  },
  {
    name: 'hidden-metrics-previous-minor',
    option: 'show-hidden-metrics-for-version',
    clause: 'node:2.6/show-hidden-metrics-for-version',
    rule: 'the previous minor version only',
    check: (_v, set, cx) => {
      if (!isSet(set, 'show-hidden-metrics-for-version')) return [];
      const want = previousMinor(cx.version);
      return set['show-hidden-metrics-for-version'] === want
        ? []
        : [`${JSON.stringify(set['show-hidden-metrics-for-version'])} is not the previous minor version ${want}`];
    },
  },
  {
    name: 'feature-gates-known',
    option: 'feature-gates',
    clause: 'node:2.6/feature-gates',
    rule: 'known gates only; a GA (non-operational) gate cannot be disabled',
    check: (_v, set, cx) => {
      const r = resolveGates((set['feature-gates'] as Record<string, boolean> | undefined) ?? {}, cx.profile);
      return r.ok ? [] : r.errors.map((e) => e.message);
    },
  },
  {
    name: 'node-monitor-grace-multiple',
    option: 'node-monitor-grace-period',
    clause: 'node:8/node-monitor-grace-period',
    rule: "a multiple of the node agent's status update frequency (checked when that is given)",
    check: (v, _set, cx) => {
      const f = cx.other.nodeStatusUpdateFrequencyNanos;
      if (f === undefined || f <= 0n) return [];
      return dur(v, 'node-monitor-grace-period') % f === 0n
        ? []
        : ["the grace period is not a multiple of the agent's status update frequency"];
    },
  },
  {
    name: 'garbage-collector-matches-api-server',
    option: 'enable-garbage-collector',
    clause: 'node:2.6/enable-garbage-collector',
    rule: "must match the API server's --enable-garbage-collector (checked when that is given)",
    check: (v, _set, cx) => {
      const api = cx.other.apiServerEnableGarbageCollector;
      return api === undefined || v['enable-garbage-collector'] === api
        ? []
        : [`the daemon's ${String(v['enable-garbage-collector'])} differs from the API server's ${String(api)}`];
    },
  },
  {
    name: 'external-volume-plugin-needs-external-provider',
    option: 'external-cloud-volume-plugin',
    clause: 'node:2.6/external-cloud-volume-plugin',
    rule: 'only with an external cloud provider (--cloud-provider=external)',
    binding: 'open',
    check: (v, set) =>
      isSet(set, 'external-cloud-volume-plugin') && v['cloud-provider'] !== 'external'
        ? ['--external-cloud-volume-plugin is set without --cloud-provider=external']
        : [],
  },
];

/** `1.24` -> `1.23`. */
export function previousMinor(version: string): string {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) throw new Error(`model bug: version ${JSON.stringify(version)} is not <major>.<minor>`);
  return `${m[1]}.${Number(m[2]) - 1}`;
}

/** A rule whose breach the daemon must refuse (at start, or for `main-loop` rules when the loop starts). */
export const isRefusal = (r: Rule) => r.binding !== 'open';

/** The rule of a clause, for the judges (undefined for clauses no rule states, e.g. value syntax). */
export const ruleOfClause = (clause: string): Rule | undefined => rules.find((r) => r.clause === clause);

/** The rules' violations as errors naming the flag under the profile. */
export function checkRules(all: Values, set: Values, cx: RuleContext, only: readonly Rule[] = rules): FlagError[] {
  return only.flatMap((r) => {
    const o = optionByName(r.option)!;
    return r.check(all, set, cx).map((message) => ({ option: `--${flagName(o, cx.profile)}`, clause: r.clause, rule: r.rule, message }));
  });
}

/** Insecure cipher suites, alpha or GA gates set, deprecated options used (rest:9.3 rules 6 and 9). */
export function warningsFor(set: Values, cx: RuleContext): FlagError[] {
  const out: FlagError[] = [];
  for (const c of list(set, 'tls-cipher-suites')) {
    if (cipherSuiteClass(c) === 'insecure')
      out.push({
        option: '--tls-cipher-suites',
        clause: 'node:2.6/tls-cipher-suites',
        rule: 'insecure cipher suite',
        message: `${c} is insecure`,
      });
  }
  const r = resolveGates((set['feature-gates'] as Record<string, boolean> | undefined) ?? {}, cx.profile);
  for (const w of r.warnings)
    out.push({
      option: '--feature-gates',
      clause: w.includes('alpha') ? 'node:2.6/feature-gates/alpha' : 'rest:9.3/rule-9',
      rule: 'gate stage',
      message: w,
    });
  for (const o of options) {
    if (o.deprecated && Object.hasOwn(set, o.name))
      out.push({ option: `--${flagName(o, cx.profile)}`, clause: 'rest:9.3/rule-6', rule: 'deprecated option', message: o.deprecated });
  }
  return out;
}
