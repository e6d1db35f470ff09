/**
 * The effective configuration: every option's default (parsed from the spec's text under the profile)
 * overlaid with what was set, plus what the spec derives from it: HTTPS on or off, whether a
 * self-signed pair is generated, the enabled controllers, the gates, pod GC on or off, and the
 * secondary eviction rate for a cluster size.
 */
import type { ProfileName } from '../profile.ts';
import { enabledControllers } from './controllers.ts';
import { resolveGates } from './gates.ts';
import { defaultText, options } from './options.ts';
import type { OptionSpec, OptionValue } from './types.ts';
import { parseValue } from './values.ts';

/** The typed default of an option under a profile, or undefined when the spec gives none. */
export function defaultValue(o: OptionSpec, profile: ProfileName): OptionValue | undefined {
  const text = defaultText(o, profile);
  if (text === undefined) return undefined;
  const v = parseValue(o.type, text === '[]' ? '' : text, undefined);
  if (!v.ok) throw new Error(`model bug: default ${JSON.stringify(text)} of --${o.name} does not parse: ${v.error}`);
  return v.value;
}

export type Values = Readonly<Record<string, OptionValue>>;

export interface EffectiveConfig {
  readonly values: Values;
  readonly httpsEnabled: boolean;
  /** HTTPS on and neither certificate nor key file given: a pair is generated in --cert-dir. */
  readonly selfSignedInCertDir: boolean;
  readonly controllers: readonly string[];
  /** Effective gates, or undefined when the gate settings are invalid. */
  readonly gates?: Readonly<Record<string, boolean>>;
  /** node:8/terminated-pod-gc-threshold: 0 or less disables terminated-pod collection. */
  readonly terminatedPodGcEnabled: boolean;
  /** node:2.6/contention-profiling: lock contention profiling happens only with profiling on. */
  readonly contentionProfilingActive: boolean;
  /**
   * node:8/secondary-node-eviction-rate: the rate of an unhealthy zone by cluster size: the configured
   * rate above `--large-cluster-size-threshold` nodes, implicitly 0 at or below it.
   */
  readonly secondaryNodeEviction: { readonly aboveNodes: number; readonly rate: number; readonly rateAtOrBelow: 0 };
}

export function withDefaults(set: Values, profile: ProfileName): Values {
  const out: Record<string, OptionValue> = Object.create(null) as Record<string, OptionValue>;
  for (const o of options) {
    const d = defaultValue(o, profile);
    if (d !== undefined) out[o.name] = d;
  }
  for (const [k, v] of Object.entries(set)) out[k] = v;
  return out;
}

export function effective(set: Values, profile: ProfileName): EffectiveConfig {
  const values = withDefaults(set, profile);
  const https = values['secure-port'] !== 0;
  const gates = resolveGates((values['feature-gates'] as Record<string, boolean> | undefined) ?? {}, profile);
  return {
    values,
    httpsEnabled: https,
    selfSignedInCertDir: https && !values['tls-cert-file'] && !values['tls-private-key-file'],
    controllers: [...enabledControllers((values['controllers'] as readonly string[] | undefined) ?? ['*'])],
    gates: gates.ok ? Object.fromEntries(gates.enabled) : undefined,
    terminatedPodGcEnabled: ((values['terminated-pod-gc-threshold'] as number | undefined) ?? 12500) > 0,
    contentionProfilingActive: values['contention-profiling'] === true && values['profiling'] === true,
    secondaryNodeEviction: {
      aboveNodes: values['large-cluster-size-threshold'] as number,
      rate: values['secondary-node-eviction-rate'] as number,
      rateAtOrBelow: 0,
    },
  };
}

/**
 * node:8/secondary-node-eviction-rate: the configured rate, except 0 for a cluster of at most
 * `--large-cluster-size-threshold` nodes.
 *
 *   secondaryEvictionRate(values, 50) -> 0;  secondaryEvictionRate(values, 51) -> 0.01
 */
export function secondaryEvictionRate(values: Values, nodeCount: number): number {
  const threshold = (values['large-cluster-size-threshold'] as number | undefined) ?? 50;
  return nodeCount <= threshold ? 0 : ((values['secondary-node-eviction-rate'] as number | undefined) ?? 0.01);
}

/** JSON-safe rendering (durations as Go text) for the linter's --effective. */
export function renderEffective(cfg: EffectiveConfig, formatDuration: (n: bigint) => string): Record<string, unknown> {
  const values = Object.fromEntries(Object.entries(cfg.values).map(([k, v]) => [k, typeof v === 'bigint' ? formatDuration(v) : v]));
  return { ...cfg, values };
}
