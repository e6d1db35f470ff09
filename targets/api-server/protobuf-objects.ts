/**
 * The reference server's protobuf encoding of the objects inside the rest:2.7 envelope (`raw`). The
 * spec does not show these schemas (rest:4.1); the field numbers follow the upstream messages so that
 * real clients (kubectl sends and reads protobuf for built-in kinds) understand them. Only the fields
 * this server stores are mapped; anything else is dropped on the way in and never sent.
 */
import protobuf from 'protobufjs';
import { isRecord } from '../../reference/objects.ts';

const root = protobuf.parse(`
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
`, { keepCase: true }).root;

const KINDS = new Set(['Status', 'ConfigMap', 'ConfigMapList', 'Namespace', 'NamespaceList', 'Lease', 'LeaseList']);

export const hasProtobufSchema = (kind: string): boolean => KINDS.has(kind);

const TIME_FIELDS = new Set(['creationTimestamp', 'deletionTimestamp', 'acquireTime', 'renewTime']);

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
const MAP_FIELDS = new Set(['labels', 'annotations', 'data', 'binaryData']);

/**
 * Pointer-typed strings (`*string` in Go): an empty value is present, not omitted, in JSON and on the
 * wire (proto2 `optional` keeps presence), so a round trip must keep it. Found by protobuf-envelope
 * with a Lease whose holderIdentity was "".
 */
const POINTER_STRINGS = new Set(['holderIdentity']);

/** Message shape -> JSON shape. Go writes empty strings explicitly; JSON omits them (omitempty). */
function fromMessage(v: unknown, key = ''): unknown {
  if (TIME_FIELDS.has(key)) return fromTime(v, key === 'acquireTime' || key === 'renewTime');
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
  const type = root.lookupType(`k8s.${kind}`);
  const { kind: _k, apiVersion: _a, ...rest } = obj;
  return type.encode(type.fromObject(toMessage(rest) as Record<string, unknown>)).finish();
}

/** Protobuf bytes of a kind -> the JSON shape the store keeps. Throws on undecodable bytes. */
export function decodeObject(kind: string, bytes: Uint8Array): Record<string, unknown> {
  const type = root.lookupType(`k8s.${kind}`);
  const o = type.toObject(type.decode(bytes), { longs: Number, bytes: String });
  return fromMessage(o) as Record<string, unknown>;
}
