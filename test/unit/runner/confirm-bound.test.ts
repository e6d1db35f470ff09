// Why: confirmation announces a bound ("at most 60 s") and must keep it even when a
// replay waits out windows of its own (a watch that never delivers). A replay still running at the
// deadline is left behind and its failure labelled `not confirmed (time)`. Measured with real time and
// a generous margin; the same replay without the bound is shown to run past it.
import { describe, expect, it } from 'vitest';
import { confirmFailures, type ConfirmOptions } from '../../../runner/confirm-failures.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const failing = {
  clause: 'rest:6.1.1',
  check: 'c',
  verdict: 'fail',
  count: 1,
  counterexample: {
    check: 'c',
    clause: 'rest:6.1.1',
    expected: 'e',
    observed: 'o',
    steps: [],
    curl: '',
    requestCount: 1,
    seed: 1,
    replay: 'r',
    path: '0',
  },
} as unknown as CheckRecord;

const REPLAY_MS = 1500;
const BOUND_MS = 200;
const slowReplay = () => new Promise<CheckRecord[]>((resolve) => setTimeout(() => resolve([failing]), REPLAY_MS));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function timed(o: Partial<ConfirmOptions>): Promise<{ ms: number; label: string | undefined }> {
  const t0 = Date.now();
  const [r] = await confirmFailures([failing], {
    times: 2,
    deadline: t0 + BOUND_MS,
    now: Date.now,
    replay: slowReplay,
    log: () => undefined,
    ...o,
  });
  return { ms: Date.now() - t0, label: r!.counterexample!.confirmation?.label };
}

describe('confirmation keeps its announced bound', () => {
  it('a replay running at the deadline is left behind: done well within the replay time, not confirmed (time)', async () => {
    const bounded = await timed({ sleep });
    expect(bounded.label).toBe('not confirmed (time)');
    expect(bounded.ms).toBeLessThan(REPLAY_MS - 300);
  });

  it('without the bound a replay that started in time runs to its end (what the bound prevents)', async () => {
    const unbounded = await timed({});
    expect(unbounded.ms).toBeGreaterThanOrEqual(REPLAY_MS - 50);
  });
});
