/**
 * The known names nearest to a mistyped one, for "did you mean" in usage errors: by edit distance,
 * ties in the known list's order, none much farther than the nearest. `rest:4.4.99` -> rest:4.4.1,
 * rest:4.4.2, rest:4.4.3.
 */
export function nearestNames(typed: string, known: Iterable<string>, count = 3): string[] {
  const scored: { name: string; d: number; i: number }[] = [];
  let i = 0;
  for (const name of known) scored.push({ name, d: editDistance(typed.toLowerCase(), name.toLowerCase()), i: i++ });
  scored.sort((a, b) => a.d - b.d || a.i - b.i);
  // Names much farther than the nearest are noise beside it (health-endpoint: health-endpoints, not apply-points).
  const best = scored[0]?.d ?? 0;
  return scored
    .filter((s) => s.d <= best + 1)
    .slice(0, count)
    .map((s) => s.name);
}

/** `; did you mean a, b or c?` (empty when nothing is known). */
export function didYouMean(typed: string, known: Iterable<string>, count = 3): string {
  const near = nearestNames(typed, known, count);
  if (near.length === 0) return '';
  return `; did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`}?`;
}

/** Levenshtein distance, two rows. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
