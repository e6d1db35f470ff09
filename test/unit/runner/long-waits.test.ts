// Why: a check whose time against a real server is one long wait (namespace deletion, a 504) held a
// slot while it slept, so the run's length was set by it; it now starts at once beside the slots.
import { describe, expect, it } from 'vitest';
import { scheduleChecks } from '../../../runner/scheduler.ts';
import { startsBesideSlots } from '../../../runner/long-waits.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { CheckEnv } from '../../../harness/case/check-env.ts';

// An env whose every use throws: each check ends at once, with the order of starts left to see.
const throwingEnv = new Proxy(
  {},
  {
    get: () => {
      throw new Error('not used here');
    },
  },
) as CheckEnv;

async function startsOf(parallel: number): Promise<string[]> {
  const checks = ['crud-sequences', 'dry-run-sequences', 'apply-sequences-configmaps', 'names-and-scope', 'too-large-resource-version'].map(
    (id) => checkById(id)!,
  );
  const started: string[] = [];
  const s = scheduleChecks(checks, throwingEnv, { seed: 1, runs: 1 }, parallel, { onStart: (id) => started.push(id) });
  await s.done;
  return started;
}

describe('checks that wait long', () => {
  it('start before any check that takes a slot, even when every slot is taken', async () => {
    const started = await startsOf(2);
    expect(started.slice(0, 2).sort()).toEqual(['names-and-scope', 'too-large-resource-version']);
    expect(started).toHaveLength(5);
  });

  it('take their turn in a slot like the others with --parallel 1 (one check at a time)', async () => {
    expect(startsBesideSlots('names-and-scope', 1)).toBe(false);
    const started = await startsOf(1);
    expect(started[0]).toBe('crud-sequences');
    expect(started).toHaveLength(5);
  });

  it('are only the named ones', () => {
    expect(startsBesideSlots('too-large-resource-version', 4)).toBe(true);
    expect(startsBesideSlots('crud-sequences', 4)).toBe(false);
  });
});
