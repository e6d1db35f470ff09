/**
 * rest:9.2 stability levels read from a version string, and the order in which versions are preferred.
 *
 *   stabilityOf('v2beta3') -> 'beta'     stabilityOf('v1') -> 'stable'     stabilityOf('v1.0') -> undefined
 */
import { fail, pass, type Judgement } from '../judgement.ts';

export type Stability = 'alpha' | 'beta' | 'stable';

export interface ParsedVersion {
  readonly version: string;
  readonly major: number;
  readonly level: Stability;
  /** The number after `alpha`/`beta`; 0 for a stable version. */
  readonly minor: number;
}

const GRAMMAR = /^v([1-9]\d*)(?:(alpha|beta)([1-9]\d*))?$/;

/** The full upstream grammar `v<major>[(alpha|beta)<minor>]`; undefined for anything else. */
export function parseVersion(version: string): ParsedVersion | undefined {
  const m = GRAMMAR.exec(version);
  if (!m) return undefined;
  const level: Stability = m[2] === 'alpha' ? 'alpha' : m[2] === 'beta' ? 'beta' : 'stable';
  return { version, major: Number(m[1]), level, minor: m[3] === undefined ? 0 : Number(m[3]) };
}

/**
 * The spec's own wording: alpha "contains `alpha`", beta "contains `beta`", stable is `vX` with X an
 * integer. Anything else has no level (undefined), never a guessed one.
 */
export function stabilityOf(version: string): Stability | undefined {
  if (version.includes('alpha')) return 'alpha';
  if (version.includes('beta')) return 'beta';
  return /^v\d+$/.test(version) ? 'stable' : undefined;
}

export const stabilityRank: Readonly<Record<Stability, number>> = { alpha: 0, beta: 1, stable: 2 };

/**
 * Negative when `a` is preferred over `b`: stable before beta before alpha, then the higher major, then
 * the higher alpha/beta number (`v1` < `v1beta2` < `v1beta1` < `v1alpha1` in sort order).
 */
export function comparePreference(a: ParsedVersion, b: ParsedVersion): number {
  return stabilityRank[b.level] - stabilityRank[a.level] || b.major - a.major || b.minor - a.minor;
}

/**
 * rest:9.2 on a served version's name: it has a level. A name with neither `alpha` nor `beta` must be
 * a stable `vX`, so an unreadable name fails the stable row.
 */
export function judgeVersionName(groupVersion: string): Judgement {
  const version = groupVersion.slice(groupVersion.lastIndexOf('/') + 1);
  const level = stabilityOf(version);
  return level === undefined
    ? fail('rest:9.2/stable', `${groupVersion}: a version contains alpha or beta, or is vX with X an integer`, version)
    : pass(`rest:9.2/${level}`, `${groupVersion} reads as ${level}`, version);
}
