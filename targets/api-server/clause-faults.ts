/**
 * Planted faults that give a passed clause a fault failing it (oracle strength: a pass means something
 * only if a server breaking exactly what the clause states fails it). Kept apart from faults.ts, which
 * spreads them into its table; `npm run fault-coverage` lists the passed clauses still without one.
 */
import type { Fault } from './fault-types.ts';

/**
 * Faults for passed clauses that older faults named only as "may also be reported" and never were
 * reported under (the judges reported a neighbour first): each of these must be reported under its own
 * clause (test/oracle/clause-faults.test.ts), so `npm run mutation -- --passed` counts the clause.
 */
export const ownClauseFaults = [
  {
    name: 'namespace-status-get-not-found',
    clause: 'rest:4.1/get-subresource',
    description: 'GET of the status subresource of a namespace (cluster-scoped) answers 404 (writes to it still work)',
    checks: ['authz-rules'],
    alsoReportedAs: [],
  },
  // Parameters refused in combination (negotiate.ts, watch.ts): each fails the clause of the parameter.
  {
    name: 'dry-run-pretty-refused',
    clause: 'rest:4.3/pretty',
    description: 'a dry-run write that also asks for pretty output (`?dryRun&pretty=true`) answers 400 BadRequest',
    checks: ['dry-run-edges-bare-flag-pretty'],
    alsoReportedAs: ['rest:4.3/dryRun', 'rest:4.6.1', 'rest:4.6.2'],
  },
  {
    name: 'bookmark-watch-refused',
    clause: 'rest:4.3/allowWatchBookmarks',
    description: 'a watch that asks for bookmarks (allowWatchBookmarks=true) answers 400 BadRequest as for an unknown parameter',
    checks: ['watch-bookmarks'],
    alsoReportedAs: ['rest:4.3/watch', 'rest:4.8/watch-response'],
  },
  // Exact reads from a version the history no longer holds (reads.ts), found by watch-too-old-found.
  {
    name: 'exact-too-old-served-now',
    clause: 'rest:4.5/meaning/exact',
    description: 'an Exact list at a version older than the history window answers 200 with the newest state instead of 410 Gone',
    checks: ['watch-too-old-found'],
    alsoReportedAs: ['rest:7/410'],
  },
  {
    name: 'protobuf-request-answered-in-protobuf',
    clause: 'rest:4.8/response',
    description: 'a write sent as protobuf is answered in protobuf although Accept asked for JSON',
    checks: ['protobuf-envelope'],
    alsoReportedAs: ['rest:4.8/protobuf'],
  },
  {
    name: 'list-map-keys-first-only',
    clause: 'rest:4.7.7/list-map-keys',
    description:
      'x-svc-list-map-keys is read for its first key only: entries of a map list keyed by name and port are told apart by name alone',
    checks: ['apply-sequences'],
    // A schema extension not honoured breaks rest:4.7.9 too; a step is judged under every fixture field it writes (map-type among them).
    alsoReportedAs: [
      'rest:4.7.9',
      'rest:4.7.7/list-type',
      'rest:4.7.7/map-type',
      'rest:4.7.7',
      'rest:4.7.3',
      'rest:4.1/put',
      'rest:4.1/patch',
      'rest:4.1/patch-type/apply',
    ],
  },
] as const satisfies readonly Fault[];

