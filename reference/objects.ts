/**
 * Objects as the model sees them: identity (key), the generated values it learned (uid, rv,
 * creationTimestamp) and the user content the suite controls. Comparison is restricted to that
 * content, so fields a server adds (defaults, admission, unknown extras) never cause a mismatch.
 */
import type { ResourceType } from './resources.ts';

export type JsonObject = { readonly [k: string]: unknown };

/** What the suite controls in an object and therefore can predict. */
export interface Content {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  /** `data` of a ConfigMap, `spec` of a Lease; undefined for kinds without a body we set. */
  readonly body: unknown;
}

/** One version of one object, as learned from the target's answer to the write that produced it. */
export interface ObjectVersion {
  readonly key: string;
  readonly name: string;
  readonly namespace: string | undefined;
  readonly uid: string;
  readonly rv: string;
  readonly creationTimestamp: string | undefined;
  readonly content: Content;
}

/** An object read back from a response, with every field the checks need pulled out safely. */
export interface ObservedObject {
  readonly key: string;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly uid: unknown;
  readonly rv: unknown;
  readonly creationTimestamp: unknown;
  readonly kind: unknown;
  readonly apiVersion: unknown;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly deletionTimestamp: unknown;
}

export const keyOf = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/** Which top-level field carries the content the suite sets, per kind. */
export function bodyFieldOf(rt: ResourceType): 'data' | 'spec' | undefined {
  if (rt.kind === 'ConfigMap') return 'data';
  if (rt.kind === 'Lease') return 'spec';
  return undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!isRecord(v)) return out;
  for (const [k, val] of Object.entries(v)) if (typeof val === 'string') out[k] = val;
  return out;
}

export function readObject(rt: ResourceType, json: unknown): ObservedObject {
  const obj = isRecord(json) ? json : {};
  const md = isRecord(obj['metadata']) ? obj['metadata'] : {};
  const name = typeof md['name'] === 'string' ? md['name'] : undefined;
  const namespace = typeof md['namespace'] === 'string' && md['namespace'] !== '' ? md['namespace'] : undefined;
  const field = bodyFieldOf(rt);
  return {
    key: keyOf(namespace, name ?? ''),
    name,
    namespace,
    uid: md['uid'],
    rv: md['resourceVersion'],
    creationTimestamp: md['creationTimestamp'],
    deletionTimestamp: md['deletionTimestamp'],
    kind: obj['kind'],
    apiVersion: obj['apiVersion'],
    labels: stringMap(md['labels']),
    annotations: stringMap(md['annotations']),
    body: field === undefined ? undefined : obj[field],
  };
}

/**
 * Canonical JSON with sorted keys, so equal content compares equal whatever order the server wrote.
 * Absent and empty maps are the same content (`data: {}` may be dropped by a server).
 */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

const enumerable = (o: object, k: string): boolean => Object.prototype.propertyIsEnumerable.call(o, k);

/**
 * canonical(a) === canonical(b), without building either string: the server's no-op write test and the
 * apply model compare whole objects on every write.
 */
export function canonicalEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return isRecord(b) ? false : canonical(a) === canonical(b);
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!canonicalEqual(a[i], b[i])) return false;
    return true;
  }
  if (isRecord(a)) {
    if (!isRecord(b)) return Array.isArray(b) ? false : canonical(a) === canonical(b);
    let defined = 0;
    for (const k of Object.keys(a)) {
      if (a[k] === undefined) continue;
      defined++;
      if (!enumerable(b, k) || b[k] === undefined || !canonicalEqual(a[k], b[k])) return false;
    }
    for (const k of Object.keys(b)) if (b[k] !== undefined) defined--;
    return defined === 0;
  }
  if (a === b && typeof a !== 'number') return true;
  return canonical(a) === canonical(b);
}

const emptyToNull = (v: unknown): unknown => (isRecord(v) && Object.keys(v).length === 0 ? null : (v ?? null));

/**
 * Label and annotation keys the model compares: those the suite ever set on this key (`known`).
 * Keys a server adds itself (upstream adds `kubernetes.io/metadata.name` to namespaces) are ignored.
 */
export function contentMismatch(
  model: Content,
  observed: Pick<ObservedObject, 'labels' | 'annotations' | 'body'>,
  knownKeys: ReadonlySet<string>,
): string | undefined {
  for (const [mapName, want, got] of [
    ['labels', model.labels, observed.labels],
    ['annotations', model.annotations, observed.annotations],
  ] as const) {
    for (const k of knownKeys) {
      const w = Object.hasOwn(want, k) ? want[k] : undefined;
      const g = Object.hasOwn(got, k) ? got[k] : undefined;
      if (w !== g)
        return `${mapName}[${JSON.stringify(k)}]: expected ${w === undefined ? 'absent' : JSON.stringify(w)}, got ${g === undefined ? 'absent' : JSON.stringify(g)}`;
    }
  }
  if (canonical(emptyToNull(model.body)) !== canonical(emptyToNull(observed.body))) {
    return `body: expected ${canonical(model.body ?? null)}, got ${canonical(observed.body ?? null)}`;
  }
  return undefined;
}

/** Short form for messages: `ns/name@rv`. */
export const showVersion = (v: Pick<ObjectVersion, 'key' | 'rv'>): string => `${v.key}@${v.rv}`;
