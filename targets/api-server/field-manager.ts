/**
 * Field ownership on every write of the reference server (rest:2.6, rest:3.2, rest:4.7): the model's
 * `update` for POST, PUT and non-apply PATCH, its `apply` for apply PATCH, and the planted faults of
 * that area. Writes call `trackedWrite` just before they store.
 */
import type { IncomingMessage } from 'node:http';
import { itemElement } from '../../reference/apply/typed.ts';
import {
  InvalidObject,
  atOrBelow,
  hollowMismatch,
  withoutHollow,
  fieldSchema,
  resolve,
  apply,
  configMapSchema,
  ownerReferencesSchema,
  decodeManagedFields,
  encodeManagedFields,
  isManagedFieldsError,
  merge,
  removeItems,
  showConflict,
  startingManagedFields,
  trackedPart,
  unstructuredSchema,
  update,
  withTrackedPart,
  type ManagedEntry,
  type Schema,
  type WriteOutcome,
  type ConflictOutcome,
} from '../../reference/apply/index.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { customSchema } from './crds.ts';
import { has, varies, type ServerState } from './state.ts';
import { invalid, statusAnswer, type Answer } from './status.ts';

/** How a write names its manager (rest:4.3 fieldManager) and, for apply, what it asked. */
export interface WriteContext {
  readonly fieldManager?: string;
  /** An apply already computed by patch.ts: its ownership is stored as is. */
  readonly applied?: readonly ManagedEntry[];
}

/** rest:4.3: without fieldManager a non-apply write is managed under the user agent's product name. */
export function writeContextOf(req: IncomingMessage, url: URL, st?: ServerState): WriteContext {
  const explicit = url.searchParams.get('fieldManager');
  if (explicit !== null && explicit !== '') return { fieldManager: explicit };
  // Planted fault field-manager-ignores-user-agent (clause-faults.ts).
  if (st !== undefined && has(st, 'field-manager-ignores-user-agent')) return { fieldManager: 'unknown' };
  const ua = req.headers['user-agent'] ?? '';
  return { fieldManager: ua.split('/')[0]!.trim() || 'unknown' };
}

/** ConfigMaps have a granular `data`; custom types use their CRD's schema; the rest is unstructured. */
export function schemaFor(st: ServerState, rt: ResourceType): Schema {
  const s = rt.kind === 'ConfigMap' && rt.group === '' ? configMapSchema : (customSchema(st, rt) ?? unstructuredSchema);
  const merged = has(st, 'patch-merge-key-ignored') ? withAtomicOwnerReferences(s) : s;
  const keyed = has(st, 'list-map-keys-first-only') ? firstMapKeyOnly(merged) : merged;
  return has(st, 'map-type-ignored') ? everyMapGranular(keyed) : keyed;
}

/** The planted fault list-map-keys-first-only (clause-faults.ts): a map list's entries told apart by its first key field alone. */
function firstMapKeyOnly(s: Schema): Schema {
  if (s.type === 'map')
    return {
      ...s,
      fields: Object.fromEntries(Object.entries(s.fields).map(([k, v]) => [k, firstMapKeyOnly(v)])),
      values: s.values && firstMapKeyOnly(s.values),
    };
  if (s.type === 'list') return { ...s, keys: s.listType === 'map' ? s.keys.slice(0, 1) : s.keys, items: firstMapKeyOnly(s.items) };
  return s;
}

/** The planted fault map-type-ignored (clause-faults.ts): x-svc-map-type not read, every map and struct granular. */
function everyMapGranular(s: Schema): Schema {
  if (s.type === 'map')
    return {
      ...s,
      mapType: 'granular',
      fields: Object.fromEntries(Object.entries(s.fields).map(([k, v]) => [k, everyMapGranular(v)])),
      values: s.values && everyMapGranular(s.values),
    };
  if (s.type === 'list') return { ...s, items: everyMapGranular(s.items) };
  return s;
}

/** The planted fault patch-merge-key-ignored: ObjectMeta's merge markers not read (rest:4.7.8). */
function withAtomicOwnerReferences(s: Schema): Schema {
  if (s.type !== 'map' || s.fields['metadata']?.type !== 'map') return s;
  const md = s.fields['metadata'];
  return { ...s, fields: { ...s.fields, metadata: { ...md, fields: { ...md.fields, ownerReferences: ownerReferencesSchema(true) } } } };
}