export const clauseFaults = [
  {
    name: 'table-default-columns-renamed',
    clause: 'rest:2.5.1',
    description: 'the default Table calls its second column "Age" (type date, the creationTimestamp in its cells) instead of "Created At"',
    checks: ['table-shape'],
    alsoReportedAs: [],
  },
  {
    name: 'watch-too-old-empty',
    clause: 'rest:6.1.3',
    description:
      'a watch from a version older than the history is answered 200 with an empty stream that ends at once: the 410 Gone swallowed',
    checks: ['watch-too-old', 'watch-too-old-found'],
    alsoReportedAs: ['rest:7/410'],
  },
  // Answers of a whole request replaced (verb-faults.ts).
  {
    name: 'create-answers-500',
    clause: 'rest:4.1/post',
    description: 'every POST of a ConfigMap answers 500 InternalError (a Status body) and stores nothing',
    checks: ['crud-sequences'],
    alsoReportedAs: [],
  },
  {
    name: 'delete-answers-405',
    clause: 'rest:4.1/delete',
    description: 'DELETE of a ConfigMap answers 405 MethodNotAllowed',
    checks: ['crud-sequences'],
    alsoReportedAs: [],
  },
  {
    name: 'namespace-duplicate-accepted',
    clause: 'rest:2.2.3',
    description: 'creating a namespace whose name exists answers 201 with the existing one instead of refusing',
    checks: ['names-and-scope'],
    alsoReportedAs: [],
  },
  {
    name: 'namespace-read-with-namespace',
    clause: 'rest:2.2.5',
    description: 'a namespace read by its name carries metadata.namespace (its own name), as if it were namespaced',
    checks: ['names-and-scope'],
    alsoReportedAs: [],
  },
  {
    name: 'namespace-read-as-list',
    clause: 'rest:4.1/get-namespace',
    description: 'GET /api/v1/namespaces/{name} answers a NamespaceList holding it instead of the Namespace',
    checks: ['names-and-scope'],
    alsoReportedAs: [],
  },
  {
    name: 'namespace-list-kind-list',
    clause: 'rest:4.1/get-namespaces',
    description: 'GET /api/v1/namespaces answers kind List instead of NamespaceList',
    checks: ['names-and-scope'],
    alsoReportedAs: [],
  },
  {
    name: 'all-namespaces-list-empty',
    clause: 'rest:4.1/get-collection',
    description: 'a list of a namespaced type across all namespaces answers no items',
    checks: ['names-and-scope'],
    alsoReportedAs: [],
  },
  // Single health checks (health.ts): what the aggregate's verbose lines name must answer.
  {
    name: 'health-single-check-missing',
    clause: 'rest:4.2.2',
    description: '/livez/<name> and /readyz/<name> answer 404 for the checks the verbose output lists',
    checks: ['health-endpoints'],
    alsoReportedAs: [],
  },
  // Errors and negotiation (reads.ts, negotiate.ts).
  {
    name: 'too-large-as-404',
    clause: 'rest:7/504',
    description: 'a read at a resourceVersion never reached answers 404 NotFound instead of 504',
    checks: ['too-large-resource-version'],
    alsoReportedAs: [],
  },
  {
    name: 'retry-after-as-date',
    clause: 'rest:7.1',
    description: 'the 504 for a version never reached carries Retry-After as an HTTP date instead of seconds',
    checks: ['too-large-resource-version'],
    alsoReportedAs: [],
  },
  // Selectors and watch events (reads.ts, watch.ts).
  {
    name: 'label-selector-ignored',
    clause: 'rest:4.4/selector-scope',
    description: 'a list of ConfigMaps with a label selector holds every item, matching or not',
    checks: ['crud-sequences'],
    alsoReportedAs: [],
  },
  {
    name: 'watch-event-object-kind-wrong',
    clause: 'rest:2.5/watch-event',
    description: "watch events carry objects whose kind is the list's (ConfigMapList)",
    checks: ['watch-cell-other'],
    alsoReportedAs: [],
  },
  // Parameters refused or not required (patch.ts, watch.ts).
  {
    name: 'apply-without-field-manager-accepted',
    clause: 'rest:4.7.1',
    description: 'an apply without fieldManager is accepted and recorded under the manager "unknown"',
    checks: ['apply-points'],
    alsoReportedAs: [],
  },
  {
    name: 'watch-answers-400',
    clause: 'rest:4.3/watch',
    description: 'a watch of ConfigMaps (watch=1) answers 400 BadRequest',
    checks: ['watch-resume'],
    alsoReportedAs: ['rest:4.8/watch-response'],
  },
  {
    name: 'exact-too-large-as-404',
    clause: 'rest:7/504/exact',
    description: 'an Exact list at a resourceVersion never reached answers 404 NotFound instead of 504',
    checks: ['too-large-resource-version'],
    alsoReportedAs: [],
  },
  {
    name: 'metrics-not-served',
    clause: 'rest:4.2.4',
    description: 'GET /metrics answers 404',
    checks: ['deprecated-metrics'],
    alsoReportedAs: [],
  },
  {
    name: 'list-items-foreign-kind',
    clause: 'rest:2.4.2',
    description: 'the items of a ConfigMap list carry kind Secret',
    checks: ['paging-snapshot'],
    alsoReportedAs: [],
  },
  {
    name: 'field-manager-ignores-user-agent',
    clause: 'rest:4.3/fieldManager',
    description: 'a non-apply write without fieldManager is recorded under manager "unknown" instead of its user agent',
    checks: ['apply-points'],
    alsoReportedAs: [],
  },
  {
    name: 'status-get-not-found',
    clause: 'rest:4.1/get-namespaced-subresource',
    description: 'GET of the status subresource of a namespaced object answers 404 (writes to it still work)',
    checks: ['authz-rules'],
    alsoReportedAs: [],
  },
  {
    name: 'version-name-unreadable',
    clause: 'rest:9.2/stable',
    description: 'discovery lists a group version named v1rc1: neither alpha, beta nor vX',
    checks: ['deprecated-versions'],
    alsoReportedAs: [],
  },
  {
    name: 'generated-name-unprefixed',
    clause: 'rest:2.8',
    description: 'a name generated from generateName does not start with the prefix',
    checks: ['dry-run-sequences'],
    alsoReportedAs: ['rest:2.3/metadata.name'],
  },
  {
    name: 'apply-managed-fields-adopted',
    clause: 'rest:4.7.2',
    description: 'an apply body carrying metadata.managedFields is accepted instead of refused',
    checks: ['apply-points'],
    alsoReportedAs: [],
  },
  {
    name: 'health-single-livez-check-refused',
    clause: 'rest:4.2/livez-check',
    description: '/livez/<name> answers 400 for a check the aggregate lists as ok',
    checks: ['health-endpoints'],
    alsoReportedAs: [],
  },
  {
    name: 'health-single-readyz-check-refused',
    clause: 'rest:4.2/readyz-check',
    description: '/readyz/<name> answers 400 for a check the aggregate lists as ok',
    checks: ['health-endpoints'],
    alsoReportedAs: [],
  },
  {
    name: 'apis-without-groups',
    clause: 'rest:9.1.2',
    description: 'GET /apis answers the named groups as an object keyed by name instead of the groups list',
    checks: ['deprecated-versions'],
    alsoReportedAs: [],
  },
  {
    name: 'finalizers-removed-in-order-only',
    clause: 'rest:3.1/finalizer-order',
    description: 'a Terminating object refuses (422) a finalizer change that does not remove from the front of the list',
    checks: ['deletion-finalizers'],
    alsoReportedAs: ['rest:2.3/metadata.finalizers'],
  },
  {
    name: 'map-type-ignored',
    clause: 'rest:4.7.7/map-type',
    description: 'x-svc-map-type is not read: atomic maps and structs are owned field by field',
    checks: ['apply-sequences'],
    alsoReportedAs: ['rest:4.7.7', 'rest:4.7.3', 'rest:4.1/patch-type/apply', 'rest:4.1/patch', 'rest:4.1/put'],
  },
  {
    name: 'dry-run-answers-202',
    clause: 'rest:7/200',
    description: "a successful dry-run write answers 202 Accepted instead of the verb's normal status",
    checks: ['dry-run-sequences'],
    alsoReportedAs: ['rest:4.6.1', 'rest:4.6.2'],
  },
  ...ownClauseFaults,
] as const satisfies readonly Fault[];
