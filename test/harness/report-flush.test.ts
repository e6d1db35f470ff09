// Before the run's deadline every test still waiting for its check reports: a finished check its own
// records, an unfinished one its clauses notChecked with the reason; without a deadline nothing flushes.
import { describe, expect, it } from 'vitest';
import { reportFlush, type CheckOutcome } from '../../harness/report-flush.ts';
import { emptyFootprint } from '../../harness/footprint.ts';

const check = { id: 'c', clauses: ['rest:4.1/post', 'rest:2.2.1'] as const };
const finished: CheckOutcome = { records: [{ clause: 'rest:4.1/post', check: 'c', verdict: 'fail', count: 1 }], footprint: emptyFootprint('c') };
const never = new Promise<CheckOutcome>(() => undefined);

describe('reportFlush', () => {
  it('a check still running at the flush reports its clauses notChecked; a finished one its records', async () => {
    // The flush is due at once (deadline = now + margin).
    const f = reportFlush(Date.now() + 1_000, Date.now, 1_000);
    const late = await f.outcome(check, never);
    expect(late.records.map((r) => [r.clause, r.verdict, r.note])).toEqual([
      ['rest:4.1/post', 'notChecked', 'run timeout: check c did not finish'],
      ['rest:2.2.1', 'notChecked', 'run timeout: check c did not finish'],
    ]);
    expect((await f.outcome(check, Promise.resolve(finished))).records).toEqual(finished.records);
  });

  it('without a deadline a test waits for its check', async () => {
    const f = reportFlush(Infinity);
    const r = await Promise.race([f.outcome(check, never), new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 50))]);
    expect(r).toBe('waiting');
  });
});
