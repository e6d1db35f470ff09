/**
 * Which checks need which feature of the capability map (reference/features.ts): a check that needs
 * a feature the target does not serve is not run, and its clauses are `blocked by` it
 * (runner/capability-gate.ts). Only what the check's cases cannot do without: its setup writes (the
 * resourceVersion cells update their fixture objects with PUT), or what it judges (the watch checks
 * need later events delivered). Learned by running every check against the reference server in each
 * partial mode (`--without`) and confirmed by test/oracle/partial-server.test.ts: a check missing here
 * fails or stalls on a partial server; one listed without need blocks clauses it could have judged.
 */
import type { FeatureId } from '../../reference/features.ts';

const RV_CELLS = [
  'rv-cell-get-unset',
  'rv-cell-get-0',
  'rv-cell-get-other',
  ...['unset', 'exact', 'notolderthan'].flatMap((m) =>
    ['no-limit', 'limit', ...(m === 'unset' ? ['limit-continue'] : [])].flatMap((p) =>
      ['unset', '0', 'other'].map((rv) => `rv-cell-list-${m}-${p}-${rv}`),
    ),
  ),
];

const NEEDS: Readonly<Partial<Record<FeatureId, readonly string[]>>> = {
  put: [
    ...RV_CELLS,
    'watch-cell-unset',
    'watch-cell-0',
    'watch-cell-other',
    'watch-resume',
    'watch-too-old',
    'watch-informer',
    'watch-bookmarks',
    // Its random setup writes update with PUT: without it the case fails rest:4.1/put, the probe's finding.
    'watch-future-version',
    'too-large-resource-version',
    'paging-snapshot',
    'apply-ownership-table',
    'apply-points',
    'apply-sequences',
    'apply-sequences-configmaps',
    'apply-edges-empties-list',
    'version-round-trip',
    'protobuf-envelope',
    'dry-run-sequences',
    'dry-run-edges-bare-flag',
    'deletion-finalizers',
    'compaction-exact',
  ],
  // Fixtures created by generateName (a PodDisruptionBudget, an event, an owner), or the clause itself.
  'generate-name': [
    'generated-names',
    'version-round-trip',
    'persisted-through-replacement',
    'apply-patch-merge-key',
    'events-v1-create',
    'dry-run-sequences',
  ],
  apply: [
    'apply-ownership-table',
    'apply-points',
    'apply-sequences',
    'apply-sequences-configmaps',
    'apply-edges-json-replace-missing',
    'apply-edges-empties-list',
    'apply-schema-change',
    'apply-patch-merge-key',
  ],
  // Checks that wait for the events of their own writes: on a silent stream each waits out its window.
  'watch-delivery': [
    'watch-cell-unset',
    'watch-cell-0',
    'watch-cell-other',
    'watch-resume',
    'watch-informer',
    'watch-bookmarks',
    'watch-too-old',
    'deletion-finalizers',
    'concurrent-workload',
    'restart-durability',
  ],
  // The dry-run checks; authz-rules asks a dry-run of every write it is allowed (rest:4.6.4, rest:5.4).
  'dry-run': ['dry-run-sequences', 'dry-run-edges-bare-flag', 'dry-run-edges-bare-flag-pretty', 'dry-run-admission', 'authz-rules'],
  // The checks whose cases live in a type of the run's own definition (each waits out the eventual window for it).
  'crd-serving': ['apply-sequences', 'apply-edges-empties-list', 'apply-schema-change', 'authz-rules'],
  // Lists with limit: the paging checks, the resourceVersion cells with a limit, the edges of both.
  paging: [
    'paging-snapshot',
    'paging-edges-selector-unset-limit-unset',
    'paging-edges-selector-unset-limit-other',
    'paging-edges-selector-exact-limit-other',
    'paging-edges-selector-notolderthan-limit-other',
    'query-repeated-limit',
    'continue-token-expiry',
    'too-large-edges-list-limit',
    // Its random sequences list with limit and resourceVersion (the Exact cell of rest:4.5).
    'crud-sequences',
    ...RV_CELLS.filter((id) => id.includes('-limit-')),
  ],
};

/** The features check `id` cannot do without, in the map's order. */
export function featureNeedsOf(id: string): FeatureId[] {
  return (Object.entries(NEEDS) as [FeatureId, readonly string[]][]).filter(([, checks]) => checks.includes(id)).map(([f]) => f);
}

/** Every check id the table names (the self-test holds them to the registry). */
export function checksWithNeeds(): string[] {
  return [...new Set(Object.values(NEEDS).flat())];
}
