/**
 * The support windows of rest:9.3: "N months or M releases, whichever is longer". A window is over
 * only when both have elapsed: 9 months or 3 releases means 3 releases in 4 months is not enough,
 * and 10 months within 2 releases is not enough either.
 */
export interface Window {
  readonly releases: number;
  readonly months: number;
}

export interface Elapsed {
  readonly releases: number;
  readonly months: number;
}

export const NONE: Window = { releases: 0, months: 0 };

/** The "longer of" rule: true once both the release count and the months have passed. */
export function windowOver(w: Window, elapsed: Elapsed): boolean {
  return elapsed.releases >= w.releases && elapsed.months >= w.months;
}

export function showWindow(w: Window): string {
  if (w.releases === 0 && w.months === 0) return '0 releases';
  const parts = [
    w.months > 0 ? `${w.months} months` : '',
    w.releases > 0 ? `${w.releases} release${w.releases === 1 ? '' : 's'}` : '',
  ].filter((p) => p !== '');
  return parts.length === 2 ? `${parts[0]} or ${parts[1]} (whichever is longer)` : parts[0]!;
}
