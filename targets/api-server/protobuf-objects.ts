/**
 * The reference server's protobuf encoding of the objects inside the rest:2.7 envelope (`raw`). The
 * spec does not show these schemas (rest:4.1); the field numbers follow the upstream messages so that
 * real clients (kubectl sends and reads protobuf for built-in kinds) understand them. Only the fields
 * this server stores are mapped; anything else is dropped on the way in and never sent.
 */
import protobuf from 'protobufjs';
import { isRecord } from '../../reference/objects.ts';

// Parsed on first use: a CLI start that serves nothing (`--version`) should not pay for it.
let parsed: protobuf.Root | undefined;
const root = (): protobuf.Root =>
  (parsed ??= protobuf.parse(
    `
syntax = "proto2";
package k8s;
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12; repeated string finalizers = 14;
}
message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }
message StatusDetails { optional string name = 1; optional string group = 2; optional string kind = 3; optional string uid = 6; optional int32 retryAfterSeconds = 5; }
message Status { optional ListMeta metadata = 1; optional string status = 2; optional string message = 3; optional string reason = 4; optional StatusDetails details = 5; optional int32 code = 6; }
message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4; }
message ConfigMapList { optional ListMeta metadata = 1; repeated ConfigMap items = 2; }
message NamespaceSpec { repeated string finalizers = 1; }
message NamespaceStatus { optional string phase = 1; }
message Namespace { optional ObjectMeta metadata = 1; optional NamespaceSpec spec = 2; optional NamespaceStatus status = 3; }
message NamespaceList { optional ListMeta metadata = 1; repeated Namespace items = 2; }
message LeaseSpec { optional string holderIdentity = 1; optional int32 leaseDurationSeconds = 2; optional Time acquireTime = 3; optional Time renewTime = 4; optional int32 leaseTransitions = 5; }
message Lease { optional ObjectMeta metadata = 1; optional LeaseSpec spec = 2; }
message LeaseList { optional ListMeta metadata = 1; repeated Lease items = 2; }
message ObjectReference { optional string kind = 1; optional string namespace = 2; optional string name = 3; optional string uid = 4; optional string apiVersion = 5; optional string resourceVersion = 6; optional string fieldPath = 7; }
message EventSource { optional string component = 1; optional string host = 2; }
message EventSeries { optional int32 count = 1; optional Time lastObservedTime = 2; }
message Event {
  optional ObjectMeta metadata = 1; optional ObjectReference involvedObject = 2; optional string reason = 3; optional string message = 4;
  optional EventSource source = 5; optional Time firstTimestamp = 6; optional Time lastTimestamp = 7; optional int32 count = 8; optional string type = 9;
  optional Time eventTime = 10; optional EventSeries series = 11; optional string action = 12; optional ObjectReference related = 13;
  optional string reportingComponent = 14; optional string reportingInstance = 15;
}
message EventList { optional ListMeta metadata = 1; repeated Event items = 2; }
message ResourceAttributes { optional string namespace = 1; optional string verb = 2; optional string group = 3; optional string version = 4; optional string resource = 5; optional string subresource = 6; optional string name = 7; }
message NonResourceAttributes { optional string path = 1; optional string verb = 2; }
message SubjectAccessReviewStatus { optional bool allowed = 1; optional string reason = 2; optional string evaluationError = 3; optional bool denied = 4; }
message SelfSubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; }
message SelfSubjectAccessReview { optional ObjectMeta metadata = 1; optional SelfSubjectAccessReviewSpec spec = 2; optional SubjectAccessReviewStatus status = 3; }
message SubjectAccessReviewSpec { optional ResourceAttributes resourceAttributes = 1; optional NonResourceAttributes nonResourceAttributes = 2; optional string user = 3; repeated string groups = 4; optional string uid = 6; }
message SubjectAccessReview { optional ObjectMeta metadata = 1; optional SubjectAccessReviewSpec spec = 2; optional SubjectAccessReviewStatus status = 3; }
message LocalSubjectAccessReview { optional ObjectMeta metadata = 1; optional SubjectAccessReviewSpec spec = 2; optional SubjectAccessReviewStatus status = 3; }
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelector { map<string, string> matchLabels = 1; repeated LabelSelectorRequirement matchExpressions = 2; }
message ContainerPort { optional string name = 1; optional int32 hostPort = 2; optional int32 containerPort = 3; optional string protocol = 4; optional string hostIP = 5; }
message EnvVar { optional string name = 1; optional string value = 2; }
message Container {
  optional string name = 1; optional string image = 2; repeated string command = 3; repeated string args = 4; optional string workingDir = 5;
  repeated ContainerPort ports = 6; repeated EnvVar env = 7; optional string terminationMessagePath = 13; optional string imagePullPolicy = 14;
  optional string terminationMessagePolicy = 20;
}
message PodSpec {
  repeated Container containers = 2; optional string restartPolicy = 3; optional int64 terminationGracePeriodSeconds = 4; optional string dnsPolicy = 6;
  map<string, string> nodeSelector = 7; optional string serviceAccountName = 8; optional string nodeName = 10; optional string schedulerName = 19;
  repeated Container initContainers = 20;
}
message PodTemplateSpec { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; }
message DeploymentStrategy { optional string type = 1; }
message DeploymentSpec {
  optional int32 replicas = 1; optional LabelSelector selector = 2; optional PodTemplateSpec template = 3; optional DeploymentStrategy strategy = 4;
  optional int32 minReadySeconds = 5; optional int32 revisionHistoryLimit = 6; optional bool paused = 7; optional int32 progressDeadlineSeconds = 9;
}
message DeploymentStatus { optional int64 observedGeneration = 1; optional int32 replicas = 2; optional int32 updatedReplicas = 3; optional int32 availableReplicas = 4; optional int32 unavailableReplicas = 5; optional int32 readyReplicas = 7; }
message Deployment { optional ObjectMeta metadata = 1; optional DeploymentSpec spec = 2; optional DeploymentStatus status = 3; }
message DeploymentList { optional ListMeta metadata = 1; repeated Deployment items = 2; }
`,
    { keepCase: true },
  ).root);

