// Why: a failure card listed every step of the shrunk input, also the ones after the request that
// failed: the case stopped there and never sent them (shrinking stops once a counterexample is small,
// and leaves later steps in the input). The card now lists the steps that were begun, and says how
// many later ones were not sent.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';

describe('the steps of a failure card', () => {
  it('are the ones sent before the failure, with the count of those not sent', async () => {
    const { records } = await withReferenceServer({ faults: ['wrong-list-kind'] }, (server) =>
      runPlanned({ options: { server: server.url, check: ['crud-sequences'], runs: 25 }, seed: 4, runId: 'steps1' }),
    );
    const cx = records.find((r) => r.verdict === 'fail' && r.clause === 'rest:2.4.1')?.counterexample;
    expect(cx, 'the planted fault is caught').toBeDefined();
    const last = cx!.steps.at(-1)!;
    expect(last).toMatch(/^\(\d+ later step\(s\) not sent: the case stopped at this failure\)$/);
    // The step that failed is the last one listed: a list (wrong-list-kind answers every list so).
    expect(cx!.steps.at(-2)).toMatch(/^list /);
    expect(cx!.steps.slice(0, -1).filter((s) => s.startsWith('list ')).length).toBe(1);
  }, 60_000);
});
