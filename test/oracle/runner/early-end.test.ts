// Why: a target that breaks the run's own precondition (no clean namespace: a list
// that also returns other namespaces' objects looks like objects that survived their deletion) ends the
// run early. Failures found before that are still the verdict: exit 1, and the early-end line names the
// failed clauses first instead of blaming deletion. Without a failure the early end stays exit 3.
// The check stage is a stand-in returning such records: a real run takes two minutes to break the pool
// (eight namespaces waited out ten seconds each; measured with --fault never-delete).
import { describe, expect, it } from 'vitest';
import { planRun } from '../../../runner/plan.ts';
import { executeRun } from '../../../runner/executor.ts';
import type { CheckStage } from '../../../runner/check-stage.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../../runner/run-stop.ts';
import { PRECONDITION_FAILED } from '../../../harness/case/namespace-pool.ts';

const BROKEN = `infrastructure: ${PRECONDITION_FAILED}no clean namespace: the last 8 namespaces the run emptied still held objects it had deleted`;

function stageReturning(records: (checks: readonly string[]) => CheckRecord[]): CheckStage {
  return async (req) => ({
    records: records(req.checks.map((c) => c.id)),
    errors: [],
    footprints: [],
    finished: req.checks.map((c) => c.id),
  });
}

async function endedEarly(withFailure: boolean): Promise<{ exitCode: number; lines: string[] }> {
  const planned = planRun(
    {
      profile: 'svc',
      seed: 1,
      runs: 1,
      check: ['crud-sequences', 'names-and-scope'],
      reports: '.',
      output: 'text',
      confirm: false,
      timeout: DEFAULT_RUN_TIMEOUT_MS,
    },
    { seed: 1, runId: 'earlyend', cwd: '/' },
  );
  if (planned.errors) throw new Error(planned.errors.join('; '));
  const lines: string[] = [];
  const stage = stageReturning(([first, second]) => [
    { clause: 'rest:2.2.2', check: first!, verdict: withFailure ? 'fail' : 'pass', count: 1 },
    { clause: 'rest:2.3/metadata.name', check: second!, verdict: 'error', count: 0, note: BROKEN },
  ]);
  const { exitCode } = await executeRun({ ...planned.plan, inProcess: { keepFailures: true } }, { log: (l) => lines.push(l), stage });
  return { exitCode, lines };
}

describe('a run that ended early', () => {
  it('after a failure: exit 1, and the line names the failed clause before the broken precondition', async () => {
    const { exitCode, lines } = await endedEarly(true);
    expect(exitCode).toBe(1);
    expect(lines).toContain(
      'svc-conformance: run ended early, nonconformant: failed rest:2.2.2; then precondition failed: no clean namespace: the last 8 namespaces the run emptied still held objects it had deleted (a failure above may be its cause)',
    );
  }, 60_000);

  it('without a failure: exit 3, the precondition named', async () => {
    const { exitCode, lines } = await endedEarly(false);
    expect(exitCode).toBe(3);
    expect(lines).toContain(
      'svc-conformance: run ended early: precondition failed: no clean namespace: the last 8 namespaces the run emptied still held objects it had deleted',
    );
  }, 60_000);
});
