/**
 * The clauses of the REST spec (`000_7a02e89943f753ff.txt`), as data: every numbered item, every table
 * row and every "not shown" statement of sections 1 to 9, one line each in our words (docs/architecture.md
 * "Clause ids").
 *
 * Ids: `rest:<section>.<item>` for a numbered item (`rest:4.4.3`), `rest:<section>/<slug>` for a table
 * row or an unnumbered paragraph (`rest:4.1/post`, `rest:3.1/no-finalizers-not-shown`), `rest:<section>`
 * for a section whose only content is one paragraph (`rest:2.8`, `rest:6.3`). Rows of a table that is
 * itself a numbered item hang below the item (`rest:4.7.7/list-type`). The `section` field is always the
 * section as printed in the spec, never derived from the id's shape (`rest:2.8` is section 2.8, not item
 * 8 of section 2).
 *
 * Kinds: `normative` a target can get it wrong; `unspecified` the spec says "not shown" (recorded, never
 * failed); `informative` description, or obligations of clients, operators or the release process that
 * no single running server can be seen to break.
 */
import type { Clause } from './types.ts';
import { listCells } from '../rv-semantics.ts';
import { tableClauseId } from './clause-id.ts';
import { OWNERSHIP_ROWS, ownershipClause } from '../apply/ownership-rows.ts';

import { I, N, U, sec, type Row } from './rest-rows.ts';
import { restClausesFrom5 } from './rest-5-9.ts';
import { listCellRow } from './rest-list-table.ts';

// ---- the catalog ----------------------------------------------------------------------------------

