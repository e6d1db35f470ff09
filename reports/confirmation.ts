/**
 * The confirmation label of a failure as a person reads it, with the replays behind it:
 *   confirmationLabel({ label: 'reproduces alone', runs: 2, reproduced: 2 })
 *     -> 'reproduces alone (2/2 replays alone failed again)'
 *   confirmationLabel({ label: 'needs concurrent writes', runs: 2, reproduced: 0, withWrites: { runs: 2, reproduced: 2 } })
 *     -> 'needs concurrent writes (0/2 replays alone, 2/2 beside background writes failed again)'
 */
import type { Confirmation, Counterexample } from '../runner/results.ts';

export { confirmationLabel } from '../runner/confirm-failures.ts';

/**
 * The labels of the counterexamples a one-line report does not show, counted:
 *   labelCounts([reproducesAlone, needsWrites, needsWrites]) -> '2 needs concurrent writes, 1 reproduces alone'
 */
export function labelCounts(cxs: readonly Counterexample[]): string {
  const counts = new Map<string, number>();
  for (const cx of cxs) {
    const label = cx.confirmation?.label ?? 'not confirmed';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([l, n]) => `${n} ${l}`)
    .join(', ');
}
