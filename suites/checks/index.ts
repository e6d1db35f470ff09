/** The registry of checks: the command line and the self-tests both run these. */
import type { AnyCheck } from '../../harness/case/index.ts';
import { crudSequences, generatedNames, namesAndScope } from './crud.ts';
import { generatedMetadata } from './generated-metadata.ts';
import { getCellChecks, listCellChecks } from './rv-cells.ts';
import { pagingSelectorEdgeChecks, pagingSnapshot } from './paging.ts';
import { repeatedLimit } from './repeated-parameters.ts';
import { continueExpiry, tooLarge, tooLargeExactChecks } from './errors.ts';
import { watchBookmarks, watchCellChecks } from './watch.ts';
import { deletionFinalizers } from './deletion.ts';
import { watchResume, watchTooOld } from './watch-resume.ts';
import { watchTooOldFound } from './watch-too-old-found.ts';
import { watchInformer } from './watch-informer.ts';
import { watchFutureVersion } from './watch-future.ts';
import {
  applyEmptiesList,
  applyJsonReplaceMissing,
  applyOwnershipTable,
  applyPoints,
  applySchemaChange,
  applySequences,
  applySequencesConfigMaps,
} from './apply.ts';
import { healthEndpoints } from './health.ts';
import { deprecatedMetrics, deprecatedVersions, persistedThroughReplacement } from './versioning.ts';
import { versionRoundTrip } from './round-trip.ts';
import { applyPatchMergeKey } from './apply-merge-key.ts';
import { eventsV1Create } from './events-v1.ts';
import { dryRunBareFlag, dryRunBareFlagPretty, dryRunSequences } from './dry-run.ts';
import { dryRunAdmission } from './dry-run-admission.ts';
import { negotiationAcceptLists } from './negotiation.ts';
import { tableShape } from './table.ts';
import { protobufEnvelope } from './protobuf.ts';
import { nodeagentChecks } from './nodeagent.ts';
import { daemonChecks } from './daemon.ts';
import { concurrentWorkload } from './concurrency.ts';
import { compactionExact, restartDurability } from './recovery.ts';
import { authzRules } from './authz.ts';
import { authzStrangers } from './authz-anonymous.ts';
import { podEviction } from './pod-eviction.ts';
import { scaleChecks } from './scale.ts';
import { singleResourceWrites } from './single-resource.ts';

// One line per area, so concurrent work on different areas merges without touching the same line.
export const checks: readonly AnyCheck[] = [
  ...[crudSequences, namesAndScope, generatedNames, singleResourceWrites, generatedMetadata],
  ...[
    ...getCellChecks,
    ...listCellChecks,
    pagingSnapshot,
    ...pagingSelectorEdgeChecks,
    repeatedLimit,
    tooLarge,
    ...tooLargeExactChecks,
    continueExpiry,
  ],
  ...[...watchCellChecks, watchBookmarks, watchResume, watchTooOld, watchTooOldFound, watchInformer, watchFutureVersion],
  ...[deletionFinalizers],
  ...[
    applyOwnershipTable,
    applyPoints,
    applySequences,
    applySequencesConfigMaps,
    applyJsonReplaceMissing,
    applyEmptiesList,
    applySchemaChange,
    applyPatchMergeKey,
  ],
  ...[healthEndpoints, deprecatedVersions, persistedThroughReplacement, versionRoundTrip, deprecatedMetrics, eventsV1Create],
  ...[dryRunSequences, dryRunBareFlag, dryRunBareFlagPretty, dryRunAdmission, negotiationAcceptLists, tableShape, protobufEnvelope],
  ...nodeagentChecks,
  ...daemonChecks,
  ...[concurrentWorkload],
  ...[restartDurability, compactionExact],
  ...[authzStrangers, authzRules, podEviction],
  ...scaleChecks,
];

export const suites = [...new Set(checks.map((c) => c.suite))];

export function checkById(id: string): AnyCheck | undefined {
  return checks.find((c) => c.id === id);
}

export function checksOfSuite(suite: string): AnyCheck[] {
  return checks.filter((c) => c.suite === suite);
}
