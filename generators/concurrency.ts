/**
 * Plans of the concurrent workload: N writers, each a list of operations over a small key
 * space in two namespaces; plain data, replayed by the harness. The key space is small on purpose:
 * collisions (two creates of one name, updates racing on one version) are the point.
 */
import fc from 'fast-check';

export type PlannedOp =
  | { readonly op: 'create' | 'get'; readonly ns: number; readonly key: number }
  | { readonly op: 'update' | 'delete'; readonly ns: number; readonly key: number; readonly precondition: boolean }
  | { readonly op: 'list'; readonly ns: number };

export interface WorkloadPlan {
  readonly writers: readonly (readonly PlannedOp[])[];
  /** Milliseconds a writer waits between its operations, at most: spreads the writes over time. */
  readonly paceMs: number;
}

export interface WorkloadSize {
  readonly writers: number;
  readonly opsPerWriter: number;
  readonly keys: number;
  readonly paceMs: number;
}

/** Fits a 2-core machine and a shared cluster: about 70 operations over a second or two. */
export const defaultWorkloadSize: WorkloadSize = { writers: 4, opsPerWriter: 24, keys: 4, paceMs: 96 };

export function plannedOpArb(keys: number): fc.Arbitrary<PlannedOp> {
  const ns = fc.integer({ min: 0, max: 1 });
  const key = fc.integer({ min: 0, max: keys - 1 });
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ op: fc.constant('create' as const), ns, key }) },
    { weight: 5, arbitrary: fc.record({ op: fc.constant('update' as const), ns, key, precondition: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), ns, key, precondition: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('get' as const), ns, key }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('list' as const), ns }) },
  );
}

export function workloadPlanArb(size: WorkloadSize = defaultWorkloadSize): fc.Arbitrary<WorkloadPlan> {
  // At least half the length: a workload shorter than a bookmark interval could never meet one.
  const writer = fc.array(plannedOpArb(size.keys), { minLength: Math.ceil(size.opsPerWriter / 2), maxLength: size.opsPerWriter });
  return fc.record({
    writers: fc.array(writer, { minLength: Math.min(2, size.writers), maxLength: size.writers }),
    paceMs: fc.constant(size.paceMs),
  });
}

export function showPlannedOp(o: PlannedOp): string {
  if (o.op === 'list') return `list ns${o.ns}`;
  const pre = 'precondition' in o && o.precondition ? ' with the last seen resourceVersion as precondition' : '';
  return `${o.op} ns${o.ns}/k${o.key}${pre}`;
}
