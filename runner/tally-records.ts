/** The records a check's tally makes: passes, unspecified and inconclusive observations, clauses the model does not judge. */
import type { Tally } from '../harness/case/index.ts';
import type { CheckRecord } from './results.ts';

export function recordsFromTally(checkId: string, tally: Tally): CheckRecord[] {
  const out: CheckRecord[] = [];
  for (const [clause, count] of tally.passes) {
    const inputs = tally.exercised.get(clause);
    out.push({ clause, check: checkId, verdict: 'pass', count, ...(inputs !== undefined ? { inputs: Object.fromEntries(inputs) } : {}) });
  }
  for (const [clause, notes] of tally.unspecified) {
    for (const [note, count] of notes) out.push({ clause, check: checkId, verdict: 'unspecified', count, note });
  }
  for (const [clause, notes] of tally.inconclusive) {
    for (const [note, count] of notes) out.push({ clause, check: checkId, verdict: 'inconclusive', count, note });
  }
  for (const [clause, note] of tally.notChecked) out.push({ clause, check: checkId, verdict: 'notChecked', count: 0, note });
  return out;
}
