/**
 * The deprecation rules of rest:9.3 as functions. Each answers one question the release process (or a
 * reviewer of a server's release notes) can ask; the clause id of the rule is on each.
 *
 *   mayReplace('beta', 'stable')           -> false   (rule 3: never in favour of a less stable one)
 *   apiVersionMayBeRemoved('beta', { releases: 3, months: 8 }, true) -> false   (rule 4a: 9 months too)
 */
import { stabilityRank, type Stability } from './stability.ts';
import { NONE, windowOver, type Elapsed, type Window } from './windows.ts';

/** rest:9.3/rule-1: removing an API element needs a new group version (never within one). */
export function elementRemovalAllowed(change: {
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly alphaAnnotation?: boolean;
}): boolean {
  return change.alphaAnnotation === true || change.fromVersion !== change.toVersion;
}

/**
 * rest:9.3/rule-3: a version may be deprecated in favour of `replacement` only when the replacement is
 * at least as stable: stable replaces beta and alpha, beta replaces beta and alpha, alpha replaces alpha.
 * Stable replacing stable (v1 by v2) is the later-major case of the example timeline.
 */
export function mayReplace(deprecated: Stability, replacement: Stability): boolean {
  return stabilityRank[replacement] >= stabilityRank[deprecated];
}

/** rest:9.3/rule-4a: how long a deprecated API version keeps being served, by level. */
export function apiVersionWindow(level: Stability): Window | 'within-major' {
  return level === 'stable' ? 'within-major' : level === 'beta' ? { releases: 3, months: 9 } : NONE;
}

/**
 * rest:9.3/rule-4a (and rest:8 "9 months or 3 releases"): may a version deprecated `elapsed` ago be
 * removed? A stable version never within its major version (`sameMajor`).
 */
export function apiVersionMayBeRemoved(level: Stability, elapsed: Elapsed, sameMajor: boolean): boolean {
  const w = apiVersionWindow(level);
  return w === 'within-major' ? !sameMajor : windowOver(w, elapsed);
}

/** One released state of a group: which versions it served. */
export interface ServedInRelease {
  readonly release: number;
  readonly served: readonly string[];
}

/**
 * rest:9.3/rule-4b: the preferred (or storage) version may move from `from` to `to` in release `at`
 * only when an earlier release already served both, so that rolling back one release still reads
 * what was written.
 */
export function mayAdvancePreferred(history: readonly ServedInRelease[], from: string, to: string, at: number): boolean {
  if (from === to) return true;
  return history.some((h) => h.release < at && h.served.includes(from) && h.served.includes(to));
}

export type OptionLevel = 'ga' | 'beta' | 'alpha';

/** rest:9.3/rule-5a (user-facing command-line components) and rule-5b (admin-facing). */
export function optionWindow(audience: 'user' | 'admin', level: OptionLevel): Window {
  if (level === 'alpha') return NONE;
  if (level === 'beta') return { releases: 1, months: 3 };
  return audience === 'user' ? { releases: 2, months: 12 } : { releases: 1, months: 6 };
}

/** rest:9.3/rule-5a/5b: may a deprecated option stop working after `elapsed`? */
export const optionMayStopWorking = (audience: 'user' | 'admin', level: OptionLevel, elapsed: Elapsed): boolean =>
  windowOver(optionWindow(audience, level), elapsed);

/** rest:9.3/rule-7: deprecated behaviours work for at least one year. */
export const BEHAVIOUR_WINDOW: Window = { releases: 0, months: 12 };
export const behaviourMayStop = (elapsed: Elapsed): boolean => windowOver(BEHAVIOUR_WINDOW, elapsed);

/** rest:9.3/rule-8: minimum time a feature gate spends before a transition. */
export function gateTransitionWindow(transition: 'beta-to-ga' | 'beta-to-end-of-life' | 'alpha-to-end-of-life'): Window {
  return transition === 'beta-to-ga'
    ? { releases: 2, months: 6 }
    : transition === 'beta-to-end-of-life'
      ? { releases: 1, months: 3 }
      : NONE;
}
export const gateMayTransition = (t: Parameters<typeof gateTransitionWindow>[0], elapsed: Elapsed): boolean =>
  windowOver(gateTransitionWindow(t), elapsed);

export type MetricClass = 'STABLE' | 'ALPHA';

/** rest:9.3/rule-9a: how long a metric of a class keeps working before it may be deprecated. */
export const metricLifetime = (c: MetricClass): Window => (c === 'STABLE' ? { releases: 4, months: 12 } : NONE);
/** rest:9.3/rule-9b: how long it keeps working after deprecation. */
export const metricAfterDeprecation = (c: MetricClass): Window => (c === 'STABLE' ? { releases: 3, months: 9 } : NONE);
export const metricMayBeRemoved = (c: MetricClass, sinceDeprecation: Elapsed): boolean =>
  windowOver(metricAfterDeprecation(c), sinceDeprecation);
