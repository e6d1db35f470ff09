// Why: a failure whose whole rule is the answer's status (an update refused, a list the model says must
// be served answered 500) had a reproducer that said "undecided" (exit 3) against every server: its
// judge attached no need. The need is now the status class, so the script decides: 1 while the
// planted fault answers 500, 0 against a server without it.
import { describe, expect, it } from 'vitest';
import { failuresOf, runAgainst } from '../../../scripts/dev/in-process-run.ts';
import { judgeReproducers } from '../../../scripts/dev/reproducer-outcomes.ts';
import { faults, type FaultName } from '../../../targets/api-server/faults.ts';
import { hasCurl } from './curl.ts';

const SEED = 24;

async function decided(fault: FaultName, check: string, clause: string, runs: number) {
  const records = await runAgainst({ checks: [check], faults: [fault], runs, seed: SEED });
  const failed = failuresOf(records).filter((r) => r.clause === clause);
  expect(failed.length, `${fault} is caught`).toBeGreaterThan(0);
  return judgeReproducers(faults.find((f) => f.name === fault)!, failed.slice(0, 1));
}

describe.skipIf(!hasCurl)('reproducers of status failures decide (skipped: no curl binary)', () => {
  it('a list answered 500 where the model needs it served: exit 1 against the fault, 0 against a clean server', async () => {
    const [row] = await decided('paged-list-answers-500', 'rv-cell-list-unset-limit-unset', 'rest:4.5/list/unset/limit/unset', 10);
    expect([row!.faulty, row!.clean], row!.tail.faulty).toEqual([1, 0]);
  }, 180_000);

  it('an update answered 500: exit 1 against the fault, 0 against a clean server', async () => {
    const [row] = await decided('update-answers-500', 'crud-sequences', 'rest:4.1/put', 30);
    expect([row!.faulty, row!.clean], row!.tail.faulty).toEqual([1, 0]);
  }, 180_000);
});
