/** The rows of the rest:4.5 list table (resourceVersionMatch x paging x resourceVersion), as the catalog prints them. */
import { decideList, listClause, type MatchClass, type PagingClass, type RvClass } from '../rv-semantics.ts';
import { N, type Row } from './rest-rows.ts';

const matchText = {
  unset: 'no resourceVersionMatch',
  exact: 'resourceVersionMatch=Exact',
  notolderthan: 'resourceVersionMatch=NotOlderThan',
} as const;
const pagingText = { 'no-limit': 'no limit', limit: 'limit, no continue', 'limit-continue': 'limit and continue' } as const;
const rvText = { unset: 'rv unset', '0': 'rv="0"', other: 'rv=other' } as const;

/** The cell's semantic as printed, then what it obliges the server to do (rest:4.5 "Meanings"). */
const semantic = {
  mostRecent: 'Most Recent (latest state, consistent read)',
  any: 'Any (any retained snapshot, may be older than one already seen)',
  notOlder: 'Not older than (collection resourceVersion not older than rv; items not guaranteed)',
  exact: 'Exact (collection resourceVersion equals rv; 410 Gone if no longer retained)',
  continueExact: 'Continue Token, Exact (the snapshot of the first page, carried by the token)',
  invalidContinue: "Invalid, treated as Continue Token, Exact (rv ignored, the next page of the token's snapshot)",
  invalid400: 'Invalid, 400 Bad Request',
  invalid: 'Invalid (request rejected; status code not given)',
} as const;

/** The catalog row of one cell of the list table: the cells and their decisions are the model's (rv-semantics.ts). */
export function listCellRow(cell: { match: MatchClass; paging: PagingClass; rv: RvClass }): Row {
  const match = ({ unset: 'unset', Exact: 'exact', NotOlderThan: 'notolderthan' } as const)[cell.match];
  const rv = ({ unset: 'unset', zero: '0', other: 'other' } as const)[cell.rv];
  const d = decideList(cell);
  const what =
    d.outcome === 'serve'
      ? d.semantic === 'ContinueExact' && cell.rv === 'zero'
        ? semantic.invalidContinue
        : semanticText[d.semantic as keyof typeof semanticText]
      : d.outcome === 'reject'
        ? d.statuses === '4xx'
          ? semantic.invalid
          : semantic.invalid400
        : d.why;
  return [listClause(cell.match, cell.paging, cell.rv), N, `list, ${matchText[match]}, ${pagingText[cell.paging]}, ${rvText[rv]}: ${what}`];
}

const semanticText = {
  MostRecent: semantic.mostRecent,
  Any: semantic.any,
  NotOlderThan: semantic.notOlder,
  Exact: semantic.exact,
  ContinueExact: semantic.continueExact,
} as const;
