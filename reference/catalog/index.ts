/**
 * The clause catalog (docs/architecture.md "Clause ids"): the single list the report, the coverage figures and
 * the docs read. One array per spec document, concatenated; a document's clauses and its section
 * titles live in its own file (`rest.ts`; `node.ts` to come).
 *
 *   requireClause('rest:4.4.3').section   -> '4.4'
 *   familyOf('rest:4.5/list/exact/limit/0') -> 'rest:4.5 resource versions'
 */
import type { Clause, SpecDoc } from './types.ts';
import type { ClauseId } from './clause-ids.ts';
import { restClauses } from './rest.ts';
import { restSectionTitles } from './rest-section-titles.ts';
import { nodeClauses, nodeSectionTitles } from './node.ts';
import { nodeDaemonClauses } from './node-daemon.ts';
import { informativeReasons, notCheckedReasons } from './reasons.ts';

export type { Clause, SpecDoc } from './types.ts';
export type { ClauseId } from './clause-ids.ts';

/** A clause with the reason it has no verdict, where reasons.ts gives one. */
function withReasons(c: Clause): Clause {
  return { ...c, informative: informativeReasons[c.id], notCheckedWhy: notCheckedReasons[c.id] };
}

export const catalog: readonly Clause[] = [...restClauses, ...nodeClauses, ...nodeDaemonClauses].map(withReasons);

const titles: Readonly<Record<SpecDoc, Readonly<Record<string, string>>>> = {
  rest: restSectionTitles,
  node: nodeSectionTitles,
};

const byId: ReadonlyMap<string, Clause> = new Map(catalog.map((c) => [c.id, c]));

export function clauseById(id: string): Clause | undefined {
  return byId.get(id);
}

/** An id read from outside the code (an expectations file, a saved history): checked against the catalog. */
export function isClauseId(id: string): id is ClauseId {
  return byId.has(id);
}

/** The clause, or an Error naming the id: for ids that code states literally. */
export function requireClause(id: string): Clause {
  const c = byId.get(id);
  if (c === undefined) throw new Error(`unknown clause id ${JSON.stringify(id)}: not in reference/catalog`);
  return c;
}

/** Title of a section as the report shows it (`'4.5'` -> `'resource versions'`); '' when unknown. */
export function sectionTitle(doc: SpecDoc, section: string): string {
  return titles[doc][section] ?? '';
}

/**
 * The report area of a clause: doc, section and title, e.g. `rest:4.5 resource versions`,
 * `rest:7 errors`. Throws for an id not in the catalog (the report groups those separately).
 */
export function familyOf(id: string): string {
  const c = requireClause(id);
  const title = sectionTitle(c.doc, c.section);
  return title === '' ? `${c.doc}:${c.section}` : `${c.doc}:${c.section} ${title}`;
}
