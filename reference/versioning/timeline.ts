/**
 * The example timeline of rest:9.3 (rest:9.3/example-timeline) as data, and the same timeline derived
 * from the rules alone: versions are introduced, each introduction deprecates the older versions it
 * may replace (rule 3), alpha versions go at once and beta versions after their window (rule 4a), and
 * the preferred version advances only after a release served both (rule 4b).
 */
import { apiVersionMayBeRemoved, mayAdvancePreferred, mayReplace, type ServedInRelease } from './rules.ts';
import { comparePreference, parseVersion } from './stability.ts';

export interface TimelineRelease {
  /** Offset from release X. */
  readonly release: number;
  readonly served: readonly string[];
  readonly preferred: string;
  readonly deprecated: readonly string[];
}

/** The spec's timeline for a group introduced in release X (X+0 .. X+9). */
export const exampleTimeline: readonly TimelineRelease[] = [
  { release: 0, served: ['v1alpha1'], preferred: 'v1alpha1', deprecated: [] },
  { release: 1, served: ['v1alpha2'], preferred: 'v1alpha2', deprecated: [] },
  { release: 2, served: ['v1beta1'], preferred: 'v1beta1', deprecated: [] },
  { release: 3, served: ['v1beta2', 'v1beta1'], preferred: 'v1beta1', deprecated: ['v1beta1'] },
  { release: 4, served: ['v1beta2', 'v1beta1'], preferred: 'v1beta2', deprecated: ['v1beta1'] },
  { release: 5, served: ['v1', 'v1beta2', 'v1beta1'], preferred: 'v1beta2', deprecated: ['v1beta2', 'v1beta1'] },
  { release: 6, served: ['v1', 'v1beta2'], preferred: 'v1', deprecated: ['v1beta2'] },
  { release: 7, served: ['v1', 'v1beta2'], preferred: 'v1', deprecated: ['v1beta2'] },
  { release: 8, served: ['v1'], preferred: 'v1', deprecated: [] },
  { release: 9, served: ['v1'], preferred: 'v1', deprecated: [] },
];

/** The introductions the timeline starts from. */
export const exampleIntroductions: readonly { readonly version: string; readonly release: number }[] = [
  { version: 'v1alpha1', release: 0 },
  { version: 'v1alpha2', release: 1 },
  { version: 'v1beta1', release: 2 },
  { version: 'v1beta2', release: 3 },
  { version: 'v1', release: 5 },
];

/**
 * Derives the timeline from the rules. `monthsPerRelease` turns release counts into months for the
 * "whichever is longer" windows (upstream ships about three releases a year).
 */
export function deriveTimeline(
  introductions: readonly { version: string; release: number }[],
  releases: number,
  monthsPerRelease = 4,
): TimelineRelease[] {
  const out: TimelineRelease[] = [];
  const history: ServedInRelease[] = [];
  let served: string[] = [];
  const deprecatedAt = new Map<string, number>();
  let preferred: string | undefined;
  const levelOf = (v: string) => parseVersion(v)!.level;
  for (let r = 0; r < releases; r++) {
    for (const intro of introductions.filter((i) => i.release === r)) {
      for (const old of served) if (!deprecatedAt.has(old) && mayReplace(levelOf(old), levelOf(intro.version))) deprecatedAt.set(old, r);
      served.push(intro.version);
    }
    served = served.filter((v) => {
      const d = deprecatedAt.get(v);
      if (d === undefined) return true;
      const sameMajor = parseVersion(v)!.major === Math.max(...served.map((s) => parseVersion(s)!.major));
      return !apiVersionMayBeRemoved(levelOf(v), { releases: r - d, months: (r - d) * monthsPerRelease }, sameMajor);
    });
    served.sort((a, b) => comparePreference(parseVersion(a)!, parseVersion(b)!));
    const best = served[0]!;
    if (preferred === undefined || !served.includes(preferred) || mayAdvancePreferred(history, preferred, best, r)) preferred = best;
    history.push({ release: r, served: [...served] });
    out.push({ release: r, served: [...served], preferred, deprecated: served.filter((v) => deprecatedAt.has(v)) });
  }
  return out;
}

/**
 * The timeline's closing remark: a resource deprecated in X+1 works through X+8 and ceases in X+9
 * when its version ages out. Stated by the spec, kept as data (the spec does not say which version
 * carries that resource, so it is not derived).
 */
export const exampleResourceDeprecation = { deprecatedIn: 1, worksThrough: 8, ceasesIn: 9 } as const;
