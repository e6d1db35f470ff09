/**
 * The differ of `compare`: two recorded exchange sequences of the same generated case, one per server,
 * aligned and compared answer by answer. Pure: no I/O, no clock.
 *
 * The second server's generated values (uids, resourceVersions, timestamps, continue tokens, names
 * from generateName) are mapped onto the first's by the position where both first show them, in the
 * order the exchanges went: never by value, since a resourceVersion is opaque (docs/architecture.md
 * "Oracle rules"). A value met again must map to the same partner, else the difference is reported
 * (`generated-value`: the two servers disagree on which answers share a version).
 *   A: create -> rv "7",  list -> rv "7"      B: create -> rv "41", list -> rv "44"
 *   learns 41->7 at the create; at the list 44 has no partner and 7 is taken: a `generated-value` diff.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query?: readonly (readonly [string, string | null])[];
  readonly body?: unknown;
}

export interface RecordedAnswer {
  readonly status: number;
  /** Parsed JSON body; for a watch the events (BOOKMARKs left out: timer-driven and optional, rest:6.1). */
  readonly json?: unknown;
  readonly bodyText?: string;
  /** Watch only: who ended the stream. A difference is a timing class, never a value. */
  readonly ending?: 'server' | 'client';
}

export interface Recorded {
  readonly request: RecordedRequest;
  readonly answer?: RecordedAnswer;
  readonly transportError?: string;
}

export type DiffKind =
  | 'status-code'
  | 'order'
  | 'omitted-empty'
  | 'field-presence'
  | 'message'
  | 'value'
  | 'generated-value'
  | 'timing'
  | 'sequence'
  | 'request'
  | 'transport'
  | 'open-choice';

export interface Difference {
  readonly path: string;
  readonly kind: DiffKind;
  readonly target?: unknown;
  readonly reference?: unknown;
}

/** B's generated values mapped onto A's, learned in exchange order. */
export class ValueMap {
  private readonly bToA = new Map<string, string>();
  private readonly aTaken = new Set<string>();

  /** True when b is (or now becomes) the partner of a. */
  pair(a: string, b: string): boolean {
    const known = this.bToA.get(b);
    if (known !== undefined) return known === a;
    if (this.aTaken.has(a)) return false;
    this.bToA.set(b, a);
    this.aTaken.add(a);
    return true;
  }

  map(b: string): string {
    return this.bToA.get(b) ?? b;
  }

  /** Whole-token replacement of known B values in free text (unspecified notes quote versions). */
  mapText(text: string): string {
    return text.replace(/[A-Za-z0-9._:-]+/g, (tok) => this.bToA.get(tok) ?? tok);
  }
}

/**
 * Keys whose string values the server generates. Identities (`name` only under generateName) must
 * map one to one; times are stamped by each server's clock, so they map to whatever stands opposite
 * (two writes in one second on one server may fall in two on the other).
 */
const IDENTITIES = new Set(['resourceVersion', 'uid', 'continue']);
const TIMES = new Set(['creationTimestamp', 'deletionTimestamp', 'time', 'lastTransitionTime', 'renewTime', 'acquireTime']);
const GENERATED = new Set([...IDENTITIES, ...TIMES]);
const GENERATED_QUERY = new Set(['resourceVersion', 'continue']);

const isEmpty = (v: unknown): boolean =>
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** A value with generated leaves blanked and messages dropped: what "the same element" means for order. */
function canonical(v: unknown, key?: string): string {
  if (key !== undefined && GENERATED.has(key) && typeof v === 'string') return '"<generated>"';
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x)).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => k !== 'message' && !(k === 'name' && isGeneratedName(o)))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k], k)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

const isGeneratedName = (o: Record<string, unknown>): boolean => typeof o['generateName'] === 'string';

export class Walker {
  readonly diffs: Difference[] = [];
  constructor(readonly map: ValueMap) {}

