// Why: shrinking a failure against a slow target must end within its budget, stop
// once the counterexample is small, and say when the budget (not the search) ended it. The clock is a
// parameter here: no test waits or measures wall time.
import { describe, expect, it } from 'vitest';
import { SHRINK_RUN_RESERVE_MS, SMALL_COUNTEREXAMPLE_REQUESTS, ShrinkBudget } from '../../../harness/case/shrink-budget.ts';

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

describe('ShrinkBudget', () => {
  it('runs every case until the first failure, then candidates only within the budget', () => {
    const c = clock();
    const b = new ShrinkBudget(60_000, c.now);
    for (let i = 0; i < 5; i++) expect(b.mayRun()).toBe(true);
    expect(b.failed(40)).toBe(true);
    expect(b.failed(30)).toBe(false);
    c.advance(59_000);
    expect(b.mayRun()).toBe(true);
    expect(b.cutShort).toBeUndefined();
    c.advance(1_000);
    expect(b.mayRun()).toBe(false);
    expect(b.cutShort).toMatch(/shrinking cut short after 60 s \(--shrink-time; 1 candidates tried\)/);
  });

  it('stops at once when the counterexample is small, and that is not cut short', () => {
    const b = new ShrinkBudget(60_000, clock().now);
    b.failed(SMALL_COUNTEREXAMPLE_REQUESTS + 10);
    expect(b.mayRun()).toBe(true);
    b.failed(SMALL_COUNTEREXAMPLE_REQUESTS);
    expect(b.mayRun()).toBe(false);
    expect(b.cutShort).toBeUndefined();
  });

  it('a failure that sent no request (a loader file, a daemon command line) keeps shrinking within the budget', () => {
    const c = clock();
    const b = new ShrinkBudget(60_000, c.now);
    expect(b.failed(0)).toBe(true);
    expect(b.shrinking).toBe(true);
    expect(b.mayRun()).toBe(true);
    c.advance(60_000);
    expect(b.mayRun()).toBe(false);
  });

  it('an error stops the search: nothing to shrink, and no candidate is said to be shrinking', () => {
    const b = new ShrinkBudget(60_000, clock().now);
    expect(b.shrinking).toBe(false);
    b.stop();
    expect(b.mayRun()).toBe(false);
    expect(b.shrinking).toBe(false);
  });

  it("stops when the run's --timeout is near, so the check ends with its failure before the run stops", () => {
    const c = clock();
    let runLeft: number | undefined = 5 * 60_000;
    const b = new ShrinkBudget(60_000, c.now, () => runLeft);
    b.failed(40);
    expect(b.mayRun()).toBe(true);
    runLeft = SHRINK_RUN_RESERVE_MS;
    expect(b.mayRun()).toBe(true);
    runLeft = SHRINK_RUN_RESERVE_MS - 1;
    expect(b.mayRun()).toBe(false);
    expect(b.cutShort).toMatch(/^shrinking cut short: the run's --timeout was near its end \(2 candidates tried\)/);
    // Before any failure the run's budget is not the shrink budget's business: the scheduler stops checks.
    expect(new ShrinkBudget(60_000, c.now, () => 0).mayRun()).toBe(true);
  });
});
