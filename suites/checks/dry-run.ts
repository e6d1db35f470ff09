/**
 * rest:4.6: random write sequences with dry-run writes interleaved. Every dry-run answers like the
 * real write would (status, would-be object modulo the generated fields of rest:2.8) and leaves the
 * key as the model had it; the real writes and reads around them are judged as in rest-crud, so a
 * persisted dry-run also shows up in later reads.
 */
import type { Check } from '../../harness/check.ts';
import { dryRunStepsArb, showDryRunStep, type DryRunStep } from '../../generators/dry-run-ops.ts';
import { runDryRunStep } from '../../harness/dry-run-interpreter.ts';

export const dryRunSequences: Check<DryRunStep[]> = {
  id: 'dry-run-sequences',
  suite: 'rest-dry-run',
  title: 'dry-run writes (?dryRun, dryRun=All) answer like real writes and persist nothing',
  clauses: ['rest:4.6.1', 'rest:4.6.2', 'rest:7/200', 'rest:2.8', 'rest:4.3/dryRun', 'rest:4.3/pretty'],
  defaultRuns: 10,
  arbitrary: () => dryRunStepsArb({ resources: ['configmaps', 'leases'], namespaces: 1 }, { maxLength: 10 }),
  describe: (steps) => steps.map(showDryRunStep),
  run: async (steps, cx) => {
    for (const s of steps) await runDryRunStep(cx, s);
  },
};