/**
 * Besides the kinds the suites exercise, what real clients send in protobuf: the controller manager
 * records core Events, `kubectl auth can-i` posts a SelfSubjectAccessReview, `kubectl create
 * deployment` a Deployment (only the fields kubectl sets are mapped; the rest of a Deployment is dropped).
 */
const KINDS = new Set([
  'Status',
  'ConfigMap',
  'ConfigMapList',
  'Namespace',
  'NamespaceList',
  'Lease',
  'LeaseList',
  'Event',
  'EventList',
  'SelfSubjectAccessReview',
  'SubjectAccessReview',
  'LocalSubjectAccessReview',
  'Deployment',
  'DeploymentList',
]);

export const hasProtobufSchema = (kind: string): boolean => KINDS.has(kind);

/** The group (its stem before the profile's suffix; '' for core) each kind's message belongs to: an events/v1 Event is another message. */
const GROUP_STEM: Readonly<Record<string, string>> = {
  Lease: 'coordination',
  Deployment: 'apps',
  SelfSubjectAccessReview: 'authorization',
  SubjectAccessReview: 'authorization',
  LocalSubjectAccessReview: 'authorization',
};

/** True when a request body of this built-in type can be read from protobuf. */
export function hasProtobufMessage(rt: { readonly group: string; readonly kind: string }): boolean {
  return KINDS.has(rt.kind) && rt.group.split('.')[0] === (GROUP_STEM[rt.kind] ?? '');
}

const TIME_FIELDS = new Set([
  'creationTimestamp',
  'deletionTimestamp',
  'acquireTime',
  'renewTime',
  'firstTimestamp',
  'lastTimestamp',
  'eventTime',
  'lastObservedTime',
]);
/** Time fields Go leaves zero on purpose (an empty message on the wire): null in JSON, as Go writes them. */
const ZERO_IS_NULL = new Set(['firstTimestamp', 'lastTimestamp', 'eventTime', 'lastObservedTime']);
const MICRO_TIME = new Set(['acquireTime', 'renewTime', 'eventTime', 'lastObservedTime']);

function toTime(v: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  if (Number.isNaN(ms)) return undefined;
  const frac = /\.(\d+)/.exec(v)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac.padEnd(9, '0').slice(0, 9)) };
}

function fromTime(v: unknown, micro: boolean): string | undefined {
  if (!isRecord(v)) return undefined;
  const s = Number(v['seconds'] ?? 0);
  const n = Number(v['nanos'] ?? 0);
  const base = new Date(s * 1000).toISOString().replace('.000Z', '');
  return micro ? `${base}.${String(Math.floor(n / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** JSON shape -> message shape: timestamps become Time messages, unknown fields are left to protobufjs. */
function toMessage(v: unknown, key = ''): unknown {
  if (TIME_FIELDS.has(key)) return toTime(v);
  if (Array.isArray(v)) return v.map((x) => toMessage(x));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined && x !== null) out[k] = toMessage(x, k);
  return out;
}

/** Map fields: their entries are user data, kept as they are (an empty value is a value). */
const MAP_FIELDS = new Set(['labels', 'annotations', 'data', 'binaryData', 'matchLabels', 'nodeSelector']);

/**
 * Pointer-typed strings (`*string` in Go): an empty value is present, not omitted, in JSON and on the
 * wire (proto2 `optional` keeps presence), so a round trip must keep it. Found by protobuf-envelope
 * with a Lease whose holderIdentity was "".
 */
const POINTER_STRINGS = new Set(['holderIdentity']);

/** Message shape -> JSON shape. Go writes empty strings explicitly; JSON omits them (omitempty). */
function fromMessage(v: unknown, key = ''): unknown {
  if (ZERO_IS_NULL.has(key) && isRecord(v) && !Number(v['seconds'] ?? 0) && !Number(v['nanos'] ?? 0)) return null;
  if (TIME_FIELDS.has(key)) return fromTime(v, MICRO_TIME.has(key));
  if (Array.isArray(v)) return v.map((x) => fromMessage(x));
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (MAP_FIELDS.has(k) && isRecord(x)) out[k] = { ...x };
    else if (x !== '' || POINTER_STRINGS.has(k)) out[k] = fromMessage(x, k);
  }
  return out;
}

/** The object (without kind/apiVersion: those travel in the envelope's typeMeta) as protobuf bytes. */
export function encodeObject(kind: string, obj: Record<string, unknown>): Uint8Array {
  const type = root().lookupType(`k8s.${kind}`);
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return type.encode(type.fromObject(toMessage(rest) as Record<string, unknown>)).finish();
}

/** Protobuf bytes of a kind -> the JSON shape the store keeps. Throws on undecodable bytes. */
export function decodeObject(kind: string, bytes: Uint8Array): Record<string, unknown> {
  const type = root().lookupType(`k8s.${kind}`);
  const o = type.toObject(type.decode(bytes), { longs: Number, bytes: String });
  return fromMessage(o) as Record<string, unknown>;
}
