/**
 * Empty maps and lists ("hollow" values): whether a server sends `data: {}` or leaves `data` out is a
 * representation choice the spec does not make (rest:4.1: schemas of resource types are not shown; a
 * Go server drops them with `omitempty`), and a field that is not there has no owner. So where the
 * model holds a hollow member and the target has none, or the other way round, the model takes the
 * target's form, the member's ownership included, and judges everything else as before:
 *
 *   model  { data: {} }, mgr-a owns .data      target { }, no entry for mgr-a
 *   -> mismatch .data; the model continues from { } with no entry for mgr-a (both forms pass)
 *
 * `null` where the other side is hollow is the same choice made a third way: Go marshals a nil map or
 * slice as null, and upstream 1.24 stores a free-form map that an apply emptied as `"m": null`
 * (structured-merge-diff keeps no empty map when it removes the last item; seen on fresh seed 19245).
 *
 * A hollow value against a value that holds something is an ordinary difference and still fails, and
 * so is `null` against one.
 */
import { isRecord } from '../objects.ts';
import { fieldElement, type Path } from './path.ts';
import { FieldSet } from './set.ts';
import { deepClone, defineKey, own } from './values.ts';
import type { ManagedEntry } from './managed.ts';
import { sameManager } from './managed.ts';

/** `[]`, `{}`, or a map whose every member is hollow. */
export function isHollow(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return isRecord(v) && Object.keys(v).every((k) => isHollow(v[k]));
}

const isHollowOrNull = (v: unknown): boolean => v === null || isHollow(v);

/**
 * The outermost map members (as `f:` paths from the root) present and hollow on one side and absent on
 * the other. Lists are not entered: their items are identified by the schema, not by position.
 */
export function hollowMismatch(a: unknown, b: unknown): FieldSet {
  const out: Path[] = [];
  const walk = (x: unknown, y: unknown, path: Path): void => {
    if (!isRecord(x) || !isRecord(y)) return;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      const p = [...path, fieldElement(k)];
      const xv = own(x, k);
      const yv = own(y, k);
      if (xv === undefined && yv !== undefined && isHollowOrNull(yv)) out.push(p);
      else if (yv === undefined && xv !== undefined && isHollowOrNull(xv)) out.push(p);
      else if ((xv === null && isHollow(yv)) || (yv === null && isHollow(xv))) out.push(p);
      else walk(xv, yv, p);
    }
  };
  walk(a, b, []);
  return FieldSet.of(out);
}

/** True when `p` is one of `set`'s paths or lies below one. */
export function atOrBelow(set: FieldSet, p: Path): boolean {
  for (let i = 1; i <= p.length; i++) if (set.has(p.slice(0, i))) return true;
  return false;
}

/** `v` with the member at `p` (a path of `f:` elements) set to `value`, or removed when undefined. */
function withMember(v: unknown, p: Path, value: unknown): unknown {
  if (p.length === 0) return value;
  const base = isRecord(v) ? v : {};
  const name = p[0]!.slice(2);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) if (k !== name) defineKey(out, k, base[k]);
  const child = withMember(own(base, name), p.slice(1), value);
  if (child !== undefined) defineKey(out, name, child);
  return out;
}

function memberAt(v: unknown, p: Path): unknown {
  let cur = v;
  for (const e of p) cur = isRecord(cur) ? own(cur, e.slice(2)) : undefined;
  return cur;
}

/**
 * The model's tracked content and ownership with the target's form taken wherever the two differ only
 * by a hollow member (see the header). `observedManaged` is the target's record, decoded.
 */
export function adoptHollowForm(
  expected: { readonly tracked: Record<string, unknown>; readonly managed: readonly ManagedEntry[] },
  observed: { readonly tracked: Record<string, unknown>; readonly managed: readonly ManagedEntry[] },
): { tracked: Record<string, unknown>; managed: ManagedEntry[]; mismatch: FieldSet } {
  const mismatch = hollowMismatch(expected.tracked, observed.tracked);
  if (mismatch.isEmpty()) return { tracked: expected.tracked, managed: [...expected.managed], mismatch };
  let tracked: unknown = expected.tracked;
  for (const p of mismatch.paths()) {
    const theirs = memberAt(observed.tracked, p);
    tracked = withMember(tracked, p, theirs === undefined ? undefined : deepClone(theirs));
  }
  const inside = (e: Pick<ManagedEntry, 'fields'>) => e.fields.filter((p) => atOrBelow(mismatch, p));
  const outside = (e: Pick<ManagedEntry, 'fields'>) => e.fields.filter((p) => !atOrBelow(mismatch, p));
  const managed: ManagedEntry[] = expected.managed.map((e) => {
    const theirs = observed.managed.find((o) => sameManager(o, e));
    return { ...e, fields: outside(e).union(theirs ? inside(theirs) : FieldSet.empty) };
  });
  // An entry only the target has, for fields only inside the mismatch: the target's, as it recorded it.
  for (const o of observed.managed) {
    if (!managed.some((e) => sameManager(e, o)) && !inside(o).isEmpty()) managed.push({ ...o, fields: inside(o) });
  }
  return { tracked: tracked as Record<string, unknown>, managed: managed.filter((e) => !e.fields.isEmpty()), mismatch };
}

/** `v` without its hollow map members, at every depth (what a server that omits empty values stores). */
export function withoutHollow(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) if (!isHollow(v[k])) defineKey(out, k, withoutHollow(v[k]));
  return out;
}

/**
 * `adopted` with the model's hollow value back wherever the target's null was adopted for it: null is
 * accepted as the target's form of an emptied map or list, but a sequence carries on from the empty
 * value, which is what the target's next merge treats it as (a null taken as a scalar value would make
 * the model predict conflicts on the map's members that upstream does not raise).
 */
export function hollowForNull(adopted: unknown, model: unknown): unknown {
  if (adopted === null && isHollow(model)) return deepClone(model);
  if (!isRecord(adopted) || !isRecord(model)) return adopted;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(adopted)) defineKey(out, k, hollowForNull(adopted[k], own(model, k)));
  return out;
}
