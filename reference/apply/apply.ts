/**
 * Server-side apply and non-apply writes as pure functions (rest:3.2, rest:4.7.3-4.7.5, rest:4.7.10).
 *
 * apply:  merge the intent into the live object (applied values win); the applier now owns exactly
 *         the fields its intent states; fields it applied before and omits now are removed unless
 *         another manager owns them; a change to a field another manager owns is a conflict unless
 *         forced, and a forced field leaves every other owner.
 * update: the writer takes every field it changed or added, from everyone, without conflict;
 *         removed fields leave every owner.
 * Time is an argument. Results are plain data, conflicts included.
 */
import { isRecord } from '../objects.ts';
import { showPath, type Path } from './path.ts';
import { fieldSchema, type Schema } from './schema.ts';
import { FieldSet } from './set.ts';
import {
  compare,
  ensureNamedFieldsAreMembers,
  itemElement,
  merge,
  reconcileWithSchema,
  removeItems,
  toFieldSet,
  type Comparison,
} from './typed.ts';
import { IGNORED, sameManager, trackedPart, withTrackedPart, type ManagedEntry, type Operation } from './managed.ts';
import { jsonEqual, own } from './values.ts';

export interface Conflict {
  readonly manager: string;
  readonly operation: Operation;
  readonly path: Path;
  /** The value the field has now, and the value the applier asked for. */
  readonly liveValue: unknown;
  readonly appliedValue: unknown;
}

export const showConflict = (c: Conflict) =>
  `${showPath(c.path)} owned by ${c.manager} (${c.operation}): live ${JSON.stringify(c.liveValue)}, applied ${JSON.stringify(c.appliedValue)}`;

export interface WriteOutcome {
  readonly kind: 'written';
  /** The whole object: identity fields from the live object (or the request), tracked part computed. */
  readonly object: Record<string, unknown>;
  readonly managed: ManagedEntry[];
  /** False when the tracked part did not change (an apply that only adds ownership, say). */
  readonly changed: boolean;
  /** Facts of this step, so a check can name the rest:3.2 rows it exercised. */
  readonly forced: readonly Conflict[];
  /** Fields the applier stated last time and not this time. */
  readonly released: FieldSet;
  /** Of those, the ones removed from the object. */
  readonly releasedRemoved: FieldSet;
  /** Fields the writer now shares with another manager. */
  readonly shared: FieldSet;
  /** Fields the writer took from other managers (non-apply writes and forced applies). */
  readonly taken: FieldSet;
}

export interface ConflictOutcome {
  readonly kind: 'conflict';
  readonly conflicts: readonly Conflict[];
}

/** What every write the model judges knows: the live object, its owners, who writes, and when. */
interface WriteRequest {
  /** The live object; undefined when the write creates it. */
  readonly live: Record<string, unknown> | undefined;
  readonly managed: readonly ManagedEntry[];
  readonly manager: string;
  readonly schema: Schema;
  readonly apiVersion: string;
  readonly now: string;
}

export interface ApplyRequest extends WriteRequest {
  readonly intent: Record<string, unknown>;
  readonly force: boolean;
  /**
   * rest:4.7.10 reads recorded sets under the current schema (default). `false` models a server that
   * reads them as recorded: only the planted fault of the reference server uses it.
   */
  readonly reconcile?: boolean;
}

const strip = (s: FieldSet) => s.difference(IGNORED);
const stripCmp = (c: Comparison): Comparison => ({ added: strip(c.added), removed: strip(c.removed), modified: strip(c.modified) });

/** rest:4.7.10: every recorded set read under the current schema. */
function reconciled(managed: readonly ManagedEntry[], schema: Schema): ManagedEntry[] {
  return managed.map((e) => ({ ...e, fields: reconcileWithSchema(e.fields, schema) }));
}

