/**
 * rest:4.3 query parameters of reads, classified into the columns of the rest:4.5 tables. The
 * interpreter classifies the very query it sends, so the cell judged is the cell requested.
 *
 *   classifyList([['limit','2'],['continue','t'],['resourceVersion','9']])
 *     -> { ok: true, cell: { match: 'unset', paging: 'limit-continue', rv: 'other' }, limit: 2, ... }
 */
import { rvColumn, type MatchClass, type PagingClass, type RvClass } from './rv-semantics.ts';
import type { ClauseId } from './catalog/clause-ids.ts';

type Pairs = readonly (readonly [string, string | null])[];

export type ListQuery =
  | {
      readonly ok: true;
      readonly cell: { readonly match: MatchClass; readonly paging: PagingClass; readonly rv: RvClass };
      readonly resourceVersion: string | undefined;
      readonly limit: number | undefined;
      readonly continueToken: string | undefined;
      readonly labelSelector: string | undefined;
    }
  /** Outside what rest:4.3 defines: the spec does not say what the server does. */
  | { readonly ok: false; readonly clause: ClauseId; readonly why: string };

function single(pairs: Pairs, name: string): string | undefined | { dup: true } {
  const values = pairs.filter(([k]) => k === name).map(([, v]) => v ?? '');
  if (values.length > 1) return { dup: true };
  return values[0];
}

export function classifyList(pairs: Pairs): ListQuery {
  const get = (name: string): string | undefined => {
    const v = single(pairs, name);
    if (typeof v === 'object') throw new RangeError(`${name} given twice`);
    return v;
  };
  let rv: string | undefined, match: string | undefined, limitText: string | undefined, cont: string | undefined, sel: string | undefined;
  try {
    rv = get('resourceVersion');
    match = get('resourceVersionMatch');
    limitText = get('limit');
    cont = get('continue');
    sel = get('labelSelector');
  } catch (e) {
    return { ok: false, clause: 'rest:4.3', why: (e as Error).message };
  }
  if (match !== undefined && match !== 'Exact' && match !== 'NotOlderThan') {
    return { ok: false, clause: 'rest:4.3/resourceVersionMatch', why: `resourceVersionMatch=${match} is neither Exact nor NotOlderThan` };
  }
  // `limit` is an integer (rest:4.3); zero, negative and non-numeric values are not described.
  const limit = limitText === undefined ? undefined : /^[1-9][0-9]{0,9}$/.test(limitText) ? Number(limitText) : NaN;
  if (Number.isNaN(limit)) return { ok: false, clause: 'rest:4.3/limit', why: `limit=${limitText} is not a positive integer` };
  const continueToken = cont === '' ? undefined : cont;
  if (continueToken !== undefined && limit === undefined) {
    return { ok: false, clause: 'rest:4.5/list', why: 'continue without limit has no row in the table' };
  }
  const paging: PagingClass = limit === undefined ? 'no-limit' : continueToken === undefined ? 'limit' : 'limit-continue';
  return {
    ok: true,
    cell: { match: (match ?? 'unset') as MatchClass, paging, rv: rvColumn(rv) },
    resourceVersion: rv === '' ? undefined : rv,
    limit,
    continueToken,
    labelSelector: sel,
  };
}
