/**
 * rest:4.5 resource-version decision tables as data plus lookups. Each cell carries its clause id, so a
 * check that exercises a cell reports exactly that row of the spec.
 *
 *   decideList({ match: 'unset', paging: 'limit-continue', rv: 'other' })
 *     -> { outcome: 'reject', statuses: [400], clause: 'rest:4.5/list/unset/limit-continue/other' }
 */
import { tableClauseId, type ClauseId } from './catalog/clause-id.ts';

/** How the request's `resourceVersion` parameter falls into the table's columns. */
export type RvClass = 'unset' | 'zero' | 'other';
export type MatchClass = 'unset' | 'Exact' | 'NotOlderThan';
export type PagingClass = 'no-limit' | 'limit' | 'limit-continue';

export type ReadSemantic =
  | 'MostRecent'
  | 'Any'
  | 'NotOlderThan'
  | 'Exact'
  | 'ContinueExact'
  | 'GetStateAndStartAtMostRecent'
  | 'GetStateAndStartAtAny'
  | 'StartAtExact';

export type Decision =
  /** The server must serve the request with this semantic (rest:4.5 "Meanings"). */
  | { readonly outcome: 'serve'; readonly semantic: ReadSemantic; readonly clause: ClauseId }
  /**
   * The server must refuse. `statuses` is the set of acceptable codes; `'4xx'` where the spec says
   * "Invalid" without naming a code (upstream answers 422, others 400: both conform).
   */
  | { readonly outcome: 'reject'; readonly statuses: '4xx' | readonly number[]; readonly clause: ClauseId }
  /** The spec has no row for this combination: whatever the target does is recorded, never failed. */
  | { readonly outcome: 'unspecified'; readonly clause: ClauseId; readonly why: string };

export const rvColumn = (rv: string | undefined): RvClass => (rv === undefined || rv === '' ? 'unset' : rv === '0' ? 'zero' : 'other');

const rvSlug: Record<RvClass, string> = { unset: 'unset', zero: '0', other: 'other' };
const matchSlug: Record<MatchClass, string> = { unset: 'unset', Exact: 'exact', NotOlderThan: 'notolderthan' };

export const getClause = (rv: RvClass): ClauseId => tableClauseId(`rest:4.5/get/${rvSlug[rv]}`);
export const watchClause = (rv: RvClass): ClauseId => tableClauseId(`rest:4.5/watch/${rvSlug[rv]}`);
export const listClause = (match: MatchClass, paging: PagingClass, rv: RvClass): ClauseId =>
  tableClauseId(`rest:4.5/list/${matchSlug[match]}/${paging}/${rvSlug[rv]}`);

const serve = (semantic: ReadSemantic, clause: ClauseId): Decision => ({ outcome: 'serve', semantic, clause });
const invalid = (clause: ClauseId): Decision => ({ outcome: 'reject', statuses: '4xx', clause });

/** rest:4.5 Get table. */
export function decideGet(rv: RvClass): Decision {
  const semantic: Record<RvClass, ReadSemantic> = { unset: 'MostRecent', zero: 'Any', other: 'NotOlderThan' };
  return serve(semantic[rv], getClause(rv));
}

/** rest:4.5 Watch table. */
export function decideWatch(rv: RvClass): Decision {
  const semantic: Record<RvClass, ReadSemantic> = {
    unset: 'GetStateAndStartAtMostRecent',
    zero: 'GetStateAndStartAtAny',
    other: 'StartAtExact',
  };
  return serve(semantic[rv], watchClause(rv));
}

/** rest:4.5 List table, every cell including the Invalid and 400 ones. */
export function decideList(cell: { match: MatchClass; paging: PagingClass; rv: RvClass }): Decision {
  const { match, paging, rv } = cell;
  const clause = listClause(match, paging, rv);
  if (match === 'unset') {
    if (paging === 'no-limit') return serve(({ unset: 'MostRecent', zero: 'Any', other: 'NotOlderThan' } as const)[rv], clause);
    if (paging === 'limit') return serve(({ unset: 'MostRecent', zero: 'Any', other: 'Exact' } as const)[rv], clause);
    // limit + continue: the token decides; rv="0" is "Invalid, treated as Continue Token, Exact".
    if (rv === 'other') return { outcome: 'reject', statuses: [400], clause };
    return serve('ContinueExact', clause);
  }
  if (paging === 'limit-continue') {
    return { outcome: 'unspecified', clause: 'rest:4.5/list', why: 'resourceVersionMatch together with continue has no row in the table' };
  }
  if (match === 'Exact') return rv === 'other' ? serve('Exact', clause) : invalid(clause);
  // NotOlderThan
  if (rv === 'unset') return invalid(clause);
  return serve(rv === 'zero' ? 'Any' : 'NotOlderThan', clause);
}

/** Every cell of the list table, for coverage and for the model's own table tests. */
export function listCells(): { match: MatchClass; paging: PagingClass; rv: RvClass }[] {
  const cells: { match: MatchClass; paging: PagingClass; rv: RvClass }[] = [];
  for (const match of ['unset', 'Exact', 'NotOlderThan'] as const) {
    const pagings: PagingClass[] = match === 'unset' ? ['no-limit', 'limit', 'limit-continue'] : ['no-limit', 'limit'];
    for (const paging of pagings) for (const rv of ['unset', 'zero', 'other'] as const) cells.push({ match, paging, rv });
  }
  return cells;
}

/** True when a status code is in a decision's acceptable set. */
export function statusAccepted(statuses: '4xx' | readonly number[], status: number): boolean {
  return statuses === '4xx' ? status >= 400 && status < 500 : statuses.includes(status);
}