export const restClauses: readonly Clause[] = [
  // 1 What the service does
  ...sec('1', [
    ['rest:1.1', I, 'The service is a RESTful HTTP interface; every component operation and user command is a call to it'],
    ['rest:1.2', I, 'Everything the platform manages is an API object with a corresponding entry in the API'],
    ['rest:1.3', I, 'Primary resources are read, created, updated and deleted with GET, POST, PUT, PATCH and DELETE'],
    ['rest:1.4', I, 'Some resources have subresources, for finer-grained authorization or other representations'],
    ['rest:1.5', I, 'The server offers watches for change notification and consistent, pageable lists'],
    ['rest:1.6', I, 'The serialized state of all resources is persisted in a backing key-value store'],
    ['rest:1.7', I, 'Objects are serialized as JSON by default or in the binary protobuf envelope, both under the same schema rules'],
    ['rest:1.8', I, 'The server exposes health endpoints for liveness, readiness and individual checks'],
    ['rest:1.9', I, 'The reference version described is v1.24'],
  ]),

  // 2.1 Terminology
  ...sec('2.1', [
    ['rest:2.1/resource-type', I, 'Term "resource type": the name used in the URL (pods, namespaces, services)'],
    ['rest:2.1/kind', I, 'Term "kind": the concrete object schema of a resource type'],
    ['rest:2.1/collection', I, 'Term "collection": a list of instances of one resource type'],
    ['rest:2.1/resource', I, 'Term "resource": a single instance of a resource type, usually an object'],
    ['rest:2.1/subresource', I, 'Term "subresource": a URI path below a resource, for some resource types'],
    [
      'rest:2.1/virtual-resource-type',
      I,
      'Term "virtual resource type": an operation rather than a stored object (access review, eviction); may lack unique names',
    ],
  ]),

  // 2.2 Object names and scope
  ...sec('2.2', [
    [
      'rest:2.2.1',
      N,
      'Every creatable object has a unique name: a repeated create cannot make a duplicate, and the object is retrievable by name',
    ],
    ['rest:2.2.2', N, 'At most one object of a kind holds a given name in a namespace at a time; after deletion the name can be reused'],
    ['rest:2.2.3', N, 'Names of cluster-scoped objects (e.g. Nodes) are unique across the whole cluster'],
    ['rest:2.2.4', N, 'Deleting a namespace deletes the namespaced objects in it; access to them is authorized at namespace scope'],
    ['rest:2.2.5', N, 'Namespace is itself a cluster-scoped resource type'],
  ]),

  // 2.3 Common metadata fields
  ...sec('2.3', [
    [
      'rest:2.3/metadata.name',
      N,
      'metadata.name (string) is unique as in 2.2; with generateName the server generates a unique random name',
    ],
    ['rest:2.3/metadata.namespace', N, 'metadata.namespace (string) holds the namespace of a namespaced object'],
    ['rest:2.3/metadata.uid', N, 'metadata.uid (string) is generated randomly by the server and identifies the object'],
    ['rest:2.3/metadata.creationTimestamp', N, 'metadata.creationTimestamp (timestamp) is set by the server when the object is created'],
    [
      'rest:2.3/metadata.deletionTimestamp',
      N,
      'metadata.deletionTimestamp (timestamp) is set to the current time by the first delete request',
    ],
    [
      'rest:2.3/metadata.finalizers',
      N,
      'metadata.finalizers (list of string) is shared: any permitted actor may modify or reorder it; no processing order enforced',
    ],
    [
      'rest:2.3/metadata.resourceVersion',
      N,
      'metadata.resourceVersion (opaque string): on an object its last-modified version, on a collection the version it was built at',
    ],
    [
      'rest:2.3/metadata.continue',
      N,
      'metadata.continue (string) appears only in collection metadata: the paging token, empty when no pages remain',
    ],
    [
      'rest:2.3/metadata.remainingItemCount',
      N,
      'metadata.remainingItemCount (integer) appears only in collection metadata: count of items not in this response (4.4.6)',
    ],
    ['rest:2.3/metadata.managedFields', N, 'metadata.managedFields (list of entries) is the field-ownership record described in 2.6'],
    ['rest:2.3/metadata.labels', N, 'metadata.labels and metadata.annotations are maps of string to string'],
    ['rest:2.3/apiVersion', N, 'apiVersion (string) is "v1" for the core group, otherwise "$GROUP_NAME/$VERSION"'],
    ['rest:2.3/kind', N, 'kind (string) names the object kind'],
  ]),

  // 2.4 Collection envelope
  ...sec('2.4', [
    ['rest:2.4.1', N, 'A list response is a collection whose kind is the resource kind plus "List" (PodList, NodeList)'],
    [
      'rest:2.4.2',
      N,
      'The collection envelope has kind, apiVersion, metadata (resourceVersion, continue, remainingItemCount) and items, all of one kind',
    ],
    ['rest:2.4.3', N, 'kind "List" is a client-side merge of several list responses, not an API response'],
  ]),

  // 2.5 Watch event envelope and Table representation
  ...sec('2.5', [
    ['rest:2.5/watch-event', N, 'A watch event has type (ADDED, MODIFIED, BOOKMARK as shown) and object, an object of the requested kind'],
    ['rest:2.5/bookmark-object', N, 'The object of a BOOKMARK event is of the requested type and contains only metadata.resourceVersion'],
    [
      'rest:2.5/table',
      N,
      'A Table has kind Table, apiVersion meta.svc.io/v1, columnDefinitions (each with at least name and type) and rows',
    ],
    ['rest:2.5.1', N, 'A type without a custom Table definition yields a default Table with columns Name (string) and Created At (date)'],
    ['rest:2.5.2', I, 'Not every type supports Table output (CRDs without column mappings, aggregated APIs may not serve Tables)'],
    ['rest:2.5.3', U, 'Column definition fields beyond name and type, and the row shape: not shown'],
  ]),

  // 2.6 Managed-fields entry
  ...sec('2.6', [
    ['rest:2.6/manager', N, 'A managedFields entry has manager: the name of the field manager'],
    ['rest:2.6/operation', N, 'A managedFields entry has operation: Apply or Update'],
    ['rest:2.6/apiVersion', N, 'A managedFields entry has apiVersion: the API version the manager used'],
    ['rest:2.6/time', N, 'A managedFields entry has time: the timestamp of the change'],
    ['rest:2.6/fieldsType', N, 'A managedFields entry has fieldsType FieldsV1'],
    ['rest:2.6/fieldsV1', N, 'A managedFields entry has fieldsV1: the tree of owned fields, keys prefixed "f:", {} at the leaves'],
  ]),

  // 2.7 Protobuf envelope
  ...sec('2.7', [
    ['rest:2.7.1', N, 'A protobuf body starts with the 4-byte magic prefix 0x6b 0x38 0x73 0x00'],
    [
      'rest:2.7.2',
      N,
      'After the prefix: message Unknown with typeMeta (1; apiVersion 1, kind 2), raw (2, bytes), contentEncoding (3), contentType (4)',
    ],
  ]),

  // 2.8 Generated fields
  ...sec('2.8', [
    [
      'rest:2.8',
      N,
      'Server generates at persist time: name from generateName, timestamps, uid, resourceVersion, admission-set fields, Service ports/IPs; dry-run values may differ',
    ],
    ['rest:2.8/kind-fields-not-shown', I, 'Fields of individual resource kinds beyond those named in the spec: not shown'],
  ]),

  // 3.1 Object deletion
  ...sec('3.1', [
    [
      'rest:3.1/live-to-terminating',
      N,
      'First delete of a live object accepted for deletion: it becomes Terminating with deletionTimestamp set to the current time',
    ],
    [
      'rest:3.1/terminating-to-removed',
      N,
      'When the last finalizer of a Terminating object is removed, the object leaves the store and its name becomes reusable',
    ],
    ['rest:3.1/finalizer-order', N, 'The server enforces no order between finalizers: they may be removed in any order'],
    ['rest:3.1/no-finalizers-not-shown', U, 'Deletion of an object that has no finalizers: not shown'],
  ]),

  // 3.2 Field ownership
  ...sec(
    '3.2',
    OWNERSHIP_ROWS.map((r): Row => [ownershipClause(r.row), N, r.summary]),
  ),

  // 3.3 Stability stages
  ...sec('3.3', [
    ['rest:3.3', I, 'API versions go through the stages Alpha, Beta and Stable, with transitions governed by section 9'],
    ['rest:3.3/kind-state-machines-not-shown', I, 'State machines of individual resource kinds (e.g. pod phases): not shown'],
  ]),

  // 4 Endpoints (introduction)
  ...sec('4', [
    ['rest:4/paths', N, 'The core group is served under /api/v1, named groups under /apis/{group}/{version}'],
    [
      'rest:4/single-resource-verbs',
      N,
      'get, create, apply, update, patch, delete and proxy act on a single resource; no multi-resource request or transaction',
    ],
    ['rest:4/collection-verbs', N, 'list, watch and deletecollection act on collections'],
  ]),

  // 4.1 Resource paths
  ...sec('4.1', [
    [
      'rest:4.1/get-collection',
      N,
      'GET /apis/{g}/{v}/{type} returns the collection: all objects of a cluster-scoped type, or of all namespaces',
    ],
    ['rest:4.1/get-object', N, 'GET /apis/{g}/{v}/{type}/{name} returns that one (cluster-scoped) object'],
    ['rest:4.1/get-namespaced-collection', N, 'GET /apis/{g}/{v}/namespaces/{ns}/{type} returns the collection of that namespace only'],
    ['rest:4.1/get-namespaced-object', N, 'GET /apis/{g}/{v}/namespaces/{ns}/{type}/{name} returns that one object'],
    [
      'rest:4.1/get-subresource',
      N,
      'GET /apis/{g}/{v}/{type}/{name}/{subresource} returns the subresource representation (cluster-scoped)',
    ],
    [
      'rest:4.1/get-namespaced-subresource',
      N,
      'GET /apis/{g}/{v}/namespaces/{ns}/{type}/{name}/{subresource} returns the subresource representation',
    ],
    ['rest:4.1/get-namespaces', N, 'GET /api/v1/namespaces returns a NamespaceList'],
    ['rest:4.1/get-namespace', N, 'GET /api/v1/namespaces/{name} returns that Namespace'],
    ['rest:4.1/get-core', N, 'GET /api/v1/... serves the same path shapes for the core group (/api/v1/pods, /api/v1/namespaces/{ns}/pods)'],
    [
      'rest:4.1/post',
      N,
      'POST of an object to a collection path creates it and returns the created object (only status 200 for dry-run is shown)',
    ],
    [
      'rest:4.1/put',
      N,
      'PUT of a complete object to its object path returns the stored object; it creates or updates depending on existence',
    ],
    ['rest:4.1/patch', N, 'PATCH of a patch document to an object path returns the patched object'],
    ['rest:4.1/delete', N, 'DELETE of an object path, optionally with options, deletes as in 3.1'],
    [
      'rest:4.1/subjectaccessreviews',
      N,
      'POST of a SubjectAccessReview to .../subjectaccessreviews returns the review with its result (virtual resource)',
    ],
    ['rest:4.1/eviction', N, "POST of an eviction to a pod's eviction subresource triggers API-initiated eviction (virtual resource)"],
    [
      'rest:4.1/subresource-verbs',
      I,
      'Each subresource supports its own verbs per object; a subresource cannot be addressed across several resources',
    ],
    [
      'rest:4.1/patch-type/apply',
      N,
      'PATCH with application/apply-patch+yaml is server-side apply: a partial object as YAML; fieldManager required',
    ],
    ['rest:4.1/patch-type/merge', N, 'PATCH with application/merge-patch+json is a merge patch'],
    ['rest:4.1/patch-type/json', N, 'PATCH with application/json-patch+json is a JSON patch: an array of operations with op, path, value'],
    ['rest:4.1/schemas-not-shown', I, 'Request and response schemas of each resource type: not shown'],
    ['rest:4.1/deletecollection-not-shown', I, 'Path and payload of deletecollection: not shown'],
    ['rest:4.1/strategic-merge-not-shown', I, 'Content type of strategic merge patch: not shown'],
  ]),

  // 4.2 Health endpoints
  ...sec('4.2', [
    ['rest:4.2/healthz', N, 'GET /healthz is served (deprecated since v1.16)'],
    ['rest:4.2/livez', N, 'GET /livez reports liveness'],
    ['rest:4.2/readyz', N, 'GET /readyz reports readiness'],
    ['rest:4.2/livez-check', N, 'GET /livez/{check} runs one liveness check (alpha since v1.24; meant for human operators)'],
    ['rest:4.2/readyz-check', N, 'GET /readyz/{check} runs one readiness check (alpha since v1.24; meant for human operators)'],
    ['rest:4.2/verbose', N, '?verbose prints one "[+]<name> ok" line per check and a final "healthz check passed" line when all pass'],
    ['rest:4.2/exclude', N, '?exclude=<name> (combinable with verbose) skips that check; its line reads "[+]<name> excluded: ok"'],
    ['rest:4.2.1', N, 'Health is told by the status code alone: 200 means healthy, live or ready for the endpoint asked'],
    ['rest:4.2.2', N, 'The name of an individual check is the text between "[+]" and "ok" in the verbose output'],
    ['rest:4.2.3', I, 'Server options --livez-grace-period and --shutdown-delay-duration influence the health endpoints'],
    ['rest:4.2.4', N, 'The component serves /metrics exposing metrics'],
  ]),

  // 4.3 Query parameters on resource requests
  ...sec('4.3', [
    [
      'rest:4.3',
      N,
      'Resource requests take the query parameters of the table; forms it does not describe (e.g. a parameter given twice) are unspecified',
    ],
    ['rest:4.3/watch', N, 'watch=1 or watch=true on a collection GET turns the request into a watch'],
    [
      'rest:4.3/resourceVersion',
      N,
      'resourceVersion on get, list and watch is an opaque string, semantics as in 4.5, compared for equality only',
    ],
    [
      'rest:4.3/resourceVersionMatch',
      N,
      'resourceVersionMatch on list is Exact or NotOlderThan; setting it without resourceVersion is invalid',
    ],
    ['rest:4.3/limit', N, 'limit on list is an integer: the maximum number of items in one page'],
    ['rest:4.3/continue', N, "continue on list is the opaque token taken from the previous page's metadata.continue"],
    ['rest:4.3/allowWatchBookmarks', N, 'allowWatchBookmarks (boolean) on a watch requests BOOKMARK events'],
    ['rest:4.3/dryRun', N, 'dryRun on POST, PUT, PATCH and DELETE takes no value or All (4.6)'],
    [
      'rest:4.3/fieldManager',
      N,
      'fieldManager on modifying requests is required for apply; for other writes it defaults from the user agent',
    ],
    ['rest:4.3/force', N, 'force=true on apply overrides field-ownership conflicts'],
    ['rest:4.3/pretty', N, 'pretty is accepted on any request and combinable with dryRun'],
  ]),

  // 4.4 Paging
  ...sec('4.4', [
    ['rest:4.4.1', N, 'A list with limit=n returns at most n items and, when more exist, a non-empty metadata.continue'],
    ['rest:4.4.2', N, 'Repeating the list with continue=<token> yields the next page, until the returned continue is empty'],
    ['rest:4.4.3', N, 'All pages of one paged list report the same collection resourceVersion: one snapshot, later changes not shown'],
    ['rest:4.4.4', N, 'A continue token expires after a short time (default 5 minutes); using it then returns 410 Gone'],
    ['rest:4.4.5', N, 'Chunking (limit/continue) is available unless the APIListChunking feature gate is disabled'],
    [
      'rest:4.4.6',
      N,
      'remainingItemCount is the number of further items; omitted with label or field selectors and on a complete list or last chunk',
    ],
    ['rest:4.4/selector-scope', N, 'A list or watch with a label selector (named in 4.4.6) holds only items whose labels match it'],
  ]),

  // 4.5 Resource version semantics
  ...sec('4.5', [
    ['rest:4.5/get/unset', N, 'get, rv unset: Most Recent (latest state, consistent read)'],
    ['rest:4.5/get/0', N, 'get, rv="0": Any (any retained version, may be older than one already seen)'],
    ['rest:4.5/get/other', N, 'get, rv=other: Not older than (the object is at least as new as rv)'],
    ['rest:4.5/list', N, 'list: the semantic is chosen by the table row and rv column; combinations without a row are unspecified'],
    ...listCells().map(listCellRow),
    ['rest:4.5/watch/unset', N, 'watch, rv unset: Get State and Start at Most Recent (synthetic ADDED for the latest state, then changes)'],
    ['rest:4.5/watch/0', N, 'watch, rv="0": Get State and Start at Any (synthetic ADDED for some retained state, then changes)'],
    ['rest:4.5/watch/other', N, 'watch, rv=other: Start at Exact (only changes after rv, no synthetic ADDED)'],
    ['rest:4.5/meaning/any', N, 'Any: data at any version, newest preferred, possibly older than what the client saw before'],
    ['rest:4.5/meaning/most-recent', N, 'Most Recent: the latest version, served by a consistent (quorum) read'],
    [
      'rest:4.5/meaning/not-older-than',
      N,
      'Not older than: at least as new as rv; for lists the collection resourceVersion is, items carry no guarantee',
    ],
    [
      'rest:4.5/meaning/exact',
      N,
      'Exact: exactly rv, else 410 Gone; for lists the collection resourceVersion equals rv, items carry no guarantee',
    ],
    ['rest:4.5/meaning/continue-exact', N, 'Continue Token, Exact: the version of the first page, carried inside the token'],
    [
      'rest:4.5/meaning/get-state-start',
      N,
      'Get State and Start (Any / Most Recent): synthetic ADDED for every instance at the start version, then all later changes',
    ],
    ['rest:4.5/meaning/start-exact', N, 'Start at Exact: events for changes after rv only, with no synthetic ADDED events'],
    [
      'rest:4.5/client-obligations',
      I,
      'Clients handle 410 Gone for NotOlderThan with limit, and check the collection version of an Exact list without limit',
    ],
  ]),

  // 4.6 Dry-run
  ...sec('4.6', [
    ['rest:4.6.1', N, 'dryRun is accepted with no value (flag form: ?dryRun, ?dryRun&pretty=true) or as dryRun=All'],
    ['rest:4.6.2', N, 'dryRun=All runs every stage except persistence and returns the would-be stored object with the normal status code'],
    [
      'rest:4.6.3',
      N,
      'A dry-run fails if the real request would trigger a side-effecting admission step; built-in steps all support dry-run',
    ],
    ['rest:4.6.4', N, 'A dry-run request is authorized exactly like the same request without dryRun'],
  ]),

  // 4.7 Server-side apply
  ...sec('4.7', [
    ['rest:4.7.1', N, 'Apply is a PATCH with Content-Type application/apply-patch+yaml, fieldManager=<name> required, force=true optional'],
    ['rest:4.7.2', N, 'An apply body holds every field the applier has an opinion about and must not contain managedFields'],
    [
      'rest:4.7.3',
      N,
      'Apply merges into the live object, applied values win; items the same manager applied before and now omits are removed unless co-owned',
    ],
    ['rest:4.7.4', N, 'Only apply fails on conflict; non-apply updates never conflict and take over ownership of what they change'],
    [
      'rest:4.7.5',
      N,
      'A non-apply write with managedFields = [one empty entry] resets ownership first (an empty list does not); the writer owns its other changes',
    ],
    [
      'rest:4.7.6',
      N,
      "The command-line client's default apply fieldManager is its own name; moving from client-side to server-side apply under it causes no conflicts",
    ],
    [
      'rest:4.7.7',
      N,
      'The schema extensions x-svc-list-type, x-svc-list-map-keys and x-svc-map-type set the ownership granularity of lists, maps and structs',
    ],
    [
      'rest:4.7.7/list-type',
      N,
      'x-svc-list-type atomic (whole list, one owner, recursively), set (unique scalars owned each) or map (keyed objects owned each)',
    ],
    ['rest:4.7.7/list-map-keys', N, 'x-svc-list-map-keys names the key fields of a list of type map; the keys must be scalars'],
    [
      'rest:4.7.7/map-type',
      N,
      'x-svc-map-type on maps and structs: atomic (replaced entirely by one manager) or granular (fields owned separately)',
    ],
    ['rest:4.7.8', N, 'Without a list type, patchMergeStrategy=merge is read as list type map with patchMergeKey as its key'],
    [
      'rest:4.7.9',
      N,
      "Custom resources without a schema are unstructured (keys are struct fields, all lists atomic); a schema's extensions are honoured",
    ],
    [
      'rest:4.7.10',
      N,
      'Changing granular/set/map to atomic gives element owners the whole (later changes conflict); atomic to granular infers no owners, no conflicts',
    ],
  ]),

  // 4.8 Content negotiation
  ...sec('4.8', [
    ['rest:4.8/default', N, 'application/json is the default in both directions and every built-in type supports it'],
    [
      'rest:4.8/protobuf',
      N,
      'application/vnd.svc.protobuf in Accept (read) or Content-Type (write); not available for CRDs or aggregated types',
    ],
    ['rest:4.8/table', N, 'GET with Accept application/json;as=Table;g=meta.svc.io;v=v1 returns a Table'],
    [
      'rest:4.8/fallback',
      N,
      'Accept may list several media types in order of preference (Table then JSON, protobuf then JSON); a supported one is served',
    ],
    ['rest:4.8/unsupported', N, 'Status 406 when none of the requested media types is supported'],
    ['rest:4.8/response', N, 'The response Content-Type states the format chosen; a protobuf request may get a JSON response'],
    [
      'rest:4.8/watch-response',
      N,
      'A watch answers 200 with Transfer-Encoding: chunked and a body that is a series of JSON event documents',
    ],
  ]),

  // 5 Authentication
  ...restClausesFrom5,
];
