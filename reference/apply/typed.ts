/**
 * Operations on JSON values under a schema, the algebra apply is built from (upstream `typed`):
 * the field set a value states, the comparison of two values as added/removed/modified paths,
 * the merge of an intent into a live value (applied values win), and removal of paths.
 */
import { isRecord } from '../objects.ts';
import { fieldElement, keyElement, valueElement, type Path, type PathElement } from './path.ts';
import { fieldSchema, resolve, untyped, type Schema } from './schema.ts';
import { FieldSet } from './set.ts';
import { defineKey, isScalar, jsonEqual, own } from './values.ts';

/** A value the schema cannot place: a map-list item without its keys, a set item that is not a scalar, a duplicate. */
export class InvalidObject extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'InvalidObject';
  }
}

type ListSchema = Schema & { type: 'list' };
type MapSchema = Schema & { type: 'map' };

export function itemElement(s: ListSchema, item: unknown, where: Path): PathElement {
  if (s.listType === 'set') {
    if (!isScalar(item)) throw new InvalidObject(where.join(''), 'an item of a set list must be a scalar');
    return valueElement(item);
  }
  if (!isRecord(item)) throw new InvalidObject(where.join(''), 'an item of a map list must be an object');
  const key: Record<string, unknown> = {};
  for (const k of s.keys) {
    const v = own(item, k);
    if (v === undefined || v === null || !isScalar(v))
      throw new InvalidObject(where.join(''), `an item of a map list needs the scalar key field ${JSON.stringify(k)}`);
    defineKey(key, k, v);
  }
  return keyElement(key);
}

/** Items of an associative list by path element; duplicates are refused when `strict`. */
function itemsOf(s: ListSchema, list: readonly unknown[], where: Path, strict: boolean): Map<PathElement, unknown> {
  const out = new Map<PathElement, unknown>();
  for (const item of list) {
    const e = itemElement(s, item, where);
    if (out.has(e) && strict) throw new InvalidObject(where.join(''), `duplicate item ${e}`);
    if (!out.has(e)) out.set(e, item);
  }
  return out;
}

/** The fields a value states (upstream ToFieldSet): leaves, associative items, map entries, empty structs. */
export function toFieldSet(v: unknown, s: Schema, strict = true): FieldSet {
  const out: Path[] = [];
  const walk = (val: unknown, sch: Schema, path: Path): void => {
    const r = resolve(sch, val);
    if (r.shape === 'leaf') {
      out.push(path);
      return;
    }
    if (r.shape === 'list') {
      const ls = r.schema as ListSchema;
      for (const [e, item] of itemsOf(ls, val as unknown[], path, strict)) {
        const p = [...path, e];
        walk(item, ls.items, p);
        out.push(p);
      }
      return;
    }
    const ms = r.schema as MapSchema;
    const m = val as Record<string, unknown>;
    for (const k of Object.keys(m)) {
      const child = m[k];
      const f = fieldSchema(ms, k);
      const p = [...path, fieldElement(k)];
      walk(child, f.schema, p);
      if (child === null || (isRecord(child) && Object.keys(child).length === 0) || !f.declared) out.push(p);
    }
  };
  walk(v, s, []);
  return FieldSet.of(out.filter((p) => p.length > 0));
}

export interface Comparison {
  readonly added: FieldSet;
  readonly removed: FieldSet;
  readonly modified: FieldSet;
}

/** Paths only in `rhs` (added), only in `lhs` (removed), leaves that differ (modified). */
export function compare(lhs: unknown, rhs: unknown, s: Schema): Comparison {
  const added: Path[] = [];
  const removed: Path[] = [];
  const modified: Path[] = [];
  const walk = (l: unknown, r: unknown, sch: Schema, path: Path): void => {
    if (l === undefined && r === undefined) return;
    const rl = resolve(sch, l);
    const rr = resolve(sch, r);
    const shape = l === undefined ? rr.shape : r === undefined ? rl.shape : rl.shape === rr.shape ? rl.shape : 'leaf';
    if (shape === 'leaf') {
      if (l === undefined) added.push(path);
      else if (r === undefined) removed.push(path);
      else if (!jsonEqual(l, r)) modified.push(path);
      return;
    }
    if (shape === 'map') {
      const ms = (l === undefined ? rr : rl).schema as MapSchema;
      const lm = isRecord(l) ? l : {};
      const rm = isRecord(r) ? r : {};
      for (const k of new Set([...Object.keys(lm), ...Object.keys(rm)]))
        walk(own(lm, k), own(rm, k), fieldSchema(ms, k).schema, [...path, fieldElement(k)]);
    } else {
      const ls = (l === undefined ? rr : rl).schema as ListSchema;
      const li = Array.isArray(l) ? itemsOf(ls, l, path, false) : new Map<string, unknown>();
      const ri = Array.isArray(r) ? itemsOf(ls, r, path, false) : new Map<string, unknown>();
      for (const e of new Set([...li.keys(), ...ri.keys()])) walk(li.get(e), ri.get(e), ls.items, [...path, e]);
    }
    if (path.length > 0 && l === undefined) added.push(path);
    else if (path.length > 0 && r === undefined) removed.push(path);
  };
  walk(lhs, rhs, s, []);
  return { added: FieldSet.of(added), removed: FieldSet.of(removed), modified: FieldSet.of(modified) };
}

