/**
 * `run --confirm N` (issue 19): each failure replayed from its seed and path, so a nightly reader knows
 * whether it is the target's or the moment's before paging anyone. The replay itself is injected (the
 * CLI runs the check's suite again); this module only counts and labels.
 */
import type { CheckRecord, Counterexample } from '../harness/results.ts';
import { confirmationLabel } from '../reports/confirmation.ts';

/** The distinct failures (check and clause) whose counterexample can be replayed from seed and path. */
const MAX_CONFIRMED = 10;

/**
 * Replays each distinct failure `times` times and records how often the same clause failed again
 * (`Counterexample.confirmation`); a failure with no path, or past the first ten, is left as it is.
 */
export async function confirmFailures(
  records: CheckRecord[],
  times: number,
  replay: (check: string, cx: Counterexample) => Promise<readonly CheckRecord[]>,
  log: (line: string) => void,
): Promise<CheckRecord[]> {
  const done = new Map<string, NonNullable<Counterexample['confirmation']>>();
  for (const r of records) {
    const cx = r.counterexample;
    const key = `${r.check}\u0000${r.clause}`;
    if (r.verdict !== 'fail' || cx?.path === undefined || done.has(key) || done.size >= MAX_CONFIRMED) continue;
    let reproduced = 0;
    for (let i = 0; i < times; i++) {
      const again = await replay(r.check, cx);
      if (again.some((x) => x.verdict === 'fail' && x.clause === r.clause)) reproduced++;
    }
    done.set(key, { runs: times, reproduced });
    log(`svc-conformance: ${r.clause} (${r.check}): ${confirmationLabel(done.get(key)!)}`);
  }
  return records.map((r) => {
    const c = done.get(`${r.check}\u0000${r.clause}`);
    return c && r.counterexample ? { ...r, counterexample: { ...r.counterexample, confirmation: c } } : r;
  });
}

