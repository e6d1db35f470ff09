/**
 * Planted faults generated one per row of a spec table (oracle strength: every row a default run
 * passes has a fault that fails it). Their names carry the row (`removed-version-served/<row>`), so
 * they are apart from the `as const` table of faults.ts, whose names are a closed type; `--fault`,
 * `list-faults`, the self-tests and `npm run mutation` take both.
 *
 * `removed-version-served/<row>`: the group version of one rest:9.4 row is still served once removed.
 * A row not yet removed at the default release (1.24) passes served or not there, so its fault runs
 * the server at the row's removal release (Fault.target), where the row has something to break.
 *
 * `cell-misread/<cell>`: one cell of the rest:4.5 get and list tables read the other way round: a cell
 * the table serves is refused with 400, a cell it refuses is served (as Most Recent).
 */
import { removals } from '../../reference/versioning/removals.ts';
import { compareReleases, REFERENCE_RELEASE } from '../../reference/versioning/release.ts';
import { decideGet, decideList, getClause, listCells } from '../../reference/rv-semantics.ts';
import type { ServerState } from './state.ts';
import type { Fault } from './faults.ts';

export type FamilyFaultName = `removed-version-served/${string}` | `cell-misread/${string}`;

const rowOf = (clause: string) => clause.replace(/^rest:9\.4\//, '');

const removalFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = removals
  // coordination v1beta1 leases have a fault of their own (faults.ts removed-version-served).
  .filter((r) => r.clause !== 'rest:9.4/coordination-v1beta1-lease')
  .map((r) => ({
    name: `removed-version-served/${rowOf(r.clause)}` as const,
    clause: r.clause,
    description: `${r.group.stem}/${r.version} ${r.resource} (removed in v${r.removedIn.major}.${r.removedIn.minor}) is still served after its removal`,
    checks: ['deprecated-versions'],
    alsoReportedAs: [],
    ...(compareReleases(r.removedIn, REFERENCE_RELEASE) > 0 ? { target: { release: `${r.removedIn.major}.${r.removedIn.minor}` } } : {}),
  }));

/** The cells of the get and list tables with an answer the table fixes (resourceVersionMatch with continue has no row). */
const cells = [
  ...(['unset', 'zero', 'other'] as const).map((rv) => ({ clause: getClause(rv), served: decideGet(rv).outcome === 'serve' })),
  ...listCells()
    .map((c) => decideList(c))
    .filter((d) => d.outcome !== 'unspecified')
    .map((d) => ({ clause: d.clause, served: d.outcome === 'serve' })),
];
const cellSlug = (clause: string) => clause.replace(/^rest:4\.5\//, '');

const cellFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = cells.map((c) => ({
  name: `cell-misread/${cellSlug(c.clause)}` as const,
  clause: c.clause,
  description: c.served ? `a ${cellSlug(c.clause)} read, which the table serves, is refused with 400` : `a ${cellSlug(c.clause)} read, which the table refuses, is served as Most Recent`,
  // The cell's own check (suites/checks/rv-cells.ts names it after the cell).
  checks: [`rv-cell-${cellSlug(c.clause).replaceAll('/', '-')}`],
  alsoReportedAs: [],
}));

export const familyFaults: readonly (Fault & { readonly name: FamilyFaultName })[] = [...removalFaults, ...cellFaults];

/** Whether the planted fault cell-misread/<cell> is on for the cell of `clause`. */
export const cellMisread = (st: ServerState, clause: string): boolean => st.faults.size > 0 && st.faults.has(`cell-misread/${cellSlug(clause)}`);

/** The row a removed-version-served fault keeps serving, by its clause; undefined for any other name. */
export function keptRow(name: string): string | undefined {
  return name.startsWith('removed-version-served/') ? `rest:9.4/${name.slice('removed-version-served/'.length)}` : undefined;
}
