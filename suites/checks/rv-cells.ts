/**
 * rest:4.5, one check per cell of the get and list tables (scenarios as a table): a few writes, then
 * the read of that cell, judged against the set of snapshots its semantic allows, the Invalid and
 * 400 cells included.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { showOp, type ListOp, type Op, type WriteOp } from '../../generators/ops.ts';
import { apart, getCellReadArb, listCellReadArb, setupArb } from '../../generators/rv-cells.ts';
import { runOp } from '../../harness/interpreters/index.ts';
import { getClause, listCells, listClause } from '../../reference/rv-semantics.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

/**
 * `listFirst`: a list of ns0 before the read, so "other value" may also name a collection's
 * resourceVersion (not only an object's): the case where upstream's per-type watch cache may lag.
 */
type CellInput = { setup: WriteOp[]; read: Op; listFirst?: boolean };

const firstList: Op = { op: 'list', res: 'configmaps', ns: 0, match: 'unset', rv: { kind: 'unset' } };

/**
 * Random cases per cell (request economy, docs/performance.md). With one seed every cell drew the same
 * setups, so 24 cells of 25 cases wrote 600 setups of which 25 differed; each cell now draws setups
 * of its own (`apart`), and the table reads after more distinct setups (24 x CASES_PER_CELL) for a
 * fifth of the writes. A cell's verdict rests on its read, whose arbitrary is unchanged.
 */
export const CASES_PER_CELL = 5;

function cellCheck(
  id: string,
  clause: ClauseId,
  read: fc.Arbitrary<Op>,
  cell: number,
  opts: { listFirst?: boolean; examples?: readonly CellInput[] } = {},
): Check<CellInput> {
  return {
    id,
    suite: 'rest-resource-versions',
    title: `rest:4.5 cell ${clause}`,
    clauses: [clause],
    defaultRuns: CASES_PER_CELL,
    ...(opts.examples !== undefined ? { examples: () => opts.examples! } : {}),
    arbitrary: () =>
      apart(cell, opts.listFirst ? fc.record({ setup: setupArb, read, listFirst: fc.boolean() }) : fc.record({ setup: setupArb, read })),
    describe: (i) => [...i.setup.map(showOp), ...(i.listFirst ? [showOp(firstList)] : []), showOp(i.read)],
    run: async (i, cx) => {
      await cx.stepByStep([...i.setup, ...(i.listFirst ? [firstList] : []), i.read], (op) => runOp(cx, op));
    },
  };
}

const cellId = (clause: ClauseId) => `rv-cell-${clause.slice('rest:4.5/'.length).replaceAll('/', '-')}`;

export const listCellChecks: Check<CellInput>[] = listCells().map((cell, i) => {
  const clause = listClause(cell.match, cell.paging, cell.rv);
  return cellCheck(
    cellId(clause),
    clause,
    listCellReadArb(cell),
    i,
    cell.paging === 'limit' && cell.rv === 'zero' && cell.match !== 'Exact' ? { examples: [limitBelowCount(cell.match)] } : {},
  );
});

/**
 * rv="0" with a limit below the number of objects, on every run: a server may answer such a list from
 * a cache that ignores the limit (the page-size rule of rest:4.4.1, judged under the cell). Random
 * setups of two to four objects and limits of one to three met it on most seeds, not all.
 */
function limitBelowCount(match: ListOp['match']): CellInput {
  const create = (name: string): WriteOp => ({
    op: 'create',
    res: 'configmaps',
    ns: 0,
    name,
    content: { labels: {}, annotations: {}, data: { k1: 'v1' } },
  });
  return {
    setup: [create('alpha'), create('bravo'), create('charlie')],
    read: { op: 'list', res: 'configmaps', ns: 0, match, rv: { kind: 'zero' }, limit: 1, between: [] },
  };
}

export const getCellChecks: Check<CellInput>[] = (['unset', 'zero', 'other'] as const).map((rv, i) =>
  cellCheck(cellId(getClause(rv)), getClause(rv), getCellReadArb(rv), listCells().length + i, { listFirst: rv === 'other' }),
);
