/**
 * rest:4.5, one check per cell of the get and list tables (scenarios as a table): a few writes, then
 * the read of that cell, judged against the set of snapshots its semantic allows, the Invalid and
 * 400 cells included.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/check.ts';
import { contentArb, namePool, showOp, writeOpArb, type ListOp, type Op, type RvPick, type WriteOp } from '../../generators/ops.ts';
import { runOp } from '../../harness/rest-interpreter.ts';
import { getClause, listCells, listClause, type RvClass } from '../../reference/rv-semantics.ts';

/** The resourceVersion choice of a table column: unset, "0", or one the suite learned. */
export const pickFor = (rv: RvClass): fc.Arbitrary<RvPick> =>
  rv === 'unset' ? fc.constant({ kind: 'unset' } as const) : rv === 'zero' ? fc.constant({ kind: 'zero' } as const) : fc.nat({ max: 20 }).map((pick) => ({ kind: 'learned', pick }) as const);

/** At least two objects in ns0, then random writes: a snapshot history worth reading from. */
export const setupArb: fc.Arbitrary<WriteOp[]> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...namePool), { minLength: 2, maxLength: 4 }),
    fc.array(contentArb, { minLength: 4, maxLength: 4 }),
    fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: 5 }),
  )
  .map(([names, contents, rest]) => [...names.map((name, i): WriteOp => ({ op: 'create', res: 'configmaps', ns: 0, name, content: contents[i]! })), ...rest]);

/**
 * `listFirst`: a list of ns0 before the read, so "other value" may also name a collection's
 * resourceVersion (not only an object's): the case where upstream's per-type watch cache may lag.
 */
type CellInput = { setup: WriteOp[]; read: Op; listFirst?: boolean };

const firstList: Op = { op: 'list', res: 'configmaps', ns: 0, match: 'unset', rv: { kind: 'unset' } };

function cellCheck(id: string, clause: string, read: fc.Arbitrary<Op>, opts: { listFirst?: boolean } = {}): Check<CellInput> {
  return {
    id,
    suite: 'rest-resource-versions',
    title: `rest:4.5 cell ${clause}`,
    clauses: [clause],
    arbitrary: () => (opts.listFirst ? fc.record({ setup: setupArb, read, listFirst: fc.boolean() }) : fc.record({ setup: setupArb, read })),
    describe: (i) => [...i.setup.map(showOp), ...(i.listFirst ? [showOp(firstList)] : []), showOp(i.read)],
    run: async (i, cx) => {
      for (const w of i.setup) await runOp(cx, w);
      if (i.listFirst) await runOp(cx, firstList);
      await runOp(cx, i.read);
    },
  };
}

const between = fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: 2 });

export const listCellChecks: Check<CellInput>[] = listCells().map((cell) => {
  const clause = listClause(cell.match, cell.paging, cell.rv);
  const id = `rv-cell-${clause.slice('rest:4.5/'.length).replaceAll('/', '-')}`;
  let read: fc.Arbitrary<ListOp>;
  if (cell.paging === 'no-limit') {
    read = fc.record({ op: fc.constant('list' as const), res: fc.constant('configmaps' as const), ns: fc.constant(0), match: fc.constant(cell.match), rv: pickFor(cell.rv) });
  } else if (cell.paging === 'limit') {
    read = fc.record({ op: fc.constant('list' as const), res: fc.constant('configmaps' as const), ns: fc.constant(0), match: fc.constant(cell.match), rv: pickFor(cell.rv), limit: fc.integer({ min: 1, max: 3 }), between });
  } else {
    // The token comes from a first page read at the newest state; the cell is the continuation's rv.
    read = fc.record({ op: fc.constant('list' as const), res: fc.constant('configmaps' as const), ns: fc.constant(0), match: fc.constant('unset' as const), rv: fc.constant({ kind: 'unset' } as const), limit: fc.constant(1), between, continueRv: pickFor(cell.rv) });
  }
  return cellCheck(id, clause, read);
});

export const getCellChecks: Check<CellInput>[] = (['unset', 'zero', 'other'] as const).map((rv) => {
  const clause = getClause(rv);
  const read = fc.record({ op: fc.constant('get' as const), res: fc.constant('configmaps' as const), ns: fc.constant(0), name: fc.constantFrom(...namePool), rv: pickFor(rv) });
  return cellCheck(`rv-cell-${clause.slice('rest:4.5/'.length).replaceAll('/', '-')}`, clause, read, { listFirst: rv === 'other' });
});
