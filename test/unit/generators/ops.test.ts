// Generator contracts (docs/architecture.md "Generation apart from execution"): same seed, same value; values are well-formed; shrinking
// goes smaller; selectors always parse.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { contentArb, opsArb, opsWithLifecycleArb, selectorArb, showOp, namePool } from '../../../generators/ops.ts';
import { apart, setupArb } from '../../../generators/rv-cells.ts';
import { getCellChecks, listCellChecks } from '../../../suites/checks/rv-cells.ts';
import { watchCellChecks } from '../../../suites/checks/watch.ts';
import { parseLabelSelector } from '../../../reference/label-selector.ts';

const shape = { resources: ['configmaps', 'leases'] as const, namespaces: 2 };

describe('operation generators', () => {
  it('are deterministic for a seed', () => {
    const a = fc.sample(opsArb(shape), { seed: 42, numRuns: 5 });
    const b = fc.sample(opsArb(shape), { seed: 42, numRuns: 5 });
    expect(a).toEqual(b);
  });

  it('produce serialisable operations with names from the pool and namespaces in range', () => {
    fc.assert(
      fc.property(opsArb(shape), (ops) => {
        expect(JSON.parse(JSON.stringify(ops))).toEqual(ops);
        // One expect over the offending operations, not three per operation (an expect costs far more
        // than these comparisons, and this runs for every operation of 200 sequences).
        const pool: readonly string[] = namePool;
        const offending = ops.filter(
          (op) =>
            ('name' in op && !pool.includes(op.name)) ||
            ('ns' in op && op.ns !== 'all' && !(typeof op.ns === 'number' && op.ns < shape.namespaces)) ||
            !(showOp(op).length > 0),
        );
        expect(offending).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('never generate a label value the upstream syntax would refuse', () => {
    fc.assert(
      fc.property(contentArb, (c) => {
        for (const v of Object.values(c.labels)) expect(v).toMatch(/^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/);
      }),
    );
  });

  it('produce selectors that parse', () => {
    fc.assert(
      fc.property(selectorArb, (s) => {
        expect(parseLabelSelector(s).ok).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('set up at least two distinct objects first, so paging always has a continuation', () => {
    fc.assert(
      fc.property(setupArb, (ops) => {
        const creates = ops.filter((o) => o.op === 'create').slice(0, 2);
        expect(creates).toHaveLength(2);
        expect(new Set(creates.map((c) => c.name)).size).toBe(2);
        expect(ops[0]!.op).toBe('create');
      }),
    );
  });

  it('shrink toward shorter sequences', () => {
    const r = fc.check(
      fc.property(opsArb(shape), (ops) => ops.length < 5),
      { seed: 1 },
    );
    expect(r.failed).toBe(true);
    expect(r.counterexample![0]).toHaveLength(5);
  });
});

describe('opsWithLifecycleArb', () => {
  const hasLifecycle = (ops: readonly { op: string; res: string; ns?: unknown; name?: string }[]) =>
    ops.some(
      (d, j) =>
        d.op === 'delete' && ops.slice(0, j).some((c) => c.op === 'create' && c.res === d.res && c.ns === d.ns && c.name === d.name),
    );

  it('puts a create before a delete of the same object in about half the sequences, within the length bound', () => {
    const samples = fc.sample(opsWithLifecycleArb(shape, { maxLength: 14 }), { seed: 7, numRuns: 400 });
    const share = samples.filter(hasLifecycle).length / samples.length;
    expect(share).toBeGreaterThan(0.4);
    expect(Math.max(...samples.map((s) => s.length))).toBeLessThanOrEqual(14);
  });

  it('every seed of a default-budget run (25 sequences) has one', () => {
    for (let seed = 1; seed <= 50; seed++)
      expect(fc.sample(opsWithLifecycleArb(shape, { maxLength: 14 }), { seed, numRuns: 25 }).some(hasLifecycle), `seed ${seed}`).toBe(true);
  });
});

describe('apart: cells of one table on one seed draw setups of their own', () => {
  const setupsOf = (arb: fc.Arbitrary<{ setup: unknown }>) => fc.sample(arb, { seed: 7, numRuns: 5 }).map((i) => JSON.stringify(i.setup));

  it('is deterministic for a seed and a cell', () => {
    expect(fc.sample(apart(3, setupArb), { seed: 9, numRuns: 5 })).toEqual(fc.sample(apart(3, setupArb), { seed: 9, numRuns: 5 }));
  });

  it('the rv-cell and watch-cell checks repeat no setup of another cell (they all drew the same ones before)', () => {
    const env = {} as never;
    for (const checks of [[...listCellChecks, ...getCellChecks], watchCellChecks]) {
      const all = checks.flatMap((c) => setupsOf(c.arbitrary(env) as fc.Arbitrary<{ setup: unknown }>));
      expect(new Set(all).size).toBeGreaterThan(all.length * 0.9);
    }
  });

  it('shrinks what the input shrinks, and nothing of the skipped draws', () => {
    const out = fc.check(
      fc.property(apart(5, fc.nat({ max: 1000 })), (n) => n < 10),
      { seed: 3 },
    );
    expect(out.failed).toBe(true);
    expect(out.counterexample).toEqual([10]);
  });
});
