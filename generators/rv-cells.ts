/**
 * Inputs of the rest:4.5 cell checks and of every check that reads from a history: a setup of writes
 * worth reading from, and the read of one table cell. Plain operations (docs/architecture.md "Generation apart from execution"); the
 * resourceVersion is a pick among learned ones, never generated.
 */
import fc from 'fast-check';
import { contentArb, namePool, writeOpArb, type ListOp, type Op, type RvPick, type WriteOp } from './ops.ts';
import type { MatchClass, PagingClass, RvClass } from '../reference/rv-semantics.ts';

/** The resourceVersion choice of a table column: unset, "0", or one the suite learned. */
export const pickFor = (rv: RvClass): fc.Arbitrary<RvPick> =>
  rv === 'unset'
    ? fc.constant({ kind: 'unset' } as const)
    : rv === 'zero'
      ? fc.constant({ kind: 'zero' } as const)
      : fc.nat({ max: 20 }).map((pick) => ({ kind: 'learned', pick }) as const);

/** At least two objects in ns0, then random writes: a snapshot history worth reading from. */
export const setupArb: fc.Arbitrary<WriteOp[]> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...namePool), { minLength: 2, maxLength: 4 }),
    fc.array(contentArb, { minLength: 4, maxLength: 4 }),
    fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: 5 }),
  )
  .map(([names, contents, rest]) => [
    ...names.map((name, i): WriteOp => ({ op: 'create', res: 'configmaps', ns: 0, name, content: contents[i]! })),
    ...rest,
  ]);

const between = fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: 2 });

/**
 * `input` after `n` draws nothing reads: checks that share an arbitrary (the cells of a table) and
 * run on one seed draw from different parts of its stream, so they do not repeat each other's
 * setups. Fixed and not shrunk: shrinking them would change nothing the case does.
 */
export function apart<T>(n: number, input: fc.Arbitrary<T>): fc.Arbitrary<T> {
  const skipped = fc.noShrink(fc.array(fc.nat(), { minLength: n, maxLength: n }));
  return fc.tuple(skipped, input).map(
    ([, v]) => v,
    (v) => [new Array<number>(n).fill(0), v as T],
  );
}

/** The read of one cell of the rest:4.5 list table. */
export function listCellReadArb(cell: { match: MatchClass; paging: PagingClass; rv: RvClass }): fc.Arbitrary<ListOp> {
  const list = { op: fc.constant('list' as const), res: fc.constant('configmaps' as const), ns: fc.constant(0) };
  const read = { ...list, match: fc.constant(cell.match), rv: pickFor(cell.rv) };
  if (cell.paging === 'no-limit') return fc.record(read);
  if (cell.paging === 'limit') return fc.record({ ...read, limit: fc.integer({ min: 1, max: 3 }), between });
  // The token comes from a first page read at the newest state; the cell is the continuation's rv.
  return fc.record({
    ...list,
    match: fc.constant('unset' as const),
    rv: fc.constant({ kind: 'unset' } as const),
    limit: fc.constant(1),
    between,
    continueRv: pickFor(cell.rv),
  });
}

/** The read of one cell of the rest:4.5 get table. */
export const getCellReadArb = (rv: RvClass): fc.Arbitrary<Op> =>
  fc.record({
    op: fc.constant('get' as const),
    res: fc.constant('configmaps' as const),
    ns: fc.constant(0),
    name: fc.constantFrom(...namePool),
    rv: pickFor(rv),
  });
