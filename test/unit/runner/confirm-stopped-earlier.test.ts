// Why: a replay that failed another clause of its case first (it met a different state than the run's
// case) never reached the failure it was to confirm, and the failure was labelled "not reproduced", as
// if replays had shown it gone. Such replays now say they could not confirm it, and what stopped them.
import { describe, expect, it } from 'vitest';
import { confirmFailures, confirmationLabel } from '../../../runner/confirm-failures.ts';
import type { CheckRecord, Counterexample } from '../../../runner/results.ts';

const cx = (clause: CheckRecord['clause']): Counterexample => ({
  check: 'crud-sequences',
  clause,
  expected: 'e',
  observed: 'o',
  steps: [],
  curl: '',
  requestCount: 1,
  seed: 1,
  path: '0',
  replay: 'r',
});
const fail = (clause: CheckRecord['clause']): CheckRecord => ({
  clause,
  check: 'crud-sequences',
  verdict: 'fail',
  count: 1,
  counterexample: cx(clause),
});

async function labelWhenReplaysAnswer(again: readonly CheckRecord[]) {
  const [r] = await confirmFailures([fail('rest:4.1/put')], {
    times: 2,
    deadline: Infinity,
    now: () => 0,
    replay: async () => again,
    log: () => undefined,
  });
  return r!.counterexample!.confirmation!;
}

describe('confirmation of a failure whose replays fail something else first', () => {
  it('is not confirmed, naming what stopped the replays, instead of not reproduced', async () => {
    const c = await labelWhenReplaysAnswer([fail('rest:2.2.2')]);
    expect(c.label).toBe('not confirmed (replays failed earlier)');
    expect(c.stoppedEarlierBy).toEqual(['rest:2.2.2']);
    expect(confirmationLabel(c)).toBe('not confirmed (replays failed earlier) (every replay failed rest:2.2.2 first)');
  });

  it('is not reproduced when the replays reached it and passed', async () => {
    expect((await labelWhenReplaysAnswer([{ clause: 'rest:4.1/put', check: 'crud-sequences', verdict: 'pass', count: 3 }])).label).toBe(
      'not reproduced',
    );
  });

  it('reproduces alone when the replays fail it again, whatever else they fail', async () => {
    expect((await labelWhenReplaysAnswer([fail('rest:2.2.2'), fail('rest:4.1/put')])).label).toBe('reproduces alone');
  });
});