export const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function liveManaged(obj: Record<string, unknown> | undefined): ManagedEntry[] {
  const md = obj?.['metadata'] as Record<string, unknown> | undefined;
  if (!md || md['managedFields'] === undefined) return [];
  const d = decodeManagedFields(md['managedFields']);
  return isManagedFieldsError(d) ? [] : d;
}

function encode(st: ServerState, entries: readonly ManagedEntry[]): Record<string, unknown>[] {
  const wire = encodeManagedFields(entries);
  if (has(st, 'apply-operation-mislabelled')) for (const e of wire) e['operation'] = 'Update';
  return wire;
}

/**
 * Ownership of a non-apply write (or the stored result of an apply): `next` gets its managedFields,
 * or the write is refused (only under the planted fault that makes updates conflict).
 */
export function trackedWrite(
  st: ServerState,
  rt: ResourceType,
  existing: Record<string, unknown> | undefined,
  next: Record<string, unknown>,
  ctx: WriteContext,
): Answer | undefined {
  if (has(st, 'duplicate-map-key-accepted')) {
    // In place: the caller stores this very object.
    const collapsed = lenient(st, rt, next);
    for (const k of Object.keys(collapsed)) if (k !== 'metadata') next[k] = collapsed[k];
  }
  const md = next['metadata'] as Record<string, unknown>;
  const dropped = varies(st, 'omit-empty-collections') ? dropHollow(next) : undefined;
  if (ctx.applied) {
    const applied = dropped
      ? ctx.applied.map((e) => ({ ...e, fields: e.fields.filter((p) => !atOrBelow(dropped, p)) })).filter((e) => !e.fields.isEmpty())
      : ctx.applied;
    if (applied.length === 0) delete md['managedFields'];
    else md['managedFields'] = encode(st, applied);
    return undefined;
  }
  const body = md['managedFields'];
  const live = liveManaged(existing);
  const start =
    has(st, 'managed-fields-empty-list-resets') && Array.isArray(body) && body.length === 0
      ? []
      : startingManagedFields(body, live, (v) => {
          const d = decodeManagedFields(v);
          return isManagedFieldsError(d) ? { message: d.message } : d;
        });
  let out: ReturnType<typeof update>;
  try {
    out = update({
      live: existing,
      managed: start,
      object: next,
      manager: ctx.fieldManager ?? 'unknown',
      schema: schemaFor(st, rt),
      apiVersion: apiVersionOf(rt),
      now: rfc3339(st.clock()),
    });
  } catch (e) {
    // An object its schema cannot place (a map-list item without its key) is invalid, not a crash.
    if (e instanceof InvalidObject) return invalid(e.message);
    throw e;
  }
  if (has(st, 'update-raises-conflict') && !out.taken.isEmpty())
    return statusAnswer(409, 'Conflict', 'Apply failed with conflicts (planted fault: a non-apply write conflicts)');
  if (out.managed.length === 0) delete md['managedFields'];
  else md['managedFields'] = encode(st, out.managed);
  return undefined;
}

/**
 * Legal variation omit-empty-collections: empty maps and lists are not stored, as a Go server's
 * `omitempty` drops them (`data: {}` after its last key goes). Edits `next` in place, as the write
 * path stores it; returns the dropped paths, which nobody can own.
 */
function dropHollow(next: Record<string, unknown>): ReturnType<typeof hollowMismatch> {
  const tracked = trackedPart(next);
  const kept = withoutHollow(tracked) as Record<string, unknown>;
  const dropped = hollowMismatch(tracked, kept);
  const replaced = withTrackedPart(next, kept);
  // In place, nested members included: the caller stores this very object.
  for (const k of Object.keys(next)) if (!Object.hasOwn(replaced, k)) delete next[k];
  for (const k of Object.keys(replaced)) if (k !== 'metadata') next[k] = replaced[k];
  const md = next['metadata'] as Record<string, unknown>;
  const mdKept = replaced['metadata'] as Record<string, unknown>;
  for (const k of Object.keys(md)) if (!Object.hasOwn(mdKept, k)) delete md[k];
  for (const k of Object.keys(mdKept)) md[k] = mdKept[k];
  return dropped;
}

