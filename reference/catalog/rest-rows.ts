/** The row shape of the REST clause tables (rest.ts, rest-5-9.ts): id, kind, one-line summary. */
import type { Clause } from './types.ts';
import { tableClauseId } from './clause-id.ts';

export const N = 'normative';
export const U = 'unspecified';
export const I = 'informative';

export type Row = readonly [id: string, kind: Clause['kind'], summary: string];

export function sec(section: string, rows: readonly Row[]): Clause[] {
  return rows.map(([id, kind, summary]) => ({ id: tableClauseId(id), doc: 'rest', section, summary, kind }));
}
