/**
 * Deprecated metrics (rest:9.3/deprecated-metrics): the description is prefixed `(Deprecated from x.y)`;
 * once the deprecated version equals the current one minus 3 the metric is hidden unless the option
 * for showing hidden metrics names that version; one release later it is gone.
 *
 *   metricVisibility(v1.20, v1.22) -> 'deprecated'   metricVisibility(v1.20, v1.23) -> 'hidden'
 *   metricVisibility(v1.20, v1.23, v1.22) -> 'shown-hidden'   metricVisibility(v1.20, v1.24) -> 'deleted'
 */
import { releasesBetween, type Release } from './release.ts';

export type MetricVisibility = 'active' | 'deprecated' | 'hidden' | 'shown-hidden' | 'deleted';

export const deprecationNotice = (deprecatedIn: Release): string => `(Deprecated from ${deprecatedIn.major}.${deprecatedIn.minor})`;

export function deprecatedDescription(description: string, deprecatedIn: Release): string {
  return `${deprecationNotice(deprecatedIn)} ${description}`;
}

/**
 * `showHiddenFor` is the value of the option for showing hidden metrics. The spec says only "for a
 * given version"; we follow upstream, where that value is the previous minor release (current - 1).
 */
export function metricVisibility(deprecatedIn: Release, current: Release, showHiddenFor?: Release): MetricVisibility {
  const age = releasesBetween(deprecatedIn, current);
  if (Number.isNaN(age)) return 'deleted';
  if (age < 0) return 'active';
  if (age < 3) return 'deprecated';
  if (age === 3) {
    const shown = showHiddenFor !== undefined && releasesBetween(showHiddenFor, current) === 1;
    return shown ? 'shown-hidden' : 'hidden';
  }
  return 'deleted';
}

/** Whether the metric is registered (served at /metrics) in that state. */
export const metricRegistered = (v: MetricVisibility): boolean => v === 'active' || v === 'deprecated' || v === 'shown-hidden';

/**
 * The deprecation notice in a metric's description: the spec's `(Deprecated from x.y)`, and upstream's
 * `(Deprecated since x.y.z)` read the same way (interpretation: same meaning, other wording).
 */
export function deprecationNoticeIn(description: string): { readonly release: Release; readonly leading: boolean } | undefined {
  const m = /\(Deprecated (?:from|since) v?(\d+)\.(\d+)(?:\.\d+)?\)/.exec(description);
  if (!m) return undefined;
  // "prefixed": first, after an optional stability class tag such as `[ALPHA]`.
  const leading = /^(\[[A-Z]+\]\s*)?\(Deprecated /.test(description.trim());
  return { release: { major: Number(m[1]), minor: Number(m[2]) }, leading };
}

export interface ExposedMetric {
  readonly name: string;
  readonly help: string;
  /** Whether any sample of it is exposed (HELP alone counts as registered too). */
  readonly samples: number;
}

/** `# HELP` lines and sample counts of a Prometheus text exposition, per metric family. */
export function exposedMetrics(text: string): ExposedMetric[] {
  const help = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const h = /^# HELP (\S+) ?(.*)$/.exec(line);
    if (h) help.set(h[1]!, h[2]!);
    else if (line !== '' && !line.startsWith('#')) {
      const name = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line)?.[1];
      if (name) samples.set(name, (samples.get(name) ?? 0) + 1);
    }
  }
  const family = (sample: string) =>
    [...help.keys()].find((n) => sample === n || sample === `${n}_bucket` || sample === `${n}_sum` || sample === `${n}_count`);
  const counts = new Map<string, number>();
  for (const [s, n] of samples) {
    const f = family(s) ?? s;
    counts.set(f, (counts.get(f) ?? 0) + n);
  }
  return [...help.entries()].map(([name, h]) => ({ name, help: h, samples: counts.get(name) ?? 0 }));
}
