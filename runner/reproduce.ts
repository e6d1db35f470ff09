/** `run --reproduce N`: how often one counterexample fails again, and the labels that follow from it. */
import type { CheckRecord, ConfirmationLabel } from './results.ts';

/** Replays a counterexample `times` times: how many replays failed, and the clauses they failed. */
export async function reproductionRate(
  times: number,
  replay: () => Promise<readonly CheckRecord[]>,
): Promise<{ failed: number; clauses: string[]; byClause: Map<string, number> }> {
  let failed = 0;
  const byClause = new Map<string, number>();
  for (let i = 0; i < times; i++) {
    const fails = (await replay()).filter((r) => r.verdict === 'fail');
    if (fails.length > 0) failed++;
    for (const c of new Set(fails.map((f) => f.clause))) byClause.set(c, (byClause.get(c) ?? 0) + 1);
  }
  return { failed, clauses: [...byClause.keys()], byClause };
}

/** The run's failures labelled from the reproduction rate: every replay failed, some did, none did. */
export function withReproductionRate(
  records: readonly CheckRecord[],
  times: number,
  rate: { byClause: ReadonlyMap<string, number> },
): CheckRecord[] {
  return records.map((r) => {
    if (r.verdict !== 'fail' || r.counterexample === undefined) return r;
    const reproduced = rate.byClause.get(r.clause) ?? 0;
    const label: ConfirmationLabel = reproduced === times ? 'reproduces alone' : reproduced > 0 ? 'flaky' : 'not reproduced';
    return { ...r, counterexample: { ...r.counterexample, confirmation: { label, runs: times, reproduced } } };
  });
}
