/**
 * Record, then judge (docs/rejudge.md): every verdict a case hands to its judge (CaseContext.judge) is
 * journalled, and where it came from a judge of the registry (reference/judges.ts) the journal holds
 * the judge's name and its inputs instead of its verdicts, so a saved run can be judged again with the
 * current model. Verdicts a check computed otherwise are journalled as they were: carried over.
 *
 *   judgeCreate({ key: 'ns/a', reused: false, status: 201, body: '' })   (the recording version)
 *   cx.judge(that)  ->  entry { s: [{ j: 'judgeCreate', a: [{ key: 'ns/a', ... }], o: [['rest:4.1/post', 'p']] }] }
 */
import type { Judgement } from '../../reference/judgement.ts';
import { judges, type JudgeName, type JudgeRegistry, type Judges } from '../../reference/judges.ts';
import { FieldSet } from '../../reference/apply/set.ts';

/** A verdict in one letter, as the journal keeps what a re-derivable judge said at run time. */
export type VerdictLetter = 'p' | 'f' | 'u' | 'i';
const LETTER: Record<Judgement['verdict'], VerdictLetter> = { pass: 'p', fail: 'f', unspecified: 'u', inconclusive: 'i' };

/** Part of one judge call of a case: a registry judge with its encoded inputs, or verdicts carried as they were. */
export type Segment =
  | { readonly j: string; readonly a: unknown; readonly o: readonly (readonly [string, VerdictLetter])[] }
  | { readonly c: readonly Judgement[] };

/** One `CaseContext.judge` call. */
export interface JournalEntry {
  readonly s: readonly Segment[];
}

/** A failure a check reported, and the journal entry whose judgement it is (the shrunk case's). */
export interface FailureLink {
  readonly clause: string;
  readonly expected: string;
  readonly observed: string;
  readonly entry: number;
}

interface Made {
  readonly judge: string;
  readonly args: unknown;
  readonly blobs: Blobs;
  readonly out: readonly Judgement[];
}
/** The registry call each judgement object came from, while it is alive. */
const madeBy = new WeakMap<Judgement, Made>();

/** A record that does not hold what its entries refer to. */
export class RecordDamaged extends Error {}

/** Why a value cannot be recorded (a callback, a class instance with state): the call is then carried over. */
class NotRecordable extends Error {}

/** Encoded values kept once per check by id (a history's snapshots recur in every read of a case). */
export type Blobs = Map<string, unknown>;

/**
 * Model values the oracles compare by identity (an object version unchanged between two snapshots is
 * the same object) and that never change once made: each is stored once under an id of its own, and
 * decoded once per judge call, so identity survives the record. The ids are per process.
 */
const interned = new WeakMap<object, { readonly id: string; readonly value: unknown; readonly inner: Blobs }>();
let nextId = 0;

/** A history snapshot or an object version (reference/history.ts, reference/objects.ts). */
function isInterned(v: object): boolean {
  const o = v as { index?: unknown; atMs?: unknown; objects?: unknown; key?: unknown; uid?: unknown; content?: unknown };
  return (
    (typeof o.index === 'number' && typeof o.atMs === 'number' && o.objects instanceof Map) ||
    (typeof o.key === 'string' && typeof o.uid === 'string' && o.content !== undefined)
  );
}

/**
 * JSON with Map, Set and undefined kept: `{$map: [...]}`, `{$set: [...]}`, `{$u: 1}`; the two value
 * classes the judges take, bytes `{$bytes: base64}` (a protobuf answer) and field sets `{$fs: paths}`
 * (apply's ownership, immutable); interned values into `blobs`.
 */
export function encode(v: unknown, blobs: Blobs = new Map()): unknown {
  if (v === undefined) return { $u: 1 };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new NotRecordable(`number ${v}`);
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => encode(x, blobs));
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [encode(k, blobs), encode(x, blobs)]) };
  if (v instanceof Set) return { $set: [...v].map((x) => encode(x, blobs)) };
  if (v instanceof FieldSet) return { $fs: v.paths() };
  if (v instanceof Uint8Array && Object.getPrototypeOf(v) === Uint8Array.prototype)
    return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  // Generated records may have no prototype at all (fast-check's dictionaries): plain data too.
  const proto: unknown = typeof v === 'object' ? Object.getPrototypeOf(v) : undefined;
  if (typeof v === 'object' && (proto === Object.prototype || proto === null)) {
    if (isInterned(v)) {
      let e = interned.get(v);
      if (e === undefined) {
        // The values it holds (a snapshot's object versions) go with it into every table it is put in.
        const inner: Blobs = new Map();
        e = { id: (nextId++).toString(36), value: encodePlain(v, inner), inner };
        interned.set(v, e);
      }
      for (const [id, x] of e.inner) blobs.set(id, x);
      blobs.set(e.id, e.value);
      return { $blob: e.id };
    }
    return encodePlain(v, blobs);
  }
  throw new NotRecordable(typeof v);
}

const ENCODED_TAGS = ['$map', '$set', '$u', '$obj', '$blob', '$fs', '$bytes'];

function encodePlain(v: object, blobs: Blobs): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = encode(x, blobs);
  // A plain object that looks like an encoded value is wrapped, so decoding tells them apart.
  return ENCODED_TAGS.some((t) => t in out) ? { $obj: out } : out;
}

