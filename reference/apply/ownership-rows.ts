/**
 * The rows of the rest:3.2 field-ownership table, once: the catalog's clauses, the generator's
 * scenarios, the check's clause list, the model's table tests and the bench all read this list.
 *
 *   ownershipClause('apply-force') -> 'rest:3.2/apply-force'
 */
export const OWNERSHIP_ROWS = [
  {
    row: 'apply-conflict',
    summary: 'Apply by B setting a different value on a field owned by A, without force: conflict, ownership unchanged',
  },
  {
    row: 'apply-force',
    summary: "Apply by B with force=true on A's field: value overwritten, B sole owner, field removed from other managers' entries",
  },
  { row: 'apply-same-value', summary: 'Apply by B with the value the field already has: ownership becomes shared by A and B' },
  {
    row: 'apply-omit-sole',
    summary: 'An owner applies without a field no other manager owns: the field is deleted, or reset to its default if it has one',
  },
  {
    row: 'apply-omit-shared',
    summary: "An owner applies without a field another manager also owns: value unchanged, only the applier's claim dropped",
  },
  {
    row: 'non-apply-write',
    summary: "Non-apply write (POST, PUT, non-apply PATCH) by B changing A's field: no conflict, ownership moves to B",
  },
] as const;

export type OwnershipRow = (typeof OWNERSHIP_ROWS)[number]['row'];

/** The clause of a row: a literal type, so it is checked against the catalog's ids where it is used. */
export const ownershipClause = <R extends OwnershipRow>(row: R): `rest:3.2/${R}` => `rest:3.2/${row}`;

export const ownershipRows: readonly OwnershipRow[] = OWNERSHIP_ROWS.map((r) => r.row);
export const ownershipClauses = OWNERSHIP_ROWS.map((r) => ownershipClause(r.row));