  walk(a: unknown, b: unknown, path: string, key?: string, generatedName = false): void {
    const b0 = b;
    if (typeof a === 'string' && typeof b === 'string' && key !== undefined && TIMES.has(key)) return;
    if (
      typeof a === 'string' &&
      typeof b === 'string' &&
      ((key !== undefined && IDENTITIES.has(key)) || (key === 'name' && generatedName))
    ) {
      if (!this.map.pair(a, b)) this.diffs.push({ path, kind: 'generated-value', target: a, reference: b });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) return this.walkArrays(a, b, path);
    if (isObject(a) && isObject(b0)) {
      // Keys can name generated values too (a managedFields key `k:{"uid":"..."}`): B's are mapped first.
      const b = keysMapped(b0, this.map);
      const gen = isGeneratedName(a) && isGeneratedName(b);
      for (const k of unionKeys(a, b)) {
        const p = `${path}.${k}`;
        if (!(k in b)) this.diffs.push({ path: p, kind: isEmpty(a[k]) ? 'omitted-empty' : 'field-presence', target: a[k] });
        else if (!(k in a)) this.diffs.push({ path: p, kind: isEmpty(b[k]) ? 'omitted-empty' : 'field-presence', reference: b[k] });
        else this.walk(a[k], b[k], p, k, gen);
      }
      return;
    }
    if (a === b) return;
    // Free text naming a generated value (`leases "x3d9a" not found`) is alike once that value is mapped.
    if (typeof a === 'string' && typeof b === 'string' && this.map.mapText(b) === a) return;
    this.diffs.push({ path, kind: key === 'message' ? 'message' : 'value', target: a, reference: b });
  }

  private walkArrays(a: readonly unknown[], b: readonly unknown[], path: string): void {
    const ca = a.map((x) => canonical(x));
    const cb = b.map((x) => canonical(x));
    if (ca.length === cb.length && ca.some((c, i) => c !== cb[i]) && [...ca].sort().join('\n') === [...cb].sort().join('\n')) {
      // The same elements in another order: pair them by content to learn their generated values.
      this.diffs.push({ path, kind: 'order', target: ca.length, reference: cb.length });
      const used = new Set<number>();
      ca.forEach((c, i) => {
        const j = cb.findIndex((d, k) => !used.has(k) && d === c);
        used.add(j);
        new Walker(this.map).walk(a[i], b[j], `${path}[${i}]`);
      });
      return;
    }
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) this.walk(a[i], b[i], `${path}[${i}]`);
    for (let i = n; i < a.length; i++) this.diffs.push({ path: `${path}[${i}]`, kind: 'field-presence', target: a[i] });
    for (let i = n; i < b.length; i++) this.diffs.push({ path: `${path}[${i}]`, kind: 'field-presence', reference: b[i] });
  }
}

function keysMapped(o: Record<string, unknown>, map: ValueMap): Record<string, unknown> {
  const keys = Object.keys(o);
  if (keys.every((k) => map.mapText(k) === k)) return o;
  return Object.fromEntries(keys.map((k) => [map.mapText(k), o[k]]));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const unionKeys = (a: Record<string, unknown>, b: Record<string, unknown>): string[] => [
  ...new Set([...Object.keys(a), ...Object.keys(b)]),
];

/** The request's shape without generated values (versions, tokens, names the server made up): what aligns the two sequences. */
export function shapeOf(r: RecordedRequest, generatedNames: ReadonlySet<string> = new Set()): string {
  const q = (r.query ?? []).map(([k, v]) => (GENERATED_QUERY.has(k) ? `${k}=*` : `${k}=${v ?? ''}`)).join('&');
  return `${r.method} ${r.path
    .split('/')
    .map((s) => (generatedNames.has(s) ? '*' : s))
    .join('/')}?${q}`;
}

/** Names a server made up from a generateName in this sequence. */
export function generatedNamesOf(rs: readonly Recorded[]): Set<string> {
  const out = new Set<string>();
  for (const r of rs) {
    const body = parsedBody(r.request.body) as { metadata?: { generateName?: unknown } } | undefined;
    const name = (r.answer?.json as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
    if (typeof body?.metadata?.generateName === 'string' && typeof name === 'string') out.add(name);
  }
  return out;
}

/**
 * Pairs the two sequences by their requests' shapes (longest common subsequence), so an extra page
 * or a skipped retry on one side shifts nothing after it. Returns index pairs; -1 where one side had
 * no such request.
 */
export function align(a: readonly Recorded[], b: readonly Recorded[]): [number, number][] {
  const na = generatedNamesOf(a);
  const nb = generatedNamesOf(b);
  const sa = a.map((r) => shapeOf(r.request, na));
  const sb = b.map((r) => shapeOf(r.request, nb));
  const n = sa.length;
  const m = sb.length;
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) L[i]![j] = sa[i] === sb[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && sa[i] === sb[j]) out.push([i++, j++]);
    else if (j >= m || (i < n && L[i + 1]![j]! >= L[i]![j + 1]!)) out.push([i++, -1]);
    else out.push([-1, j++]);
  }
  return out;
}