/** The intent merged into the live value: the applied value wins; associative items merge by identity. */
export function merge(live: unknown, intent: unknown, s: Schema): unknown {
  if (intent === undefined) return live;
  if (live === undefined) return intent;
  const rl = resolve(s, live);
  const rr = resolve(s, intent);
  if (rl.shape !== rr.shape || rr.shape === 'leaf') return intent;
  if (rr.shape === 'map') {
    const ms = rr.schema as MapSchema;
    const out: Record<string, unknown> = {};
    const l = live as Record<string, unknown>;
    const r = intent as Record<string, unknown>;
    for (const k of Object.keys(l)) defineKey(out, k, l[k]);
    for (const k of Object.keys(r)) defineKey(out, k, merge(own(l, k), r[k], fieldSchema(ms, k).schema));
    return out;
  }
  const ls = rr.schema as ListSchema;
  const li = itemsOf(ls, live as unknown[], [], false);
  const ri = itemsOf(ls, intent as unknown[], [], false);
  // Order of associative lists is not fixed by the spec: live items first, new ones after.
  const out: unknown[] = [];
  for (const [e, item] of li) out.push(ri.has(e) ? merge(item, ri.get(e), ls.items) : item);
  for (const [e, item] of ri) if (!li.has(e)) out.push(item);
  return out;
}

/** The value without the members of `set` (a removed member takes its whole subtree). */
export function removeItems(v: unknown, set: FieldSet, s: Schema, path: Path = []): unknown {
  const r = resolve(s, v);
  if (r.shape === 'map') {
    const ms = r.schema as MapSchema;
    const m = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(m)) {
      const p = [...path, fieldElement(k)];
      if (set.has(p)) continue;
      defineKey(out, k, set.hasUnder(p) ? removeItems(m[k], set, fieldSchema(ms, k).schema, p) : m[k]);
    }
    return out;
  }
  if (r.shape === 'list') {
    const ls = r.schema as ListSchema;
    const out: unknown[] = [];
    for (const item of v as unknown[]) {
      const p = [...path, itemElement(ls, item, path)];
      if (set.has(p)) continue;
      out.push(set.hasUnder(p) ? removeItems(item, set, ls.items, p) : item);
    }
    return out;
  }
  return v;
}

/** Schema of the node a path element leads to, and whether it is a declared (named) struct field. */
function step(s: Schema, e: PathElement): { schema: Schema; named: boolean } {
  if (e.startsWith('f:')) {
    if (s.type === 'map') {
      const f = fieldSchema(s, e.slice(2));
      return { schema: f.schema, named: f.declared };
    }
    return { schema: untyped, named: false };
  }
  if (s.type === 'list') return { schema: s.items, named: false };
  return { schema: untyped, named: false };
}

/** Adds every declared struct field on the way to a member (upstream EnsureNamedFieldsAreMembers). */
export function ensureNamedFieldsAreMembers(set: FieldSet, s: Schema): FieldSet {
  const extra: Path[] = [];
  for (const p of set.paths()) {
    let sch = s;
    for (let i = 0; i < p.length; i++) {
      const st = step(sch, p[i]!);
      if (st.named) extra.push(p.slice(0, i + 1));
      sch = st.schema;
    }
  }
  return set.union(FieldSet.of(extra));
}

/**
 * rest:4.7.10: a set recorded under an older schema, read under the current one. Members below a node
 * that is atomic now become the node itself (their owners own the whole); members of a node that was
 * atomic and is granular now stay as they are (no ownership of its parts is inferred).
 */
export function reconcileWithSchema(set: FieldSet, s: Schema): FieldSet {
  const out: Path[] = [];
  for (const p of set.paths()) {
    let sch = s;
    let cut = p.length;
    for (let i = 0; i < p.length; i++) {
      const e = p[i]!;
      const atomicHere =
        (sch.type === 'list' && sch.listType === 'atomic') ||
        (sch.type === 'map' && sch.mapType === 'atomic') ||
        (sch.type === 'untyped' && !e.startsWith('f:')) ||
        sch.type === 'scalar';
      if (atomicHere) {
        cut = i;
        break;
      }
      sch = step(sch, e).schema;
    }
    out.push(p.slice(0, cut));
  }
  return FieldSet.of(out.filter((p) => p.length > 0));
}

/**
 * Equality the spec allows: the order of items in set and map lists is not fixed (rest:4.7.7 says
 * nothing of order), so they compare as sets; atomic lists compare in order.
 */
export function sameValue(a: unknown, b: unknown, s: Schema): boolean {
  const c = compare(a, b, s);
  return c.added.isEmpty() && c.removed.isEmpty() && c.modified.isEmpty();
}
