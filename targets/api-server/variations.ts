/**
 * Legal variations (`--variation NAME`): behaviour the spec allows but the reference server does not
 * show by default. A suite that flags any of them is wrong; the self-tests require all to pass.
 */
export const variations = [
  { name: 'opaque-rv', description: 'resourceVersions are opaque non-numeric strings' },
  { name: 'shuffled-order', description: 'lists come in a stable pseudo-random order instead of by name' },
  { name: 'stale-any', description: 'rv="0" reads are served from the oldest retained snapshot' },
  { name: 'no-remaining-count', description: 'remainingItemCount is never sent' },
  { name: 'short-pages', description: 'pages hold fewer than limit items (limit-1) while paging correctly' },
  { name: 'opaque-continue', description: 'continue tokens use another valid format' },
  { name: 'pretty-json', description: 'JSON bodies are indented' },
  { name: 'extra-fields', description: 'objects and list metadata carry unknown extra fields' },
  { name: 'invalid-as-400', description: '"Invalid" cells are answered 400 instead of 422' },
  { name: 'items-with-kind', description: 'list items carry kind and apiVersion' },
  { name: 'status-200-on-create', description: 'create answers 200 instead of 201' },
  { name: 'latency', description: '5-30 ms delay on every request' },
  { name: 'retry-after-429', description: 'every 20th request is answered 429 with Retry-After: 0 first' },
  { name: 'delete-returns-object', description: 'DELETE answers with the deleted object instead of a Status' },
  { name: 'no-bookmarks', description: 'BOOKMARK events are never sent, even when asked for' },
  { name: 'bookmark-after-state', description: 'a state-starting watch that asked for bookmarks gets one at its start revision right after the synthetic ADDED events, before any later change (rest:6.1: all changes up to it were sent), as upstream\'s watch cache may when its bookmark timer fires then' },
  { name: 'watch-split-chunks', description: 'watch events are written in 7-byte pieces, cut at odd boundaries' },
  { name: 'no-table-support', description: 'Table is never served: 406 for a Table-only Accept, the fallback otherwise (rest:2.5.2)' },
  { name: 'no-protobuf-writes', description: 'protobuf request bodies are refused with 415 (protobuf responses still served)' },
  { name: 'dry-run-flag-persists', description: 'the flag form ?dryRun (no value) is a real write; only dryRun=All skips persistence (rest:4.6.2 speaks of All)' },
  { name: 'protobuf-on-wildcard', description: '*/* and application/* are answered in protobuf instead of JSON' },
  { name: 'deletion-lingers', description: 'an object deleted without finalizers stays Terminating for 300 ms before removal (rest:3.1: not shown)' },
  { name: 'conflict-as-422', description: 'apply conflicts are answered 422 with a plain message body instead of 409 Status (rest:7.5, 7.6: not shown)' },
  { name: 'associative-lists-reversed', description: 'items of set and map lists are stored in reverse order after every apply (order is not fixed by rest:4.7.7)' },
  { name: 'preconditions-race', description: 'a resourceVersion precondition also matches the version before the current one, so two updates with the same precondition can both succeed (preconditions are not in the spec; upstream refuses the second with 409)' },
  { name: 'table-plain-content-type', description: 'Table answers carry Content-Type application/json without the as/g/v parameters, as upstream kube-apiserver does (rest:4.8: Content-Type states the format)' },
  { name: 'watch-cache-lag-504', description: 'a get or list at a resourceVersion the server issued, not older than it (Not older than), waits and answers 504 Too large resource version, as upstream\'s per-type watch cache does when other types moved etcd\'s revision' },
  { name: 'subtype-wildcard-406', description: 'an Accept range application/* is not served (406 when nothing else is), as upstream\'s go-restful routes do; rest:4.8 does not say how partial wildcards are read' },
  { name: 'generate-name-prefix-validated', description: 'a generateName prefix that cannot start a DNS subdomain (ending in ".") is refused with 422, as upstream does (the spec gives no name syntax)' },
  { name: 'namespace-deletion-slow', description: 'a deleted namespace stays Terminating with its contents for 2.5 s before both go, as upstream\'s namespace controller does (rest:2.2.4 bounds it in no time)' },
  { name: 'omit-empty-collections', description: 'empty maps and lists are not stored, nor owned (data: {} after its last key goes), as Go\'s omitempty does upstream (rest:4.1: schemas not shown)' },
  { name: 'watch-short-timeout', description: 'the server ends every watch 50 ms after it began, as upstream ends each at its request timeout (rest:6.1 bounds no stream\'s length)' },
  { name: 'finalizer-removal-lags', description: 'a Terminating object whose last finalizer goes stays stored, with no finalizers, for 300 ms before it leaves the store (rest:3.1 bounds the removal in no time)' },
  { name: 'repeated-parameter-refused', description: 'a list whose query repeats a parameter is refused with 422 (rest:4.3 gives each parameter once; the reference server, like upstream, reads the first value)' },
  { name: 'crd-protected-groups', description: 'CustomResourceDefinitions in the product\'s own groups (*.svc.io) are refused with 422, as upstream refuses *.k8s.io without an approval annotation' },
  { name: 'crd-schema-change-lags', description: 'for 300 ms after a definition\'s schema changes, every other request of its type is served under the previous schema, as one of two API servers behind a balancer may still be (rest:4.7.10 fixes no moment a change applies)' },
] as const satisfies readonly { name: string; description: string }[];

export type VariationName = (typeof variations)[number]['name'];
