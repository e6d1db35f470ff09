/**
 * The rows of the rest:3.2 ownership table as scenarios (one object each): fixed shapes of steps with
 * generated keys and values. Every case runs every row (about twenty requests), so every run covers
 * the whole table; a case stops at its first failing row.
 */
import fc from 'fast-check';
import type { ApplyStep, JsonOp } from './apply.ts';

import { ownershipRows, type OwnershipRow } from '../reference/apply/ownership-rows.ts';

export { ownershipRows, type OwnershipRow };

export interface RowScenario {
  readonly row: OwnershipRow;
  readonly steps: readonly ApplyStep[];
}

const values = fc.uniqueArray(fc.constantFrom('v1', 'v2', 'v3', 'x y'), { minLength: 2, maxLength: 2 });
const keys = fc.uniqueArray(fc.constantFrom('k1', 'k2', 'k3', 'key.with.dots'), { minLength: 2, maxLength: 2 });
const data = (d: Record<string, string>) => ({ data: d });

function scenario(row: OwnershipRow): fc.Arbitrary<RowScenario> {
  return fc.record({ v: values, k: keys, how: fc.constantFrom('update', 'merge', 'json') }).map(({ v: [v1, v2], k: [k, j], how }) => {
    const a = 'mgr-a' as const;
    const b = 'mgr-b' as const;
    const apply = (manager: typeof a | typeof b, d: Record<string, string>, force = false): ApplyStep => ({
      op: 'apply',
      manager,
      force,
      content: data(d),
    });
    const steps: Record<OwnershipRow, ApplyStep[]> = {
      'apply-conflict': [apply(a, { [k!]: v1! }), apply(b, { [k!]: v2! })],
      'apply-force': [apply(a, { [k!]: v1!, [j!]: v1! }), apply(b, { [k!]: v2! }, true)],
      'apply-same-value': [apply(a, { [k!]: v1! }), apply(b, { [k!]: v1! })],
      'apply-omit-sole': [apply(a, { [k!]: v1!, [j!]: v2! }), apply(a, { [j!]: v2! })],
      'apply-omit-shared': [apply(a, { [k!]: v1!, [j!]: v2! }), apply(b, { [k!]: v1! }), apply(a, { [j!]: v2! })],
      'non-apply-write': [apply(a, { [k!]: v1!, [j!]: v1! }), nonApply(how, b, { [k!]: v2!, [j!]: v1! }, k!, v2!)],
    };
    return { row, steps: steps[row] };
  });
}

const pointer = (key: string) => `/data/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

function nonApply(how: string, manager: 'mgr-b', d: Record<string, string>, key: string, value: string): ApplyStep {
  if (how === 'merge') return { op: 'merge', manager, patch: { data: { [key]: value } } };
  if (how === 'json') return { op: 'json', manager, ops: [{ op: 'replace', path: pointer(key), value } satisfies JsonOp] };
  return { op: 'update', manager, content: data(d), managedFields: 'keep' };
}

export const rowScenariosArb: fc.Arbitrary<RowScenario[]> = fc.tuple(...ownershipRows.map(scenario));
