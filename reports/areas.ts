/**
 * Grouping clause results by area (the catalog's `familyOf`), shared by every formatter so the
 * terminal, JUnit and HTML views list areas in the same order: first appearance in the run, which is
 * catalog order.
 */
import type { ClauseResult } from '../runner/results.ts';
import { NOT_IN_CATALOG, shownStatus, totalsOf, type ShownStatus } from './aggregate.ts';

export type FamilyOf = (id: string) => string;

/** By shown status: a known failure under `known`, apart from `failed`. */
export type StatusCounts = Record<ShownStatus, number>;

export interface Area {
  readonly name: string;
  readonly clauses: readonly ClauseResult[];
  readonly counts: StatusCounts;
}

/**
 * The catalog's familyOf may throw or return '' for ids it does not know (records for clauses missing
 * from the catalog); those still need a group or the formatters would crash on the very run that
 * most needs reading.
 */
export function safeFamilyOf(familyOf: FamilyOf): FamilyOf {
  return (id) => {
    try {
      const name = familyOf(id);
      if (typeof name === 'string' && name !== '') return name;
    } catch {
      // fall through to the fallback group
    }
    return NOT_IN_CATALOG;
  };
}

/** Every shown status at zero: the run's totals of no clauses. */
export function emptyCounts(): StatusCounts {
  return totalsOf([]);
}

export function groupByArea(clauses: readonly ClauseResult[], familyOf: FamilyOf): Area[] {
  const family = safeFamilyOf(familyOf);
  const groups = new Map<string, { clauses: ClauseResult[]; counts: StatusCounts }>();
  for (const c of clauses) {
    const name = c.summary === NOT_IN_CATALOG ? NOT_IN_CATALOG : family(c.id);
    let g = groups.get(name);
    if (g === undefined) {
      g = { clauses: [], counts: emptyCounts() };
      groups.set(name, g);
    }
    g.clauses.push(c);
    g.counts[shownStatus(c)] += 1;
  }
  return [...groups].map(([name, g]) => ({ name, clauses: g.clauses, counts: g.counts }));
}

/** Failed clauses the expectations file does not excuse: what makes the run nonconformant. */
export function isRegression(c: ClauseResult): boolean {
  return c.status === 'failed' && c.expectedFailure !== true;
}