/**
 * Planted fault duplicate-map-key-accepted: a set list's repeated entry or a map list's repeated key is
 * silently collapsed to its first occurrence instead of the write being refused (rest:4.7.7).
 */
function collapseDuplicates(v: unknown, s: Schema): unknown {
  const r = resolve(s, v);
  if (r.shape === 'leaf' || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const ls = r.schema as Schema & { type: 'list' };
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (const item of v) {
      let e: string;
      try {
        e = itemElement(ls, item, []);
      } catch {
        out.push(item);
        continue;
      }
      if (seen.has(e)) continue;
      seen.add(e);
      out.push(collapseDuplicates(item, ls.items));
    }
    return out;
  }
  const ms = r.schema as Schema & { type: 'map' };
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).map(([k, c]) => [k, collapseDuplicates(c, fieldSchema(ms, k).schema)]),
  );
}

function lenient<T extends Record<string, unknown>>(st: ServerState, rt: ResourceType, obj: T): T {
  return has(st, 'duplicate-map-key-accepted') ? (collapseDuplicates(obj, schemaFor(st, rt)) as T) : obj;
}

/** The apply model with the planted faults of rest:3.2 on top. */
export function faultyApply(
  st: ServerState,
  rt: ResourceType,
  live: Record<string, unknown> | undefined,
  given: Record<string, unknown>,
  manager: string,
  force: boolean,
): WriteOutcome | ConflictOutcome {
  const schema = schemaFor(st, rt);
  const intent = lenient(st, rt, given);
  const f = has(st, 'apply-force-ignored') ? false : has(st, 'apply-conflicts-forced') ? true : force;
  const out = apply({
    live,
    managed: liveManaged(live),
    intent,
    manager,
    force: f,
    schema,
    apiVersion: apiVersionOf(rt),
    now: rfc3339(st.clock()),
    reconcile: !has(st, 'atomic-change-not-reconciled'),
  });
  if (out.kind === 'conflict') return out;
  let object = out.object;
  let managed = out.managed;
  if (has(st, 'apply-omitted-not-removed') && !out.releasedRemoved.isEmpty()) {
    object = withTrackedPart(object, merge(trackedPart(live ?? {}), trackedPart(intent), schema) as Record<string, unknown>);
  }
  if (has(st, 'apply-removes-co-owned')) {
    object = withTrackedPart(object, removeItems(trackedPart(object), out.released, schema) as Record<string, unknown>);
  }
  if (has(st, 'apply-no-shared-ownership') && !out.shared.isEmpty()) {
    managed = managed
      .map((e) => (e.manager === manager && e.operation === 'Apply' ? e : { ...e, fields: e.fields.difference(out.shared) }))
      .filter((e) => !e.fields.isEmpty());
  }
  if (varies(st, 'associative-lists-reversed'))
    object = withTrackedPart(object, reversedLists(trackedPart(object), schema) as Record<string, unknown>);
  return { ...out, object, managed };
}

/** Legal variation: set and map lists in another order (the spec fixes no order). */
function reversedLists(v: unknown, s: Schema): unknown {
  const r = resolve(s, v);
  if (r.shape === 'list' && r.schema.type === 'list') {
    const items = r.schema.items;
    return (v as unknown[]).map((i) => reversedLists(i, items)).reverse();
  }
  if (r.shape === 'map' && r.schema.type === 'map') {
    const ms = r.schema;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, reversedLists(x, fieldSchema(ms, k).schema)]),
    );
  }
  return v;
}

/** A conflict as upstream answers it (status and body shape are not fixed by the spec: rest:7.5, 7.6). */
export function conflictAnswer(st: ServerState, out: ConflictOutcome): Answer {
  if (varies(st, 'conflict-as-422')) return { status: 422, body: { message: `conflicts: ${out.conflicts.map(showConflict).join('; ')}` } };
  const causes = out.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: showConflict(c), field: c.path.join('.') }));
  const a = statusAnswer(
    409,
    'Conflict',
    `Apply failed with ${out.conflicts.length} conflict(s): ${out.conflicts.map(showConflict).join('; ')}`,
  );
  return { ...a, body: { ...(a.body as Record<string, unknown>), details: { causes } } };
}
