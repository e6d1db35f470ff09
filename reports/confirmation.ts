/**
 * `--confirm N` (issue 19): before anyone is paged, a failure is replayed from its seed and path N more
 * times. The label says whether it is a property of the target or of the moment.
 *   confirmationLabel({ runs: 3, reproduced: 3 }) -> 'deterministic (3/3 replays failed again)'
 *   confirmationLabel({ runs: 3, reproduced: 1 }) -> 'flaky (1/3 replays failed again)'
 */
import type { Counterexample } from '../harness/results.ts';

export function confirmationLabel(c: NonNullable<Counterexample['confirmation']>): string {
  const kind = c.reproduced === c.runs ? 'deterministic' : c.reproduced === 0 ? 'not reproduced' : 'flaky';
  return `${kind} (${c.reproduced}/${c.runs} replays failed again)`;
}