/** Differences between the two requests of an aligned pair (after mapping): the suite derived them from what each side answered. */
export function compareRequests(a: RecordedRequest, b: RecordedRequest, map: ValueMap): Difference[] {
  const w = new Walker(map);
  const segA = a.path.split('/');
  const segB = b.path.split('/');
  segA.forEach((s, i) => {
    const t = segB[i];
    if (t !== undefined && s !== t && map.map(t) !== s)
      w.diffs.push({ path: `request.path[${i}]`, kind: 'request', target: s, reference: t });
  });
  const qa = a.query ?? [];
  const qb = b.query ?? [];
  qa.forEach(([k, v], i) => {
    const other = qb[i];
    if (other === undefined || other[0] !== k) return;
    if (GENERATED_QUERY.has(k) && typeof v === 'string' && typeof other[1] === 'string') {
      if (!map.pair(v, other[1])) w.diffs.push({ path: `request.query.${k}`, kind: 'request', target: v, reference: other[1] });
    } else if (v !== other[1]) w.diffs.push({ path: `request.query.${k}`, kind: 'request', target: v, reference: other[1] });
  });
  const before = w.diffs.length;
  w.walk(parsedBody(a.body), parsedBody(b.body), 'request.body');
  // Differences inside the request bodies are the suite's own doing from learned state: one kind.
  for (let i = before; i < w.diffs.length; i++) w.diffs[i] = { ...w.diffs[i]!, kind: 'request' };
  return w.diffs;
}

function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Differences between the two answers of an aligned pair; learns generated values as it goes. */
export function compareAnswers(a: Recorded, b: Recorded, map: ValueMap): Difference[] {
  if (a.transportError !== undefined || b.transportError !== undefined) {
    if (a.transportError !== undefined && b.transportError !== undefined) return [];
    return [{ path: 'transport', kind: 'transport', target: a.transportError ?? 'answered', reference: b.transportError ?? 'answered' }];
  }
  const x = a.answer;
  const y = b.answer;
  if (x === undefined || y === undefined) return [];
  if (x.status !== y.status) return [{ path: 'status', kind: 'status-code', target: x.status, reference: y.status }];
  const w = new Walker(map);
  if (x.json !== undefined || y.json !== undefined) w.walk(x.json, y.json, 'body');
  else if ((x.bodyText ?? '') !== (y.bodyText ?? '') && !binaryish(x.bodyText) && !binaryish(y.bodyText))
    w.diffs.push({ path: 'body', kind: 'value', target: x.bodyText, reference: y.bodyText });
  if (x.ending !== y.ending)
    w.diffs.push({ path: 'watch.ending', kind: 'timing', target: endingText(x.ending), reference: endingText(y.ending) });
  return w.diffs;
}

const endingText = (e: RecordedAnswer['ending']): string =>
  e === 'server' ? 'the server ended the stream' : e === 'client' ? 'open until the suite closed it' : 'not a stream';

// A protobuf body carries versions in its bytes: not compared as text.
const binaryish = (t: string | undefined): boolean => t !== undefined && /[\u0000-\u0008\ufffd]/.test(t);

/** Rewrites one profile's identifiers into another's in every string and key (svc against k8s). */
export function translator(
  pairs: readonly (readonly [from: string, to: string])[],
  whole: readonly (readonly [from: string, to: string])[] = [],
): (v: unknown) => unknown {
  const sorted = [...pairs].filter(([f, t]) => f !== t && f !== '').sort((p, q) => q[0].length - p[0].length);
  // Short names (a cluster name used as a finalizer) are rewritten only where they are the whole value.
  const exact = new Map(whole.filter(([f, t]) => f !== t));
  if (sorted.length === 0 && exact.size === 0) return (v) => v;
  const text = (s: string): string => {
    const w = exact.get(s);
    if (w !== undefined) return w;
    let out = s;
    for (const [f, t] of sorted) out = out.split(f).join(t);
    return out;
  };
  const go = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(go);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), go(x)]));
    return v;
  };
  return go;
}
