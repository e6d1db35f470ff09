/**
 * The removal table of rest:9.4 as data, in both naming profiles. Group names are written as a stem
 * plus whether the group carries the product suffix (`storage` -> `storage.svc.io` / `storage.k8s.io`);
 * `batch`, `policy`, `apps`, `autoscaling` and `extensions` carry none.
 *
 *   servedIn(svc, 'batch', 'v1beta1', 'cronjobs', v1.24) -> 'deprecated'
 *   servedIn(svc, 'batch', 'v1beta1', 'cronjobs', v1.25) -> 'removed'
 */
import { namedGroup, type Profile } from '../profile.ts';
import { compareReleases, type Release } from './release.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { tableClauseId } from '../catalog/clause-id.ts';

export interface GroupRef {
  readonly stem: string;
  /** True when the group name carries the product suffix (`.svc.io` / `.k8s.io`). */
  readonly suffixed: boolean;
}

export interface Removal {
  /** `rest:9.4/<group-stem>-<version>-<kind>`. */
  readonly clause: ClauseId;
  readonly group: GroupRef;
  readonly version: string;
  readonly kind: string;
  /** Resource type (plural) as in URLs. */
  readonly resource: string;
  /** First release that no longer serves it. */
  readonly removedIn: Release;
  /** Undefined when the spec names no direct replacement. */
  readonly replacement?: { readonly group: GroupRef; readonly version: string; readonly since: Release };
  /** The "Notable changes" column in the spec's words; '' for "none". */
  readonly notableChanges: string;
}

const g = (stem: string): GroupRef => ({ stem, suffixed: true });
const plain = (stem: string): GroupRef => ({ stem, suffixed: false });
const rel = (minor: number): Release => ({ major: 1, minor });

type Row = readonly [
  removedIn: number,
  group: GroupRef,
  version: string,
  kinds: readonly (readonly [kind: string, resource: string, since?: number])[],
  to: readonly [GroupRef, string, number] | undefined,
  notes: string,
];

const ADMISSION_NOTES =
  '`failurePolicy` default Ignore to Fail; `matchPolicy` default Exact to Equivalent; `timeoutSeconds` default 30 to 10; `sideEffects` required, only `None` and `NoneOnDryRun`; `admissionReviewVersions` required (`v1`, `v1beta1`); `name` unique in list';
const CRD_NOTES =
  '`spec.scope` required; `spec.version`, `spec.validation`, `spec.subresources`, `spec.additionalPrinterColumns` replaced by per-version fields under `spec.versions[*]`; conversion webhook fields moved under `spec.conversion.webhook`; `openAPIV3Schema` required and structural; `preserveUnknownFields: true` disallowed on create; printer column `JSONPath` renamed `jsonPath`';
const CSR_NOTES =
  '`spec.signerName` required, the legacy-unknown signer not creatable; `spec.usages` required, no duplicates, known values only; condition types unique; `status.conditions[*].status` required; `status.certificate` PEM with only CERTIFICATE blocks';
const INGRESS_NOTES =
  '`spec.backend` to `spec.defaultBackend`; `serviceName` to `service.name`; numeric `servicePort` to `service.port.number`; string to `service.port.name`; `pathType` required (`Prefix`, `Exact`, `ImplementationSpecific`)';
const DAEMONSET_NOTES =
  '`spec.templateGeneration` removed; `spec.selector` required and immutable; `updateStrategy.type` default RollingUpdate (was OnDelete)';
const DEPLOYMENT_NOTES =
  '`spec.rollbackTo` removed; selector required and immutable; `progressDeadlineSeconds` default 600; `revisionHistoryLimit` default 10; `maxSurge` and `maxUnavailable` default 25%';
const STATEFULSET_NOTES = 'selector required and immutable; `updateStrategy.type` default RollingUpdate (was OnDelete)';
const REPLICASET_NOTES = 'selector required and immutable';

