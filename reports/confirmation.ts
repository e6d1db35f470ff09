/**
 * The confirmation label of a failure as a person reads it (issue 24), with the replays behind it:
 *   confirmationLabel({ label: 'reproduces alone', runs: 2, reproduced: 2 })
 *     -> 'reproduces alone (2/2 replays alone failed again)'
 *   confirmationLabel({ label: 'needs concurrent writes', runs: 2, reproduced: 0, withWrites: { runs: 2, reproduced: 2 } })
 *     -> 'needs concurrent writes (0/2 replays alone, 2/2 beside background writes failed again)'
 */
import type { Confirmation } from '../harness/results.ts';

export function confirmationLabel(c: Confirmation): string {
  if (c.runs === 0 && c.withWrites === undefined) return c.label;
  const alone = `${c.reproduced}/${c.runs} replays alone`;
  const counts = c.withWrites === undefined ? `${alone} failed again` : `${alone}, ${c.withWrites.reproduced}/${c.withWrites.runs} beside background writes failed again`;
  return `${c.label} (${counts})`;
}
