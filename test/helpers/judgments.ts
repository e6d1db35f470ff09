/**
 * What a run judged, per check and clause: how many observations passed. Legal variations that only
 * change how answers are written are run together (variation-cases.ts); that is sound only while none
 * of them narrows what the checks judge (a variation that drops remainingItemCount leaves its clause
 * unjudged, so a run with it would also hide a flag of another variation on that field). The run of
 * the unvaried server with the same seed and runs makes the same requests, so each of its passed
 * judgments must come back at least as often.
 *
 *   narrowedJudgments({ 'a rest:2.3': 5 }, { 'a rest:2.3': 3 }, ['a']) -> ['a rest:2.3: passed 5 times unvaried, 3 here']
 */
import type { CheckRecord } from '../../runner/results.ts';

export type PassCounts = Readonly<Record<string, number>>;

const key = (r: Pick<CheckRecord, 'check' | 'clause'>) => `${r.check} ${r.clause}`;

/** Observations behind the pass records, per "check clause". */
export function passCounts(records: readonly CheckRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) if (r.verdict === 'pass') counts[key(r)] = (counts[key(r)] ?? 0) + r.count;
  return counts;
}

/** The judgments of `checks` the unvaried run passed that the varied run passed fewer times, one line each. */
export function narrowedJudgments(unvaried: PassCounts, varied: PassCounts, checks: readonly string[]): string[] {
  const ran = new Set(checks);
  return Object.entries(unvaried)
    .filter(([k, n]) => ran.has(k.slice(0, k.indexOf(' '))) && (varied[k] ?? 0) < n)
    .map(([k, n]) => `${k}: passed ${n} times unvaried, ${varied[k] ?? 0} here`);
}