// Rows in the spec's order; a row naming two group versions is two rows here.
const rows: readonly Row[] = [
  [27, g('storage'), 'v1beta1', [['CSIStorageCapacity', 'csistoragecapacities']], [g('storage'), 'v1', 24], ''],
  [
    26,
    g('flowcontrol.apiserver'),
    'v1beta1',
    [
      ['FlowSchema', 'flowschemas'],
      ['PriorityLevelConfiguration', 'prioritylevelconfigurations'],
    ],
    [g('flowcontrol.apiserver'), 'v1beta2', 23],
    '',
  ],
  [26, plain('autoscaling'), 'v2beta2', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']], [plain('autoscaling'), 'v2', 23], ''],
  [25, plain('batch'), 'v1beta1', [['CronJob', 'cronjobs']], [plain('batch'), 'v1', 21], ''],
  [
    25,
    g('discovery'),
    'v1beta1',
    [['EndpointSlice', 'endpointslices']],
    [g('discovery'), 'v1', 21],
    'per-endpoint `nodeName` and `zone` replace topology map keys; `topology` becomes read-only `deprecatedTopology`',
  ],
  [
    25,
    g('events'),
    'v1beta1',
    [['Event', 'events']],
    [g('events'), 'v1', 19],
    'see 6.2: `regarding` replaces `involvedObject`, `eventTime` replaces `firstTimestamp`, `series.lastObservedTime` replaces `lastTimestamp`, `series.count` replaces `count`; `action`, `reason`, `reportingController`, `reportingInstance` required on create; `type` only `Normal` or `Warning`; the renamed `deprecated*` legacy fields are not permitted on new events',
  ],
  [25, plain('autoscaling'), 'v2beta1', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']], [plain('autoscaling'), 'v2', 23], ''],
  [
    25,
    plain('policy'),
    'v1beta1',
    [['PodDisruptionBudget', 'poddisruptionbudgets']],
    [plain('policy'), 'v1', 21],
    'empty `spec.selector` `{}` selects all pods in the namespace (formerly none); unset selects none in both',
  ],
  [
    25,
    plain('policy'),
    'v1beta1',
    [['PodSecurityPolicy', 'podsecuritypolicies']],
    undefined,
    'its admission controller is removed; use third-party admission webhooks; replacements under discussion',
  ],
  [25, g('node'), 'v1beta1', [['RuntimeClass', 'runtimeclasses']], [g('node'), 'v1', 20], ''],
  [
    22,
    g('admissionregistration'),
    'v1beta1',
    [
      ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
      ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
    ],
    [g('admissionregistration'), 'v1', 16],
    ADMISSION_NOTES,
  ],
  [
    22,
    g('apiextensions'),
    'v1beta1',
    [['CustomResourceDefinition', 'customresourcedefinitions']],
    [g('apiextensions'), 'v1', 16],
    CRD_NOTES,
  ],
  [22, g('apiregistration'), 'v1beta1', [['APIService', 'apiservices']], [g('apiregistration'), 'v1', 10], ''],
  [22, g('authentication'), 'v1beta1', [['TokenReview', 'tokenreviews']], [g('authentication'), 'v1', 6], ''],
  [
    22,
    g('authorization'),
    'v1beta1',
    [
      ['SubjectAccessReview', 'subjectaccessreviews'],
      ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'],
      ['LocalSubjectAccessReview', 'localsubjectaccessreviews'],
    ],
    [g('authorization'), 'v1', 6],
    '`spec.group` renamed `spec.groups`',
  ],
  [
    22,
    g('certificates'),
    'v1beta1',
    [['CertificateSigningRequest', 'certificatesigningrequests']],
    [g('certificates'), 'v1', 19],
    CSR_NOTES,
  ],
  [22, g('coordination'), 'v1beta1', [['Lease', 'leases']], [g('coordination'), 'v1', 14], ''],
  [22, plain('extensions'), 'v1beta1', [['Ingress', 'ingresses']], [g('networking'), 'v1', 19], INGRESS_NOTES],
  [22, g('networking'), 'v1beta1', [['Ingress', 'ingresses']], [g('networking'), 'v1', 19], INGRESS_NOTES],
  [22, g('networking'), 'v1beta1', [['IngressClass', 'ingressclasses']], [g('networking'), 'v1', 19], ''],
  [
    22,
    g('rbac.authorization'),
    'v1beta1',
    [
      ['Role', 'roles'],
      ['RoleBinding', 'rolebindings'],
      ['ClusterRole', 'clusterroles'],
      ['ClusterRoleBinding', 'clusterrolebindings'],
    ],
    [g('rbac.authorization'), 'v1', 8],
    '',
  ],
  [22, g('scheduling'), 'v1beta1', [['PriorityClass', 'priorityclasses']], [g('scheduling'), 'v1', 14], ''],
  [
    22,
    g('storage'),
    'v1beta1',
    [
      ['CSIDriver', 'csidrivers', 19],
      ['CSINode', 'csinodes', 17],
      ['StorageClass', 'storageclasses', 6],
      ['VolumeAttachment', 'volumeattachments', 13],
    ],
    [g('storage'), 'v1', 6],
    '',
  ],
  [16, plain('extensions'), 'v1beta1', [['NetworkPolicy', 'networkpolicies']], [g('networking'), 'v1', 8], ''],
  [16, plain('extensions'), 'v1beta1', [['DaemonSet', 'daemonsets']], [plain('apps'), 'v1', 9], DAEMONSET_NOTES],
  [16, plain('apps'), 'v1beta2', [['DaemonSet', 'daemonsets']], [plain('apps'), 'v1', 9], DAEMONSET_NOTES],
  [16, plain('extensions'), 'v1beta1', [['Deployment', 'deployments']], [plain('apps'), 'v1', 9], DEPLOYMENT_NOTES],
  [16, plain('apps'), 'v1beta1', [['Deployment', 'deployments']], [plain('apps'), 'v1', 9], DEPLOYMENT_NOTES],
  [16, plain('apps'), 'v1beta2', [['Deployment', 'deployments']], [plain('apps'), 'v1', 9], DEPLOYMENT_NOTES],
  [16, plain('apps'), 'v1beta1', [['StatefulSet', 'statefulsets']], [plain('apps'), 'v1', 9], STATEFULSET_NOTES],
  [16, plain('apps'), 'v1beta2', [['StatefulSet', 'statefulsets']], [plain('apps'), 'v1', 9], STATEFULSET_NOTES],
  [16, plain('extensions'), 'v1beta1', [['ReplicaSet', 'replicasets']], [plain('apps'), 'v1', 9], REPLICASET_NOTES],
  [16, plain('apps'), 'v1beta1', [['ReplicaSet', 'replicasets']], [plain('apps'), 'v1', 9], REPLICASET_NOTES],
  [16, plain('apps'), 'v1beta2', [['ReplicaSet', 'replicasets']], [plain('apps'), 'v1', 9], REPLICASET_NOTES],
  [
    16,
    plain('extensions'),
    'v1beta1',
    [['PodSecurityPolicy', 'podsecuritypolicies']],
    [plain('policy'), 'v1beta1', 10],
    'that version itself is removed in v1.25',
  ],
];

export const removals: readonly Removal[] = rows.flatMap(([removedIn, group, version, kinds, to, notes]) =>
  kinds.map(([kind, resource, since]) => ({
    clause: tableClauseId(`rest:9.4/${group.stem.replace(/\./g, '-')}-${version}-${kind.toLowerCase()}`),
    group,
    version,
    kind,
    resource,
    removedIn: rel(removedIn),
    replacement: to ? { group: to[0], version: to[1], since: rel(since ?? to[2]) } : undefined,
    notableChanges: notes,
  })),
);

export const groupName = (profile: Profile, ref: GroupRef): string => (ref.suffixed ? namedGroup(profile, ref.stem) : ref.stem);

export const groupVersionOf = (profile: Profile, ref: GroupRef, version: string): string => `${groupName(profile, ref)}/${version}`;

/** The rows for one group version and resource under a profile (several rows for Ingress). */
export function removalsFor(profile: Profile, group: string, version: string, resource?: string): Removal[] {
  return removals.filter(
    (r) => groupName(profile, r.group) === group && r.version === version && (resource === undefined || r.resource === resource),
  );
}

/**
 * What the table says about serving `group/version` `resource` in `release`:
 * - `removed`: the release is at or after the one that stops serving it (must not be served);
 * - `deprecated`: still served and its replacement exists (rule 3: a deprecation names a replacement),
 *   so requests carry the deprecation signals of rest:9.3 and rest:7.4;
 * - `listed`: in the table, not removed yet, but no replacement exists in that release (or none at all):
 *   the table alone does not say whether it is deprecated there;
 * - `unlisted`: the table says nothing (a version it does not list).
 */
export type Serving = 'removed' | 'deprecated' | 'listed' | 'unlisted';

export function servedIn(profile: Profile, group: string, version: string, resource: string, release: Release): Serving {
  const rs = removalsFor(profile, group, version, resource);
  if (rs.length === 0) return 'unlisted';
  const r = rs[0]!;
  if (compareReleases(release, r.removedIn) >= 0) return 'removed';
  return r.replacement && compareReleases(release, r.replacement.since) >= 0 ? 'deprecated' : 'listed';
}

/** `removed_release` label value of rest:9.3's gauge: `1.25`. */
export const removedReleaseLabel = (r: Removal): string => `${r.removedIn.major}.${r.removedIn.minor}`;
