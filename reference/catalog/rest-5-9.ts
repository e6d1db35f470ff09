/** The clauses of sections 5 to 9 of the REST spec (authorization, watch, errors, health, versions); rest.ts has 1 to 4. */
import type { Clause } from './types.ts';
import { I, N, U, sec } from './rest-rows.ts';

export const restClausesFrom5: readonly Clause[] = [
  ...sec('5', [
    ['rest:5.1', N, 'The server authenticates and authorizes every request (mechanisms described outside the spec)'],
    ['rest:5.1/client-auth-not-shown', U, 'Mechanisms of client authentication on the API server: not shown'],
    [
      'rest:5.2',
      I,
      "Client libraries authenticate in-cluster with the workload's service account or read a kubeconfig-style credentials file",
    ],
    [
      'rest:5.3',
      N,
      'Authorization is per resource type, verb and scope; subresources separately from the parent; namespaced resources at namespace scope',
    ],
    ['rest:5.4', N, 'A dry-run request needs the same permission as the real request'],
    ['rest:5.5', N, 'An authorization rule grants verbs on resources in API groups: apiGroups, resources, verbs lists, as in a role'],
    ['rest:5.6', N, 'Health endpoints queried from a remote host require authentication'],
  ]),

  // 6.1 Watch events
  ...sec('6.1', [
    ['rest:6.1/ADDED', N, 'ADDED: an object was created, or (synthetic) an existing instance at watch start'],
    ['rest:6.1/MODIFIED', N, 'MODIFIED: an object was changed'],
    [
      'rest:6.1/BOOKMARK',
      N,
      'BOOKMARK: all changes up to its resourceVersion were sent; only with allowWatchBookmarks=true, neither interval nor delivery guaranteed',
    ],
    [
      'rest:6.1.1',
      N,
      'Watch events itemize the operations (create, update, apply, delete) that happened after the requested resourceVersion',
    ],
    ['rest:6.1.2', N, 'A dropped watch can be resumed from the last received resourceVersion (or the client lists again)'],
    ['rest:6.1.3', N, 'A watch from a version too old to serve gets 410 Gone; the client then clears its cache, lists and watches anew'],
    ['rest:6.1.4', N, 'The server keeps watch history for a limited time (default 5 minutes with the standard store)'],
    ['rest:6.1.5', N, 'A watch from an unrecognized (future) version may wait until the request times out'],
    ['rest:6.1.6', U, 'Other event type names and the payload of deletion events: not shown'],
  ]),

  // 6.2 Event resource (events/v1)
  ...sec('6.2', [
    ['rest:6.2/type', N, 'events/v1 Event type is limited to Normal and Warning'],
    ['rest:6.2/regarding', N, 'events/v1 Event regarding replaces involvedObject'],
    ['rest:6.2/required', N, 'events/v1 Event action, reason, reportingController and reportingInstance are required on create'],
    ['rest:6.2/eventTime', N, 'events/v1 Event eventTime replaces firstTimestamp'],
    ['rest:6.2/series.lastObservedTime', N, 'events/v1 Event series.lastObservedTime replaces lastTimestamp'],
    ['rest:6.2/series.count', N, 'events/v1 Event series.count replaces count'],
    [
      'rest:6.2/deprecated-fields',
      N,
      'events/v1 deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, deprecatedSource.* are refused on new events',
    ],
  ]),

  // 6.3 Audit
  ...sec('6.3', [
    ['rest:6.3', N, 'A request to a deprecated endpoint gets the audit annotation svc.io/deprecated="true" on its audit event'],
  ]),

  // 7 Errors
  ...sec('7', [
    ['rest:7/200', N, '200 for success, dry-run included; on health endpoints 200 means healthy'],
    ['rest:7/400', N, '400 Bad Request for a list with limit and continue plus a non-zero, non-empty resourceVersion'],
    ['rest:7/406', N, '406 Not Acceptable when none of the media types in Accept is supported'],
    ['rest:7/410', N, '410 Gone when rv is older than retained (Exact list, NotOlderThan with limit, watch) or a continue token expired'],
    ['rest:7/504', N, '504 Gateway Timeout after waiting briefly for an unrecognized resourceVersion that did not appear'],
    [
      'rest:7/504/exact',
      N,
      'The same 504 for an Exact list (resourceVersionMatch=Exact, or limit with a resourceVersion) naming a version that never appeared',
    ],
    ['rest:7/conflict', N, 'An apply changing a field owned by another manager without force is rejected as a conflict'],
    ['rest:7.1', N, 'An unrecognized resourceVersion on list or get may be answered with a Retry-After header (seconds)'],
    ['rest:7.2', N, 'Error messages for unrecognized resource versions contain "Too large resource version"'],
    ['rest:7.3', N, 'A dry-run whose real form would trigger a side-effecting admission step fails'],
    ['rest:7.4', N, 'Requests to a deprecated endpoint succeed and carry a Warning response header (RFC 7234 5.5)'],
    ['rest:7.5', U, 'HTTP status code of a conflict: not shown'],
    ['rest:7.6', U, 'Shape of the error body: not shown'],
    ['rest:7.7', U, 'Output format of a failing health check: not shown'],
  ]),

  // 8 Limits
  ...sec('8', [
    ['rest:8/watch-history', N, 'Watch history is retained 5 minutes by default (standard store); applies to watch and Exact reads'],
    ['rest:8/continue-token-lifetime', N, 'A continue token of a paged list lives 5 minutes by default'],
    ['rest:8/protobuf-prefix', N, 'The magic prefix of protobuf bodies is 4 bytes long'],
    ['rest:8/beta-support', I, 'A beta API version stays supported 9 months or 3 releases after deprecation, whichever is longer'],
    ['rest:8/max-limit-not-shown', I, 'Maximum value of limit: not shown'],
    ['rest:8/rate-size-limits-not-shown', I, 'Request rate limits and request size limits of the API server: not shown'],
  ]),

  // 9.1 Groups and paths
  ...sec('9.1', [
    ['rest:9.1.1', N, 'The core group is served at /api/v1 with apiVersion v1'],
    ['rest:9.1.2', N, 'Named groups are served at /apis/$GROUP_NAME/$VERSION with apiVersion $GROUP_NAME/$VERSION'],
    [
      'rest:9.1.3',
      N,
      '--runtime-config takes comma-separated <key>[=<value>] (no value means true): <g>/<v>=false, <g>/<v>, <g>/<v>/<resource>',
    ],
    ['rest:9.1.4', I, 'Each group is versioned independently; a release may serve any number of groups and versions'],
  ]),

  // 9.2 Stability levels
  ...sec('9.2', [
    [
      'rest:9.2/alpha',
      N,
      'Alpha versions contain "alpha" (v1alpha1); may be off by default and dropped or changed incompatibly without notice',
    ],
    [
      'rest:9.2/beta',
      N,
      'Beta versions contain "beta" (v2beta3); on by default, not dropped, incompatible changes only with migration instructions',
    ],
    ['rest:9.2/stable', N, 'Stable versions are named vX with X an integer and appear in many later releases'],
  ]),

  // 9.3 Deprecation rules
  ...sec('9.3', [
    [
      'rest:9.3/rule-1',
      I,
      'Rule 1: an API element (resource, field, non-alpha annotation, enum value, component config) is removed only by a new group version',
    ],
    [
      'rest:9.3/rule-2',
      N,
      'Rule 2: objects round-trip without loss between the versions of a release (except resources absent from some versions)',
    ],
    [
      'rest:9.3/rule-3',
      N,
      'Rule 3: a version is only deprecated in favour of one at least as stable (stable over beta/alpha, beta over beta/alpha, alpha over alpha)',
    ],
    [
      'rest:9.3/rule-4a',
      I,
      'Rule 4a: stable not removed within a major version; beta kept 9 months or 3 releases after deprecation; alpha removable anytime',
    ],
    [
      'rest:9.3/rule-4b',
      I,
      'Rule 4b: preferred and storage versions advance only after a release has supported both old and new (rollback)',
    ],
    [
      'rest:9.3/rule-5a',
      I,
      'Rule 5a: user-facing CLI options keep working after deprecation: GA 12 months/2 releases, Beta 3 months/1 release, Alpha 0',
    ],
    [
      'rest:9.3/rule-5b',
      I,
      'Rule 5b: admin-facing component options: GA 6 months/1 release, Beta 3 months/1 release, Alpha 0 (longer of each)',
    ],
    ['rest:9.3/rule-6', N, 'Rule 6: deprecated command-line elements emit a warning when used (which may be disabled)'],
    ['rest:9.3/rule-7', I, 'Rule 7: deprecated behaviours keep working for at least 1 year'],
    [
      'rest:9.3/rule-8',
      I,
      'Rule 8: feature gates: Beta to GA 6 months/2 releases, Beta to end-of-life 3 months/1 release, Alpha 0 (longer of each)',
    ],
    [
      'rest:9.3/rule-9',
      N,
      'Rule 9: a deprecated feature gate warns when used and is documented (release notes, help) with whether it is non-operational',
    ],
    ['rest:9.3/rule-9a', I, 'Rule 9a: STABLE metrics keep working at least 4 releases or 12 months (longer); ALPHA 0 releases'],
    ['rest:9.3/rule-9b', I, 'Rule 9b: after deprecation STABLE metrics last at least 3 releases or 9 months (longer); ALPHA 0 releases'],
    [
      'rest:9.3/feature-gate-lifecycle',
      N,
      'Alpha gates default off, Beta on, GA deprecated and non-operational then removed (refused); disabling a non-operational gate fails',
    ],
    [
      'rest:9.3/deprecated-metrics',
      N,
      'A deprecated metric\'s description starts "(Deprecated from x.y)" and a warning is logged; hidden at current-3 unless shown; deleted a release later',
    ],
    [
      'rest:9.3/example-timeline',
      I,
      'Example timeline of a group from v1alpha1 (release X) through v1beta1/v1beta2 to v1, removals by X+8',
    ],
    [
      'rest:9.3/deprecated-endpoint',
      N,
      'A request to a deprecated endpoint: Warning header, audit annotation (6.3), gauge apiserver_requested_deprecated_apis=1 with labels',
    ],
  ]),

  // 9.4 Removed API versions and migration (one id per kind listed in a row)
  ...sec('9.4', [
    [
      'rest:9.4/storage-v1beta1-csistoragecapacity',
      N,
      'storage.svc.io/v1beta1 CSIStorageCapacity stops being served in v1.27; use storage.svc.io/v1 (since v1.24), no notable changes',
    ],
    [
      'rest:9.4/flowcontrol-apiserver-v1beta1-flowschema',
      N,
      'flowcontrol.apiserver.svc.io/v1beta1 FlowSchema stops being served in v1.26; use v1beta2 (since v1.23), no notable changes',
    ],
    [
      'rest:9.4/flowcontrol-apiserver-v1beta1-prioritylevelconfiguration',
      N,
      'flowcontrol.apiserver.svc.io/v1beta1 PriorityLevelConfiguration stops in v1.26; use v1beta2 (since v1.23), no notable changes',
    ],
    [
      'rest:9.4/autoscaling-v2beta2-horizontalpodautoscaler',
      N,
      'autoscaling/v2beta2 HorizontalPodAutoscaler stops being served in v1.26; use autoscaling/v2 (since v1.23), no notable changes',
    ],
    [
      'rest:9.4/batch-v1beta1-cronjob',
      N,
      'batch/v1beta1 CronJob stops being served in v1.25; use batch/v1 (since v1.21), no notable changes',
    ],
    [
      'rest:9.4/discovery-v1beta1-endpointslice',
      N,
      'discovery.svc.io/v1beta1 EndpointSlice stops in v1.25; v1 (since v1.21) has per-endpoint nodeName/zone, topology read-only deprecatedTopology',
    ],
    [
      'rest:9.4/events-v1beta1-event',
      N,
      'events.svc.io/v1beta1 Event stops being served in v1.25; use events.svc.io/v1 (since v1.19), changes as in 6.2',
    ],
    [
      'rest:9.4/autoscaling-v2beta1-horizontalpodautoscaler',
      N,
      'autoscaling/v2beta1 HorizontalPodAutoscaler stops being served in v1.25; use autoscaling/v2 (since v1.23), no notable changes',
    ],
    [
      'rest:9.4/policy-v1beta1-poddisruptionbudget',
      N,
      'policy/v1beta1 PodDisruptionBudget stops in v1.25; in policy/v1 (since v1.21) selector {} selects all pods, unset selects none',
    ],
    [
      'rest:9.4/policy-v1beta1-podsecuritypolicy',
      N,
      'policy/v1beta1 PodSecurityPolicy and its admission controller are removed in v1.25, with no direct replacement',
    ],
    [
      'rest:9.4/node-v1beta1-runtimeclass',
      N,
      'node.svc.io/v1beta1 RuntimeClass stops being served in v1.25; use node.svc.io/v1 (since v1.20), no notable changes',
    ],
    [
      'rest:9.4/admissionregistration-v1beta1-mutatingwebhookconfiguration',
      N,
      'admissionregistration v1beta1 MutatingWebhookConfiguration stops in v1.22; v1 (v1.16) changes defaults, requires sideEffects, admissionReviewVersions',
    ],
    [
      'rest:9.4/admissionregistration-v1beta1-validatingwebhookconfiguration',
      N,
      'admissionregistration v1beta1 ValidatingWebhookConfiguration stops in v1.22; v1 (v1.16) changes defaults, requires sideEffects, admissionReviewVersions',
    ],
    [
      'rest:9.4/apiextensions-v1beta1-customresourcedefinition',
      N,
      'apiextensions v1beta1 CRD stops in v1.22; v1 (v1.16) needs scope, per-version fields, structural openAPIV3Schema, jsonPath',
    ],
    [
      'rest:9.4/apiregistration-v1beta1-apiservice',
      N,
      'apiregistration.svc.io/v1beta1 APIService stops being served in v1.22; use v1 (since v1.10), no notable changes',
    ],
    [
      'rest:9.4/authentication-v1beta1-tokenreview',
      N,
      'authentication.svc.io/v1beta1 TokenReview stops being served in v1.22; use v1 (since v1.6), no notable changes',
    ],
    [
      'rest:9.4/authorization-v1beta1-subjectaccessreview',
      N,
      'authorization.svc.io/v1beta1 SubjectAccessReview stops in v1.22; use v1 (since v1.6), where spec.group is renamed spec.groups',
    ],
    [
      'rest:9.4/authorization-v1beta1-selfsubjectaccessreview',
      N,
      'authorization.svc.io/v1beta1 SelfSubjectAccessReview stops in v1.22; use v1 (since v1.6), where spec.group is renamed spec.groups',
    ],
    [
      'rest:9.4/authorization-v1beta1-localsubjectaccessreview',
      N,
      'authorization.svc.io/v1beta1 LocalSubjectAccessReview stops in v1.22; use v1 (since v1.6), where spec.group is renamed spec.groups',
    ],
    [
      'rest:9.4/certificates-v1beta1-certificatesigningrequest',
      N,
      'certificates v1beta1 CSR stops in v1.22; v1 (v1.19) requires signerName and usages, unique conditions, PEM CERTIFICATE-only status',
    ],
    [
      'rest:9.4/coordination-v1beta1-lease',
      N,
      'coordination.svc.io/v1beta1 Lease stops being served in v1.22; use v1 (since v1.14), no notable changes',
    ],
    [
      'rest:9.4/extensions-v1beta1-ingress',
      N,
      'extensions/v1beta1 Ingress stops in v1.22; networking.svc.io/v1 (v1.19) has defaultBackend, service.name/port, required pathType',
    ],
    [
      'rest:9.4/networking-v1beta1-ingress',
      N,
      'networking.svc.io/v1beta1 Ingress stops in v1.22; v1 (v1.19) has defaultBackend, service.name/port, required pathType',
    ],
    [
      'rest:9.4/networking-v1beta1-ingressclass',
      N,
      'networking.svc.io/v1beta1 IngressClass stops being served in v1.22; use v1 (since v1.19), no notable changes',
    ],
    [
      'rest:9.4/rbac-authorization-v1beta1-role',
      N,
      'rbac.authorization.svc.io/v1beta1 Role stops being served in v1.22; use v1 (since v1.8), no notable changes',
    ],
    [
      'rest:9.4/rbac-authorization-v1beta1-rolebinding',
      N,
      'rbac.authorization.svc.io/v1beta1 RoleBinding stops being served in v1.22; use v1 (since v1.8), no notable changes',
    ],
    [
      'rest:9.4/rbac-authorization-v1beta1-clusterrole',
      N,
      'rbac.authorization.svc.io/v1beta1 ClusterRole stops being served in v1.22; use v1 (since v1.8), no notable changes',
    ],
    [
      'rest:9.4/rbac-authorization-v1beta1-clusterrolebinding',
      N,
      'rbac.authorization.svc.io/v1beta1 ClusterRoleBinding stops being served in v1.22; use v1 (since v1.8), no notable changes',
    ],
    [
      'rest:9.4/scheduling-v1beta1-priorityclass',
      N,
      'scheduling.svc.io/v1beta1 PriorityClass stops being served in v1.22; use v1 (since v1.14), no notable changes',
    ],
    [
      'rest:9.4/storage-v1beta1-csidriver',
      N,
      'storage.svc.io/v1beta1 CSIDriver stops being served in v1.22; use storage.svc.io/v1 (since v1.19), no notable changes',
    ],
    [
      'rest:9.4/storage-v1beta1-csinode',
      N,
      'storage.svc.io/v1beta1 CSINode stops being served in v1.22; use storage.svc.io/v1 (since v1.17), no notable changes',
    ],
    [
      'rest:9.4/storage-v1beta1-storageclass',
      N,
      'storage.svc.io/v1beta1 StorageClass stops being served in v1.22; use storage.svc.io/v1 (since v1.6), no notable changes',
    ],
    [
      'rest:9.4/storage-v1beta1-volumeattachment',
      N,
      'storage.svc.io/v1beta1 VolumeAttachment stops being served in v1.22; use storage.svc.io/v1 (since v1.13), no notable changes',
    ],
    [
      'rest:9.4/extensions-v1beta1-networkpolicy',
      N,
      'extensions/v1beta1 NetworkPolicy stops being served in v1.16; use networking.svc.io/v1 (since v1.8), no notable changes',
    ],
    [
      'rest:9.4/extensions-v1beta1-daemonset',
      N,
      'extensions/v1beta1 DaemonSet stops in v1.16; apps/v1 (v1.9): no templateGeneration, selector required+immutable, RollingUpdate default',
    ],
    [
      'rest:9.4/apps-v1beta2-daemonset',
      N,
      'apps/v1beta2 DaemonSet stops in v1.16; apps/v1 (v1.9): no templateGeneration, selector required+immutable, RollingUpdate default',
    ],
    [
      'rest:9.4/extensions-v1beta1-deployment',
      N,
      'extensions/v1beta1 Deployment stops in v1.16; apps/v1 (v1.9): no rollbackTo, selector required+immutable, new defaults',
    ],
    [
      'rest:9.4/apps-v1beta1-deployment',
      N,
      'apps/v1beta1 Deployment stops in v1.16; apps/v1 (v1.9): no rollbackTo, selector required+immutable, new defaults',
    ],
    [
      'rest:9.4/apps-v1beta2-deployment',
      N,
      'apps/v1beta2 Deployment stops in v1.16; apps/v1 (v1.9): no rollbackTo, selector required+immutable, new defaults',
    ],
    [
      'rest:9.4/apps-v1beta1-statefulset',
      N,
      'apps/v1beta1 StatefulSet stops in v1.16; apps/v1 (v1.9): selector required+immutable, updateStrategy RollingUpdate default',
    ],
    [
      'rest:9.4/apps-v1beta2-statefulset',
      N,
      'apps/v1beta2 StatefulSet stops in v1.16; apps/v1 (v1.9): selector required+immutable, updateStrategy RollingUpdate default',
    ],
    [
      'rest:9.4/extensions-v1beta1-replicaset',
      N,
      'extensions/v1beta1 ReplicaSet stops being served in v1.16; apps/v1 (since v1.9): selector required and immutable',
    ],
    [
      'rest:9.4/apps-v1beta1-replicaset',
      N,
      'apps/v1beta1 ReplicaSet stops being served in v1.16; apps/v1 (since v1.9): selector required and immutable',
    ],
    [
      'rest:9.4/apps-v1beta2-replicaset',
      N,
      'apps/v1beta2 ReplicaSet stops being served in v1.16; apps/v1 (since v1.9): selector required and immutable',
    ],
    [
      'rest:9.4/extensions-v1beta1-podsecuritypolicy',
      N,
      'extensions/v1beta1 PodSecurityPolicy stops being served in v1.16; policy/v1beta1 (since v1.10), itself removed in v1.25',
    ],
    [
      'rest:9.4/persisted-objects',
      N,
      'Objects persisted under a removed version stay reachable through the replacement version unless the row says otherwise',
    ],
    [
      'rest:9.4/guidance',
      I,
      'Migration guidance: test with --runtime-config=<g>/<v>=false, find use via warnings, metrics and audit, convert manifests',
    ],
    [
      'rest:9.4/client-libraries',
      I,
      'Official client libraries exist for dotnet, Go, Haskell, Java, JavaScript and Python; community ones for many more',
    ],
  ]),
];
