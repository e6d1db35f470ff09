// deletion-finalizers judges rest:3.1/finalizer-order only when a case removes, while Terminating, a
// finalizer that is not first in the list: every case must, or the clause's reach moves with the seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deletionFinalizers, interleaveSteps, removesOutOfOrder } from '../../../suites/checks/deletion.ts';

const plan = (finalizers: number[], o: { before?: number; reorder?: boolean[] } = {}) => ({
  finalizers,
  removedBeforeDelete: o.before ?? 0,
  actors: [0, 0, 0],
  reorder: o.reorder ?? [false, false, false],
  repeatDelete: false,
  recreate: false,
});

describe('deletion-finalizers plans', () => {
  it('tells an out-of-order removal while Terminating from one in list order', () => {
    // Listed [0, 1]; removed 1 first after the delete: out of order.
    expect(removesOutOfOrder(plan([1, 0]))).toBe(true);
    // Removed in list order, or the out-of-order removal made before the delete: not shown.
    expect(removesOutOfOrder(plan([0, 1]))).toBe(false);
    expect(removesOutOfOrder(plan([2, 0], { before: 1 }))).toBe(false);
    // One finalizer: its removal ends the Terminating phase, nothing to order.
    expect(removesOutOfOrder(plan([0]))).toBe(false);
    // A removal that reverses the rest makes the next one in list order out of order by index.
    expect(removesOutOfOrder(plan([0, 1, 2], { reorder: [true, false, false] }))).toBe(true);
  });

  it('every drawn case removes some finalizer out of list order while Terminating', () => {
    const arb = deletionFinalizers.arbitrary(undefined as never);
    for (const input of fc.sample(arb, { numRuns: 300, seed: 7 })) {
      expect(input.plans.some(removesOutOfOrder), JSON.stringify(input)).toBe(true);
      expect(interleaveSteps(input).length).toBeGreaterThan(0);
    }
  });
});