/** Value at a path of a tracked object (undefined when absent). */
export function valueAt(v: unknown, path: Path, schema: Schema): unknown {
  let cur = v;
  let sch = schema;
  for (const e of path) {
    if (e.startsWith('f:')) {
      if (!isRecord(cur)) return undefined;
      cur = own(cur, e.slice(2));
      sch = sch.type === 'map' ? fieldSchema(sch, e.slice(2)).schema : { type: 'untyped' };
    } else {
      if (!Array.isArray(cur) || sch.type !== 'list') return undefined;
      const items = sch.items;
      const ls = sch;
      cur = cur.find((item) => {
        try {
          return elementOf(ls, item) === e;
        } catch {
          return false;
        }
      });
      sch = items;
    }
  }
  return cur;
}

const elementOf = (ls: Schema & { type: 'list' }, item: unknown) => itemElement(ls, item, []);

interface SetUpdate {
  readonly managed: ManagedEntry[];
  readonly conflicts: { entry: ManagedEntry; set: FieldSet }[];
  readonly cmp: Comparison;
}

/** Ownership consequences of moving from `oldT` to `newT` for every manager but `self` (upstream `update`). */
function updateOthers(
  oldT: unknown,
  newT: unknown,
  managed: readonly ManagedEntry[],
  self: Pick<ManagedEntry, 'manager' | 'operation'>,
  schema: Schema,
): SetUpdate {
  const cmp = stripCmp(compare(oldT, newT, schema));
  const changed = cmp.modified.union(cmp.added);
  const conflicts: { entry: ManagedEntry; set: FieldSet }[] = [];
  const next: ManagedEntry[] = [];
  for (const e of managed) {
    if (sameManager(e, self)) {
      next.push(e);
      continue;
    }
    const c = e.fields.intersection(changed);
    if (!c.isEmpty()) conflicts.push({ entry: e, set: c });
    next.push({ ...e, fields: e.fields.difference(c).difference(cmp.removed) });
  }
  return { managed: next, conflicts, cmp };
}

const nonEmpty = (ms: readonly ManagedEntry[]) => ms.filter((e) => !e.fields.isEmpty());

function othersUnion(ms: readonly ManagedEntry[], self: Pick<ManagedEntry, 'manager' | 'operation'>): FieldSet {
  return ms.filter((e) => !sameManager(e, self)).reduce((acc, e) => acc.union(e.fields), FieldSet.empty);
}

/**
 * Fields the applier stated last time and omits now leave the object, unless some manager (the
 * applier's new intent included) owns them; nothing the applier never stated is removed.
 */
function prune(merged: unknown, managed: readonly ManagedEntry[], last: FieldSet, schema: Schema): unknown {
  if (last.isEmpty()) return merged;
  const ens = (s: FieldSet) => ensureNamedFieldsAreMembers(s, schema);
  const lastE = ens(last);
  const managedE = ens(managed.reduce((acc, e) => acc.union(e.fields), FieldSet.empty));
  const mergedSet = ens(toFieldSet(merged, schema, false));
  let pruned = removeItems(merged, lastE, schema);
  pruned = removeItems(merged, mergedSet.difference(ens(toFieldSet(pruned, schema, false)).union(managedE)), schema);
  return removeItems(merged, mergedSet.difference(ens(toFieldSet(pruned, schema, false))).intersection(lastE), schema);
}

