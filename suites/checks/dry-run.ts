/**
 * rest:4.6: random write sequences with dry-run writes interleaved. Every dry-run answers like the
 * real write would (status, would-be object modulo the generated fields of rest:2.8) and leaves the
 * key as the model had it; the real writes and reads around them are judged as in rest-crud, so a
 * persisted dry-run also shows up in later reads.
 */
import type { Check } from '../../harness/case/index.ts';
import { dryRunStepsArb, showDryRunStep, type DryRunStep } from '../../generators/dry-run-ops.ts';
import { runDryRunStep } from '../../harness/interpreters/index.ts';
import { bareDryRunCase, dryRunAllCase, fixedCaseArb, prettyBareDryRunCase, type FixedCase } from '../../generators/rest-edges.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export const dryRunSequences: Check<DryRunStep[]> = {
  id: 'dry-run-sequences',
  suite: 'rest-dry-run',
  title: 'dry-run writes (?dryRun, dryRun=All) answer like real writes and persist nothing',
  clauses: ['rest:4.6.1', 'rest:4.6.2', 'rest:7/200', 'rest:2.8', 'rest:4.3/dryRun', 'rest:4.3/pretty'],
  defaultRuns: 10,
  // dryRun=All and generateName before any random case: on a target that refuses the bare flag the
  // property ends at the first random case that sends one, and rest:7/200 and rest:2.8 were judged on
  // some seeds only.
  examples: () => [dryRunAllCase.value],
  arbitrary: () => dryRunStepsArb({ resources: ['configmaps', 'leases'], namespaces: 1 }, { maxLength: 10 }),
  describe: (steps) => steps.map(showDryRunStep),
  run: async (steps, cx) => {
    await cx.stepByStep(steps, (s) => runDryRunStep(cx, s));
  },
};

/**
 * The bare flag on every run: the random sequences above draw `?dryRun` (no value) in about one step of
 * eight, so whether rest:4.6.1 was judged at all rested on the seed. One fixed case per form
 * (generators/rest-edges.ts).
 */
function fixedDryRunCheck(id: string, title: string, c: FixedCase<DryRunStep[]>): Check<DryRunStep[]> {
  return {
    id,
    suite: 'rest-dry-run',
    title,
    // Not rest:7/200: the bare flag's answers are judged under rest:4.6.1, not by the status table. Not
    // rest:2.8: these cases name their objects, and a dry-run's generated values are compared by no rule
    // (a pass that could not fail), so only a generateName create judges that clause.
    clauses: [...new Set<ClauseId>(c.decides)],
    defaultRuns: 1,
    arbitrary: () => fixedCaseArb(c),
    describe: (steps) => steps.map(showDryRunStep),
    run: async (steps, cx) => {
      await cx.stepByStep(steps, (s) => runDryRunStep(cx, s));
    },
  };
}

export const dryRunBareFlag = fixedDryRunCheck(
  'dry-run-edges-bare-flag',
  'a bare ?dryRun (no value) on a create, update, merge patch and delete answers like the real write, on every run',
  bareDryRunCase,
);
export const dryRunBareFlagPretty = fixedDryRunCheck(
  'dry-run-edges-bare-flag-pretty',
  '?dryRun&pretty=true on a create answers like the real write, on every run',
  prettyBareDryRunCase,
);