export function decode(v: unknown, blobs: Readonly<Record<string, unknown>> = {}, made = new Map<string, unknown>()): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => decode(x, blobs, made));
  const o = v as Record<string, unknown>;
  if ('$u' in o) return undefined;
  if ('$map' in o) return new Map((o['$map'] as [unknown, unknown][]).map(([k, x]) => [decode(k, blobs, made), decode(x, blobs, made)]));
  if ('$set' in o) return new Set((o['$set'] as unknown[]).map((x) => decode(x, blobs, made)));
  if ('$fs' in o) return FieldSet.of(o['$fs'] as string[][]);
  if ('$bytes' in o) return new Uint8Array(Buffer.from(o['$bytes'] as string, 'base64'));
  if ('$blob' in o) {
    const id = o['$blob'] as string;
    if (made.has(id)) return made.get(id);
    const b = blobs[id];
    if (b === undefined) throw new RecordDamaged(`the record refers to a value it does not hold (${id})`);
    const value = decode(b, blobs, made);
    made.set(id, value);
    return value;
  }
  const plain = '$obj' in o ? (o['$obj'] as Record<string, unknown>) : o;
  const out: Record<string, unknown> = {};
  // A key that held undefined keeps it: `'k' in o` reads the same after the round trip.
  for (const [k, x] of Object.entries(plain)) out[k] = decode(x, blobs, made);
  return out;
}

/**
 * The recording version of a registry judge: the same verdicts, each marked with the call it came from.
 * The inputs are encoded at once (the harness mutates some of its sets later); inputs that cannot be
 * encoded leave the verdicts unmarked, so they are carried over.
 */
export function recorded<K extends JudgeName>(name: K): Judges[K] {
  const fn = judges[name] as (...args: unknown[]) => Judgement | readonly Judgement[];
  const wrapped = (...args: unknown[]) => {
    const result = fn(...args);
    const out = outputOf(result);
    if (out === undefined) return result;
    let a: unknown;
    const blobs: Blobs = new Map();
    try {
      a = encode(args, blobs);
    } catch (e) {
      if (e instanceof NotRecordable) return result;
      throw e;
    }
    const made: Made = { judge: name, args: a, blobs, out };
    for (const j of out) madeBy.set(j, made);
    return result;
  };
  return wrapped as unknown as Judges[K];
}

/**
 * The journal entry of one judge call: runs of judgements that are a registry call's whole output, in
 * its order, become that call; anything else (a judgement a check built or changed) is carried.
 */
export function journalEntry(js: readonly Judgement[], blobs: Blobs): JournalEntry {
  const s: Segment[] = [];
  let carried: Judgement[] = [];
  for (let i = 0; i < js.length; ) {
    const made = madeBy.get(js[i]!);
    if (made !== undefined && made.out.every((j, k) => js[i + k] === j)) {
      if (carried.length > 0) s.push({ c: carried });
      carried = [];
      s.push({ j: made.judge, a: made.args, o: made.out.map((j) => [j.clause, LETTER[j.verdict]] as const) });
      for (const [d, v] of made.blobs) blobs.set(d, v);
      i += made.out.length;
      continue;
    }
    carried.push(js[i]!);
    i++;
  }
  if (carried.length > 0) s.push({ c: carried });
  return { s };
}

/** Judges an entry again with `registry`: the verdicts, and whether every segment was re-derived. */
export function rejudgeEntry(
  e: JournalEntry,
  registry: JudgeRegistry,
  blobs: Readonly<Record<string, unknown>>,
): { readonly judgements: Judgement[]; readonly carried: boolean; readonly differs: boolean } {
  const judgements: Judgement[] = [];
  let carried = false;
  let differs = false;
  for (const seg of e.s) {
    if ('c' in seg) {
      judgements.push(...seg.c);
      carried = true;
      continue;
    }
    const fn = registry[seg.j];
    if (fn === undefined) throw new Error(`the record names a judge this version does not have: ${seg.j}`);
    const out = outputOf(fn(...(decode(seg.a, blobs) as unknown[]))) ?? [];
    // The same model on the same inputs gives the same verdicts: a difference is a model change (or a
    // record that lost something, which the self-tests look for with the model unchanged).
    if (out.length !== seg.o.length || out.some((j, i) => j.clause !== seg.o[i]![0] || LETTER[j.verdict] !== seg.o[i]![1])) differs = true;
    judgements.push(...out);
  }
  return { judgements, carried, differs };
}

/** The judgements a judge returned: one, several, or a list judgement's (`{ judgements, matchedIndex }`); undefined: none (a judge that did not apply). */
function outputOf(result: unknown): readonly Judgement[] | undefined {
  if (result === undefined) return undefined;
  if (Array.isArray(result)) return result as readonly Judgement[];
  const r = result as { judgements?: unknown; verdict?: unknown };
  if (Array.isArray(r.judgements)) return r.judgements as readonly Judgement[];
  return typeof r.verdict === 'string' ? [result as Judgement] : undefined;
}

/** The verdicts the entry held at run time, by clause (what the run's own judges said). */
export function recordedVerdicts(
  e: JournalEntry,
): { readonly clause: string; readonly verdict: VerdictLetter; readonly carried: boolean }[] {
  const out: { clause: string; verdict: VerdictLetter; carried: boolean }[] = [];
  for (const seg of e.s) {
    if ('c' in seg) for (const j of seg.c) out.push({ clause: j.clause, verdict: LETTER[j.verdict], carried: true });
    else for (const [clause, verdict] of seg.o) out.push({ clause, verdict, carried: false });
  }
  return out;
}