export function apply(req: ApplyRequest): WriteOutcome | ConflictOutcome {
  const self = { manager: req.manager, operation: 'Apply' as const };
  const liveT = trackedPart(req.live ?? {});
  const intentT = trackedPart(req.intent);
  let managed = req.reconcile === false ? [...req.managed] : reconciled(req.managed, req.schema);
  const set = strip(toFieldSet(intentT, req.schema, true));
  const previous = managed.find((e) => sameManager(e, self));
  const last = previous?.fields ?? FieldSet.empty;
  const mine: ManagedEntry = { ...self, apiVersion: req.apiVersion, time: previous?.time, fields: set };
  managed = previous ? managed.map((e) => (sameManager(e, self) ? mine : e)) : [...managed, mine];
  const merged = merge(liveT, intentT, req.schema) as Record<string, unknown>;
  const next = prune(merged, managed, last, req.schema) as Record<string, unknown>;
  const u = updateOthers(liveT, next, managed, self, req.schema);
  const conflicts = u.conflicts.flatMap(({ entry, set: s }) =>
    s.paths().map((path) => ({
      manager: entry.manager,
      operation: entry.operation,
      path,
      liveValue: valueAt(liveT, path, req.schema),
      appliedValue: valueAt(intentT, path, req.schema),
    })),
  );
  if (conflicts.length > 0 && !req.force) return { kind: 'conflict', conflicts };
  const changed = !jsonEqual(liveT, next);
  const result = nonEmpty(
    u.managed.map((e) => (sameManager(e, self) ? { ...e, time: changed || e.time === undefined ? req.now : e.time } : e)),
  );
  const released = last.difference(set);
  const nextSet = toFieldSet(next, req.schema, false);
  return {
    kind: 'written',
    object: withTrackedPart(req.live ?? req.intent, next),
    managed: result,
    changed,
    forced: conflicts,
    released,
    releasedRemoved: released.filter((p) => !nextSet.has(p)),
    shared: set.intersection(othersUnion(result, self)),
    taken: u.conflicts.reduce((acc, c) => acc.union(c.set), FieldSet.empty),
  };
}

export interface UpdateRequest extends WriteRequest {
  /** The object the write stores (after a merge or JSON patch, for PATCH). */
  readonly object: Record<string, unknown>;
}

/** rest:4.7.4, rest:3.2/non-apply-write: never a conflict; the writer takes what it changed. */
export function update(req: UpdateRequest): WriteOutcome {
  const self = { manager: req.manager, operation: 'Update' as const };
  const liveT = trackedPart(req.live ?? {});
  const newT = trackedPart(req.object);
  // The written object must be placeable by its schema: a set list with a repeated entry, or a map
  // list with a repeated key, is neither (rest:4.7.7) and the write is refused (throws InvalidObject),
  // as an apply with one is. The live object is read leniently (it may predate the schema).
  toFieldSet(newT, req.schema, true);
  // Upstream runs the write as a fresh "current operation": the writer's own earlier entry loses
  // what changed like everyone else's, then gets the new fields back.
  const u = updateOthers(
    liveT,
    newT,
    reconciled(req.managed, req.schema),
    { manager: '\u0000current-operation', operation: 'Update' },
    req.schema,
  );
  const gained = u.cmp.modified.union(u.cmp.added).difference(u.cmp.removed);
  const previous = u.managed.find((e) => sameManager(e, self));
  const fields = (previous?.fields ?? FieldSet.empty).union(gained);
  const mine: ManagedEntry = { ...self, apiVersion: req.apiVersion, time: gained.isEmpty() ? previous?.time : req.now, fields };
  const others = u.managed.filter((e) => !sameManager(e, self));
  const result = nonEmpty(previous ? u.managed.map((e) => (sameManager(e, self) ? mine : e)) : [...others, mine]);
  return {
    kind: 'written',
    object: req.object,
    managed: result,
    changed: !jsonEqual(liveT, newT),
    forced: [],
    released: FieldSet.empty,
    releasedRemoved: FieldSet.empty,
    shared: fields.intersection(othersUnion(result, self)),
    taken: u.conflicts.filter((c) => !sameManager(c.entry, self)).reduce((acc, c) => acc.union(c.set), FieldSet.empty),
  };
}

/**
 * rest:4.7.5: the managedFields a non-apply write starts from. A non-empty list of empty entries
 * (`[{}]`) resets the record: the writer then owns what it changed. Absent, not a list, an empty
 * list or an undecodable one: the live record (an empty list does not reset). Any other list is
 * taken as written (a client may set the record directly, as upstream allows).
 */
export function startingManagedFields(
  bodyManagedFields: unknown,
  live: readonly ManagedEntry[],
  decode: (v: unknown) => ManagedEntry[] | { message: string },
): readonly ManagedEntry[] {
  if (!Array.isArray(bodyManagedFields) || bodyManagedFields.length === 0) return live;
  if (bodyManagedFields.every((e) => isRecord(e) && Object.keys(e).length === 0)) return [];
  const d = decode(bodyManagedFields);
  return Array.isArray(d) && d.length > 0 ? d : live;
}
