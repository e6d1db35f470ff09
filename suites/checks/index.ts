/** The registry of checks: the vitest suites and the self-tests both run these. */
import type { AnyCheck } from '../../harness/check.ts';
import { crudSequences, generatedNames, namesAndScope } from './crud.ts';
import { getCellChecks, listCellChecks } from './rv-cells.ts';
import { pagingSnapshot } from './paging.ts';
import { continueExpiry, tooLarge } from './errors.ts';
import { watchBookmarks, watchCellChecks } from './watch.ts';
import { healthEndpoints } from './health.ts';
import { deprecatedMetrics, deprecatedVersions, persistedThroughReplacement } from './versioning.ts';
import { eventsV1Create } from './events-v1.ts';

export const checks: readonly AnyCheck[] = [crudSequences, namesAndScope, generatedNames, ...getCellChecks, ...listCellChecks, pagingSnapshot, tooLarge, continueExpiry, ...watchCellChecks, watchBookmarks, healthEndpoints, deprecatedVersions, persistedThroughReplacement, deprecatedMetrics, eventsV1Create];

export const suites = [...new Set(checks.map((c) => c.suite))];

export function checkById(id: string): AnyCheck | undefined {
  return checks.find((c) => c.id === id);
}

export function checksOfSuite(suite: string): AnyCheck[] {
  return checks.filter((c) => c.suite === suite);
}
