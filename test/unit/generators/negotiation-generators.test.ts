// Generator contracts (docs/architecture.md "Generation apart from execution") for the dry-run steps and the Accept lists: same seed,
// same value; serialisable; the dry-run writes use the two folded names; every range names its
// representations consistently with the model.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dryRunStepsArb, showDryRunStep } from '../../../generators/dry-run-ops.ts';
import { acceptListArb, unsupportedListArb } from '../../../generators/media-types.ts';
import { namePool } from '../../../generators/ops.ts';
import { acceptableAnswers } from '../../../reference/media-types.ts';
import { profiles } from '../../../reference/profile.ts';

const shape = { resources: ['configmaps', 'leases'] as const, namespaces: 1 };

describe('dry-run and media-type generators', () => {
  it('are deterministic for a seed', () => {
    expect(fc.sample(dryRunStepsArb(shape), { seed: 7, numRuns: 5 })).toEqual(fc.sample(dryRunStepsArb(shape), { seed: 7, numRuns: 5 }));
    expect(fc.sample(acceptListArb(profiles.k8s), { seed: 7, numRuns: 5 })).toEqual(
      fc.sample(acceptListArb(profiles.k8s), { seed: 7, numRuns: 5 }),
    );
  });

  it('dry-run steps are serialisable, readable, and write to two names only', () => {
    fc.assert(
      fc.property(dryRunStepsArb(shape), (steps) => {
        expect(JSON.parse(JSON.stringify(steps))).toEqual(steps);
        for (const s of steps) {
          expect(showDryRunStep(s).length).toBeGreaterThan(0);
          const w = s.op === 'dryRun' || s.op === 'dryRunInvalid' ? s.write : s;
          if ('name' in w) expect(namePool.slice(0, 2)).toContain(w.name);
          if (s.op === 'dryRunInvalid') expect(['', 'All']).not.toContain(s.value);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('unsupported lists are 406 territory for every profile', () => {
    for (const p of Object.values(profiles)) {
      fc.assert(
        fc.property(unsupportedListArb(p), (list) => {
          expect(acceptableAnswers(p, list.map((r) => r.text).join(', '), { builtIn: true }).may406).toBe(true);
        }),
        { numRuns: 50 },
      );
    }
  });
});
