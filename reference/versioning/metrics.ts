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
