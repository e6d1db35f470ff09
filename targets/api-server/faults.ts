/**
 * Planted bugs of the reference server (`--fault NAME`): each a mistake an implementer could make,
 * each tied to the clause it breaks. The self-tests require every one to be caught by that clause.
 */
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import type { HostileFaultName } from './hostile-faults.ts';
import type { FamilyFaultName } from './fault-families.ts';
import { clauseFaults } from './clause-faults.ts';
import type { SetupPartialModeName } from './setup-partial-modes.ts';

export interface Fault {
  readonly name: string;
  /** The clause the bug breaks. */
  readonly clause: ClauseId;
  readonly description: string;
  /** Checks that must catch it (the self-tests and `npm run mutation` run these). */
  readonly checks: readonly string[];
  /** Other clauses a correct report may name for the same bug (the cell and its meaning, say). */
  readonly alsoReportedAs: readonly ClauseId[];
  /**
   * Options of the embedded server the catching run needs besides the fault (the self-tests, `npm run
   * mutation` and the docs generator start it so): `release: '1.21'` where the bug can only show
   * through a group version removed at the default release (admissionregistration v1beta1).
   */
  readonly target?: { readonly release?: string };
}

export const faults = [
  { name: 'ignore-exact', clause: 'rest:4.5/meaning/exact', description: 'Exact reads (resourceVersionMatch=Exact, or limit with rv) are served from the newest state', checks: ['rv-cell-list-exact-no-limit-other', 'rv-cell-list-unset-limit-other'], alsoReportedAs: ['rest:4.5/list/exact/no-limit/other', 'rest:4.5/list/unset/limit/other'] },
  { name: 'page-rv-drift', clause: 'rest:4.4.3', description: 'continuation pages report the current resourceVersion instead of the snapshot\'s', checks: ['paging-snapshot'], alsoReportedAs: [] },
  { name: 'remaining-with-selector', clause: 'rest:4.4.6', description: 'remainingItemCount is sent even when a label selector narrowed the list', checks: ['paging-snapshot'], alsoReportedAs: [] },
  { name: 'continue-on-last-page', clause: 'rest:2.3/metadata.continue', description: 'the last page carries a continue token; the page after it is empty', checks: ['paging-snapshot'], alsoReportedAs: [] },
  { name: 'accept-400-cell', clause: 'rest:4.5/list/unset/limit-continue/other', description: 'limit+continue+resourceVersion is served as a plain continuation instead of 400', checks: ['rv-cell-list-unset-limit-continue-other'], alsoReportedAs: ['rest:7/400'] },
  { name: 'duplicate-create-overwrites', clause: 'rest:2.2.2', description: 'creating an existing name replaces the object (201) instead of refusing', checks: ['crud-sequences'], alsoReportedAs: ['rest:2.2.1'] },
  { name: 'stale-not-older-than', clause: 'rest:4.5/meaning/not-older-than', description: 'rv=<v> without limit is answered from the state just before <v>', checks: ['rv-cell-list-unset-no-limit-other'], alsoReportedAs: ['rest:4.5/list/unset/no-limit/other'] },
  { name: 'continue-never-expires', clause: 'rest:4.4.4', description: 'continue tokens are accepted forever', checks: ['continue-token-expiry'], alsoReportedAs: ['rest:7/410'] },
  { name: 'wrong-list-kind', clause: 'rest:2.4.1', description: 'lists are answered with kind List instead of <Kind>List', checks: ['crud-sequences'], alsoReportedAs: ['rest:2.4.3'] },
  { name: 'too-large-without-text', clause: 'rest:7.2', description: 'the 504 for an unknown future resourceVersion lacks \'Too large resource version\'', checks: ['too-large-resource-version'], alsoReportedAs: [] },
  { name: 'uid-changes-on-update', clause: 'rest:2.3/metadata.uid', description: 'every update gives the object a new uid', checks: ['crud-sequences'], alsoReportedAs: [] },
  { name: 'remaining-off-by-one', clause: 'rest:4.4.6', description: 'remainingItemCount counts one item too many', checks: ['paging-snapshot'], alsoReportedAs: ['rest:2.3/metadata.remainingItemCount'] },
  { name: 'page-overflow', clause: 'rest:4.4.1', description: 'pages hold limit+1 items', checks: ['paging-snapshot'], alsoReportedAs: [] },
  { name: 'namespace-delete-keeps-objects', clause: 'rest:2.2.4', description: 'objects survive the deletion of their namespace', checks: ['names-and-scope'], alsoReportedAs: [] },
  { name: 'invalid-cell-accepted', clause: 'rest:4.5/list/exact/no-limit/unset', description: 'resourceVersionMatch without a usable resourceVersion is served instead of refused', checks: ['rv-cell-list-exact-no-limit-unset'], alsoReportedAs: ['rest:4.3/resourceVersionMatch'] },
  { name: 'continuation-sees-new-writes', clause: 'rest:4.4.3', description: 'continuation pages read the newest state instead of the first page\'s snapshot', checks: ['paging-snapshot'], alsoReportedAs: [] },
  { name: 'rv-unchanged-on-update', clause: 'rest:2.3/metadata.resourceVersion', description: 'an update that changes data keeps the old resourceVersion', checks: ['crud-sequences'], alsoReportedAs: [] },
  { name: 'generate-name-collides', clause: 'rest:2.3/metadata.name', description: 'generateName appends a fixed suffix, so the second generated create collides', checks: ['generated-names'], alsoReportedAs: [] },
  { name: 'exact-410-too-early', clause: 'rest:6.1.4', description: 'Exact reads answer 410 Gone for every version but the newest, long before the history window ends', checks: ['rv-cell-list-exact-no-limit-other'], alsoReportedAs: ['rest:4.5/list/exact/no-limit/other'] },
  { name: 'watch-drop-events', clause: 'rest:6.1.1', description: 'every third watch event is never sent', checks: ['watch-cell-unset', 'watch-cell-other'], alsoReportedAs: [] },
  { name: 'watch-reorder-events', clause: 'rest:6.1.1', description: 'watch events after the start are sent in swapped pairs', checks: ['watch-cell-other'], alsoReportedAs: [] },
  { name: 'watch-synthetic-on-exact', clause: 'rest:4.5/watch/other', description: 'a watch from an exact version starts with synthetic ADDED events anyway', checks: ['watch-cell-other'], alsoReportedAs: ['rest:4.5/meaning/start-exact'] },
  { name: 'watch-no-synthetic-added', clause: 'rest:4.5/watch/unset', description: 'a state-starting watch sends no ADDED for existing objects', checks: ['watch-cell-unset', 'watch-cell-0'], alsoReportedAs: ['rest:4.5/meaning/get-state-start', 'rest:4.5/watch/0'] },
  { name: 'bookmark-extra-fields', clause: 'rest:2.5/bookmark-object', description: 'BOOKMARK objects also carry metadata.name', checks: ['watch-bookmarks'], alsoReportedAs: [] },
  { name: 'bookmarks-unasked', clause: 'rest:6.1/BOOKMARK', description: 'BOOKMARK events are sent to watches that did not ask for them', checks: ['watch-bookmarks'], alsoReportedAs: [] },
  { name: 'bookmark-before-state', clause: 'rest:6.1/BOOKMARK', description: 'a state-starting watch that asked for bookmarks gets one at its start revision before the synthetic ADDED events of that state', checks: ['watch-bookmarks'], alsoReportedAs: [] },
  { name: 'finalizers-ignored-on-delete', clause: 'rest:3.1/live-to-terminating', description: 'a delete removes the object at once even though it has finalizers', checks: ['deletion-finalizers'], alsoReportedAs: [] },
  { name: 'removed-before-last-finalizer', clause: 'rest:3.1/terminating-to-removed', description: 'a Terminating object is removed as soon as any one of its finalizers is removed', checks: ['deletion-finalizers'], alsoReportedAs: [] },
  { name: 'watch-too-old-served-from-oldest', clause: 'rest:6.1.3', description: 'a watch from a version older than the history is served from the oldest version still retained (200, the compacted changes silently skipped) instead of 410 Gone', checks: ['watch-too-old'], alsoReportedAs: ['rest:7/410', 'rest:6.1.1'] },
  { name: 'apply-force-ignored', clause: 'rest:3.2/apply-force', description: 'apply with force=true still fails on conflicts', checks: ['apply-ownership-table'], alsoReportedAs: ['rest:4.3/force'] },
  { name: 'apply-conflicts-forced', clause: 'rest:3.2/apply-conflict', description: 'an apply that conflicts is silently forced instead of refused', checks: ['apply-ownership-table'], alsoReportedAs: ['rest:7/conflict'] },
  { name: 'apply-no-shared-ownership', clause: 'rest:3.2/apply-same-value', description: 'applying the value a field already has takes it from its owner instead of sharing it', checks: ['apply-ownership-table'], alsoReportedAs: [] },
  { name: 'apply-omitted-not-removed', clause: 'rest:3.2/apply-omit-sole', description: 'fields an applier stops stating stay in the object although nobody else owns them', checks: ['apply-ownership-table'], alsoReportedAs: ['rest:4.7.3'] },
  { name: 'apply-removes-co-owned', clause: 'rest:3.2/apply-omit-shared', description: 'fields an applier stops stating are removed although another manager owns them', checks: ['apply-ownership-table'], alsoReportedAs: ['rest:4.7.3'] },
  { name: 'update-raises-conflict', clause: 'rest:3.2/non-apply-write', description: 'a non-apply write changing another manager\'s field fails with a conflict', checks: ['apply-ownership-table'], alsoReportedAs: ['rest:4.7.4'] },
  { name: 'apply-operation-mislabelled', clause: 'rest:2.6/operation', description: 'managedFields entries of appliers are recorded with operation Update', checks: ['apply-ownership-table'], alsoReportedAs: [] },
  { name: 'atomic-change-not-reconciled', clause: 'rest:4.7.10', description: 'after a map turns atomic, owners of its entries are not seen as owners of the whole: changes do not conflict', checks: ['apply-schema-change'], alsoReportedAs: ['rest:3.2/apply-conflict'] },
  { name: 'managed-fields-empty-list-resets', clause: 'rest:4.7.5', description: 'a write with managedFields: [] resets ownership like [{}]', checks: ['apply-points'], alsoReportedAs: [] },
  { name: 'health-exclude-ignored', clause: 'rest:4.2/exclude', description: '?exclude=<name> is ignored: the check still prints "[+]<name> ok"', checks: ['health-endpoints'], alsoReportedAs: [] },
  { name: 'health-verbose-unmarked', clause: 'rest:4.2/verbose', description: 'verbose check lines lack the "[+]" marker ("etcd ok")', checks: ['health-endpoints'], alsoReportedAs: ['rest:4.2/exclude'] },
  { name: 'deprecation-warning-missing', clause: 'rest:7.4', description: 'deprecated versions of groups without the product suffix (batch, policy, autoscaling) answer without a Warning header', checks: ['deprecated-versions'], alsoReportedAs: [] },
  { name: 'removed-version-served', clause: 'rest:9.4/coordination-v1beta1-lease', description: 'coordination v1beta1 leases (removed in v1.22) are still served by a v1.24 server', checks: ['deprecated-versions'], alsoReportedAs: [] },
  { name: 'events-deprecated-fields-accepted', clause: 'rest:6.2/deprecated-fields', description: 'events/v1 creates with deprecatedCount, deprecatedSource.* ... are accepted', checks: ['events-v1-create'], alsoReportedAs: [] },
  { name: 'replacement-loses-objects', clause: 'rest:9.4/persisted-objects', description: 'objects written through a deprecated version are stored apart and not reachable through the replacement', checks: ['persisted-through-replacement'], alsoReportedAs: [] },
  { name: 'dry-run-persists', clause: 'rest:4.6.2', description: 'dryRun=All writes are stored like real ones', checks: ['dry-run-sequences'], alsoReportedAs: [] },
  { name: 'dry-run-rejects-bare-flag', clause: 'rest:4.6.1', description: 'the flag form ?dryRun (no value) is refused with 400', checks: ['dry-run-sequences'], alsoReportedAs: [] },
  { name: '406-replaced-by-json', clause: 'rest:4.8/unsupported', description: 'when no requested media type is supported the answer is JSON instead of 406', checks: ['negotiation-accept-lists'], alsoReportedAs: ['rest:7/406'] },
  { name: 'table-wrong-default-columns', clause: 'rest:2.5.1', description: 'the default Table types its Created At column string instead of date', checks: ['table-shape'], alsoReportedAs: [] },
  { name: 'protobuf-bad-magic', clause: 'rest:2.7.1', description: 'protobuf bodies start with 6b 38 73 01 instead of the magic 6b 38 73 00', checks: ['protobuf-envelope'], alsoReportedAs: ['rest:8/protobuf-prefix'] },
  { name: 'watch-exact-inclusive', clause: 'rest:6.1.2', description: 'a watch from an older resourceVersion also sends the change made at that version, so a resumed watch repeats the last event', checks: ['watch-resume'], alsoReportedAs: ['rest:6.1.1'] },
  { name: 'watch-future-as-now', clause: 'rest:6.1.1', description: 'a watch from a resourceVersion not reached yet starts from the current state and delivers the writes that follow', checks: ['watch-future-version'], alsoReportedAs: [] },
  { name: 'deprecated-gauge-unset', clause: 'rest:9.3/deprecated-endpoint', description: 'a request to a deprecated version answers with its Warning but never sets the gauge apiserver_requested_deprecated_apis', checks: ['deprecated-versions'], alsoReportedAs: [] },
  { name: 'deprecated-gauge-counts', clause: 'rest:9.3/deprecated-endpoint', description: 'apiserver_requested_deprecated_apis counts the requests to a deprecated version (2 after two) instead of reading 1', checks: ['deprecated-versions'], alsoReportedAs: [] },
  { name: 'deleted-metric-served', clause: 'rest:9.3/deprecated-metrics', description: '/metrics still exposes a metric deprecated four releases before the server\'s', checks: ['deprecated-metrics'], alsoReportedAs: [] },
  { name: 'merge-patch-null-kept', clause: 'rest:4.1/patch-type/merge', description: 'merge patch drops null members before merging, so `"key": null` leaves the key in place instead of deleting it (RFC 7386)', checks: ['apply-sequences-configmaps', 'apply-sequences'], alsoReportedAs: ['rest:4.1/patch'] },
  { name: 'accept-first-only', clause: 'rest:4.8/fallback', description: 'only the most preferred media type of Accept is considered: a list whose first choice is unsupported gets 406 although a later one is served', checks: ['negotiation-accept-lists'], alsoReportedAs: ['rest:4.8/unsupported', 'rest:7/406'] },
  { name: 'table-core-api-version', clause: 'rest:2.5/table', description: 'Tables are answered with apiVersion v1 (the core group) instead of the meta group\'s', checks: ['table-shape'], alsoReportedAs: [] },
  { name: 'protobuf-list-item-kind', clause: 'rest:2.7.2', description: 'protobuf lists carry the item kind (ConfigMap) in typeMeta instead of the list kind (ConfigMapList)', checks: ['protobuf-envelope'], alsoReportedAs: [] },
  { name: 'json-patch-test-ignored', clause: 'rest:4.1/patch-type/json', description: 'JSON patch `test` operations are skipped, so a patch guarded by a failing test is applied anyway (RFC 6902 4.6)', checks: ['apply-sequences-configmaps', 'apply-sequences'], alsoReportedAs: ['rest:4.1/patch'] },
  { name: 'json-patch-remove-missing-ok', clause: 'rest:4.1/patch-type/json', description: 'JSON patch `remove` of a path that does not exist is skipped instead of failing the whole patch (RFC 6902 4.2)', checks: ['apply-sequences-configmaps', 'apply-sequences'], alsoReportedAs: ['rest:4.1/patch'] },
  { name: 'cluster-object-get-404', clause: 'rest:4.1/get-object', description: 'the router matches object paths of named groups only under namespaces/{namespace}/, so GET /apis/{group}/{version}/{resourcetype}/{name} of a cluster-scoped type answers 404', checks: ['apply-sequences'], alsoReportedAs: [] },
  { name: 'dry-run-ignored-with-pretty', clause: 'rest:4.3/pretty', description: 'a dry-run that also asks for pretty output (`?dryRun&pretty=true`) is carried out for real', checks: ['dry-run-sequences'], alsoReportedAs: ['rest:4.6.2', 'rest:4.6.1', 'rest:4.3/dryRun'] },
  { name: 'repeated-limit-ignored', clause: 'rest:4.3/limit', description: 'a list whose limit is given twice ignores both and serves every item on one page', checks: ['query-repeated-limit'], alsoReportedAs: [] },
  { name: 'list-body-creates-each', clause: 'rest:4/single-resource-verbs', description: 'a POST whose body is a List (or ConfigMapList) of objects creates every item, a multi-resource request', checks: ['single-resource-writes'], alsoReportedAs: [] },
  { name: 'events-v1-legacy-names', clause: 'rest:6.2/regarding', description: 'events/v1 Events are served with the legacy involvedObject instead of regarding', checks: ['events-v1-create'], alsoReportedAs: [] },
  // Where several clients meet (issue 16): each is found only by the concurrent workload's history checkers.
  { name: 'watch-skip-late-commit', clause: 'rest:6.1.1', description: 'a write acknowledged before a later-numbered one enters the watch log after it, so a watcher already past it never sees it (a SQL shim polling id > last)', checks: ['concurrent-workload'], alsoReportedAs: [] },
  { name: 'watch-lowercase-types', clause: 'rest:2.5/watch-event', description: 'watch events carry their type in lower case ("added", "modified", "deleted"); bookmarks stay "BOOKMARK"', checks: ['watch-cell-unset'], alsoReportedAs: ['rest:6.1.1'] },
  { name: 'slow-watcher-gap', clause: 'rest:6.1.1', description: 'a watcher that reads slowly silently loses events once 32 KiB are queued for it, instead of getting an error or 410', checks: ['concurrent-workload'], alsoReportedAs: ['rest:6.1/BOOKMARK'] },
  { name: 'bookmark-ahead', clause: 'rest:6.1/BOOKMARK', description: 'events reach a watch 300 ms late while bookmarks carry the newest revision at once, past events not yet delivered', checks: ['concurrent-workload'], alsoReportedAs: [] },
  { name: 'list-watch-disagree', clause: 'rest:2.3/metadata.resourceVersion', description: 'a Most Recent list claims the newest resourceVersion while its items are those of the revision before, missing a write the watch delivered at that version', checks: ['concurrent-workload'], alsoReportedAs: ['rest:4.5/meaning/most-recent'] },
  // Target hooks (issue 17): found only through the embedded server's restart and compaction hooks.
  { name: 'restart-loses-last-write', clause: 'rest:4.5/meaning/most-recent', description: 'a restart loses the newest acknowledged write and reuses its revision', checks: ['restart-durability'], alsoReportedAs: ['rest:2.3/metadata.resourceVersion', 'rest:6.1.1', 'rest:6.1.2'] },
  { name: 'compaction-ignored', clause: 'rest:8/watch-history', description: 'the compaction hook compacts nothing: versions older than it are still served by Exact reads', checks: ['compaction-exact'], alsoReportedAs: ['rest:7/410', 'rest:4.5/meaning/exact'] },
  { name: 'not-older-than-always-504', clause: 'rest:4.5/get/other', description: 'every Not-older-than read (get rv=other, list rv=other without limit) waits and answers 504 Too large resource version, even at the version of the object\'s own last write', checks: ['rv-cell-get-other', 'rv-cell-list-unset-no-limit-other'], alsoReportedAs: ['rest:4.5/list/unset/no-limit/other'] },
  // Identities and authorization (issue 18): found by the rest-authz checks, which act as a restricted user and as nobody.
  { name: 'dry-run-skips-authz', clause: 'rest:4.6.4', description: 'a dry-run write is never refused: authorization is skipped when dryRun is set, so a user the real request is refused to gets 200', checks: ['authz-rules'], alsoReportedAs: ['rest:5.4'] },
  { name: 'subresource-inherits-parent', clause: 'rest:5.3', description: 'a rule on a resource also grants its subresources: a role on widgets lets its holder read and write widgets/status', checks: ['authz-rules'], alsoReportedAs: ['rest:4.1/subjectaccessreviews'] },
  { name: 'conversion-drops-field', clause: 'rest:9.3/rule-2', description: 'a write through a deprecated version (policy/v1beta1) loses spec.maxUnavailable, as a conversion that misses one field', checks: ['version-round-trip'], alsoReportedAs: [] },
  { name: 'deprecated-for-alpha', clause: 'rest:9.3/rule-3', description: 'a deprecated version\'s Warning names an alpha version as the one to use instead', checks: ['deprecated-versions'], alsoReportedAs: [] },
  { name: 'patch-merge-key-ignored', clause: 'rest:4.7.8', description: 'metadata.ownerReferences (markers patchStrategy=merge, patchMergeKey=uid, no list type) is owned as one atomic list: a second manager applying its own owner reference conflicts', checks: ['apply-patch-merge-key'], alsoReportedAs: [] },
  { name: 'rule-verbs-ignored', clause: 'rest:5.5', description: 'a Role rule grants every verb on the resources it names: its verbs list is not read', checks: ['authz-rules'], alsoReportedAs: ['rest:5.3', 'rest:4.1/subjectaccessreviews'] },
  { name: 'binding-leaks-namespace', clause: 'rest:5.3', description: 'a RoleBinding grants its role in every namespace instead of its own', checks: ['authz-rules'], alsoReportedAs: ['rest:2.2.4'] },
  { name: 'sar-disagrees', clause: 'rest:4.1/subjectaccessreviews', description: 'SubjectAccessReviews read RoleBindings as if they granted in every namespace, so a review allows what the server then refuses', checks: ['authz-rules'], alsoReportedAs: [] },
  { name: 'eviction-keeps-pod', clause: 'rest:4.1/eviction', description: 'POST of an Eviction to a pod answers 201 and leaves the pod running (nothing is evicted)', checks: ['pod-eviction'], alsoReportedAs: [] },
  { name: 'anonymous-allowed', clause: 'rest:5.1', description: 'a request without credentials is served as the superuser instead of being refused', checks: ['authz-anonymous'], alsoReportedAs: [] },
  // Scale and boundary inputs (issue 17): found by the rest-scale checks (--scale) and the boundary generators.
  { name: 'namespace-prefix-leak', clause: 'rest:4.1/get-namespaced-collection', description: 'collection reads scan the key prefix of the namespace without its separator, so a list or watch of ns-1 also returns the objects of ns-10 and ns-100', checks: ['scale-namespace-prefixes'], alsoReportedAs: [] },
  { name: 'page-chain-drift', clause: 'rest:4.4.3', description: 'every 40 pages a continuation restarts at the last item of the previous page, so a long chain repeats an item', checks: ['scale-page-chain'], alsoReportedAs: [] },
  { name: 'dry-run-patch-persists', clause: 'rest:4.6.2', description: 'a PATCH with dryRun=All (merge, JSON or apply patch) is stored like a real one; POST, PUT and DELETE dry-runs are not', checks: ['dry-run-sequences'], alsoReportedAs: [] },
  { name: 'duplicate-map-key-accepted', clause: 'rest:4.7.7/list-type', description: 'an apply or update whose set list repeats an entry, or whose map list repeats a key, is accepted with the duplicates collapsed instead of refused', checks: ['apply-sequences'], alsoReportedAs: ['rest:4.7.7/list-map-keys', 'rest:4.7.7', 'rest:4.7.3', 'rest:4.1/put', 'rest:4.1/patch', 'rest:4.1/patch-type/apply'] },
  // Admission webhooks under dry-run (issue 18): found by dry-run-admission, which hosts a webhook on loopback.
  { name: 'dry-run-skips-admission', clause: 'rest:4.6.2', description: 'validating admission webhooks are not called on a dry-run, so a dry-run of an object the webhook denies is served (201)', checks: ['dry-run-admission'], alsoReportedAs: [] },
  { name: 'dry-run-calls-side-effecting-webhook', clause: 'rest:7.3', description: 'a dry-run matching a webhook declared with sideEffects Some or Unknown calls it and is served instead of failing (only declarable through admissionregistration v1beta1: the catching run serves release 1.21)', checks: ['dry-run-admission'], alsoReportedAs: ['rest:4.6.3'], target: { release: '1.21' } },
  { name: 'dry-run-skips-mutation', clause: 'rest:4.6.2', description: 'mutating admission webhooks are not called on a dry-run, so the dry-run answer lacks the mutation the real create stores', checks: ['dry-run-admission'], alsoReportedAs: [] },
  // A repeatable 5xx is an answer (issue 24): the server errs the same way every time, so the clause of the request fails with the 500 shown.
  { name: 'update-answers-500', clause: 'rest:4.1/put', description: 'every PUT of a ConfigMap answers 500 InternalError (a Status body) and stores nothing', checks: ['crud-sequences'], alsoReportedAs: [] },
  { name: 'paged-list-answers-500', clause: 'rest:4.5/list/unset/limit/unset', description: 'every list with a limit answers 500 InternalError (a Status body)', checks: ['rv-cell-list-unset-limit-unset'], alsoReportedAs: [] },
  // A fault for every passed clause (clause-faults.ts).
  ...clauseFaults,
] as const satisfies readonly Fault[];

/** A planted fault of the table above, a hostile one (hostile-faults.ts), a partial mode (setup-partial-modes.ts) or one of a family (fault-families.ts): what `--fault` accepts. */
export type FaultName = (typeof faults)[number]['name'] | HostileFaultName | SetupPartialModeName | FamilyFaultName;
