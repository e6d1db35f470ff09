/**
 * Releases (`v1.24`, `1.25`, `v1.24.3`): only major and minor matter to the deprecation rules (rest:9.3)
 * and the removal table (rest:9.4). Patch numbers are accepted and ignored.
 */
export interface Release {
  readonly major: number;
  readonly minor: number;
}

const RELEASE = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/;

/** `'v1.24.3'` -> `{ major: 1, minor: 24 }`; undefined when it is not a release. */
export function parseRelease(text: string): Release | undefined {
  const m = RELEASE.exec(text.trim());
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (!Number.isSafeInteger(major) || !Number.isSafeInteger(minor) || major > 999 || minor > 9999) return undefined;
  return { major, minor };
}

export const formatRelease = (r: Release): string => `v${r.major}.${r.minor}`;

/** Negative when `a` comes before `b`. */
export const compareReleases = (a: Release, b: Release): number => a.major - b.major || a.minor - b.minor;

/** Minor releases from `from` to `to` within one major; releases of other majors are not counted. */
export function releasesBetween(from: Release, to: Release): number {
  return to.major === from.major ? to.minor - from.minor : Number.NaN;
}

export const addReleases = (r: Release, n: number): Release => ({ major: r.major, minor: r.minor + n });

/** The reference version the spec describes (rest:1.9). */
export const REFERENCE_RELEASE: Release = { major: 1, minor: 24 };
