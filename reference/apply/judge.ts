/**
 * Judges a target's answer to a write against the apply model (rest:2.6, rest:3.2, rest:4.7). The
 * acceptable set: the tracked content equal up to the order of set and map lists; every manager
 * owning exactly the model's fields under the right operation; times learned, never predicted;
 * a conflict's status code and body shape are recorded, not judged (rest:7.5, rest:7.6); an empty
 * map or list sent or left out is the same content, owned or not accordingly (hollow.ts).
 */
import { fail, pass, rule, tagged, unspecified, type Judgement } from '../judgement.ts';
import type { InputClass, ObservationClassName } from '../observations.ts';
import { isRecord } from '../objects.ts';
import { type WriteOutcome } from './apply.ts';
import { decodeManagedFields, isManagedFieldsError, showManager, trackedPart, withTrackedPart, type ManagedEntry } from './managed.ts';
import { adoptHollowForm } from './hollow.ts';
import { showPath } from './path.ts';
import type { Schema } from './schema.ts';
import type { FieldSet } from './set.ts';
import { sameValue } from './typed.ts';
import { defineKey, own } from './values.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { diffPathSets, diffValues } from '../value-diff.ts';
import { needStatusClass } from '../answer-checks.ts';

/**
 * The kind of input a write is, where upstream departs on it (reference/observations.ts), and the class
 * of the departure: for a refusal, being accepted; for a write, ownership entries missing afterwards.
 */
export interface WriteTags {
  readonly input: InputClass;
  readonly class: ObservationClassName;
}

/** What the model expects of one write. */
export type Expected =
  /**
   * `refusal`: the kind of departure a refusal of this write is, when the write is of a kind upstream
   * refuses (emptiedListTags); any other refusal carries no class.
   */
  | {
      readonly kind: 'written';
      readonly object: Record<string, unknown>;
      readonly managed: readonly ManagedEntry[];
      readonly tags?: WriteTags;
      readonly refusal?: WriteTags;
    }
  | { readonly kind: 'conflict'; readonly detail: string }
  /**
   * `statusOpen`: the refusal of an object its schema cannot place (a duplicate set entry or map key,
   * rest:4.7.7). The spec names no status for it, so any non-2xx refuses; a 4xx passes, anything else
   * is recorded as unspecified (upstream 1.24 answers an apply with duplicates 500 "failed to create
   * typed patch object ... duplicate entries"); either way nothing may be stored (judged by a read).
   */
  | { readonly kind: 'refused'; readonly detail: string; readonly statusOpen?: boolean; readonly tags?: WriteTags };

export const expectedOf = (o: WriteOutcome, tags?: WriteTags, refusal?: WriteTags): Expected => ({
  kind: 'written',
  object: o.object,
  managed: o.managed,
  tags,
  refusal,
});

/**
 * An apply whose result leaves a list that held items with none, or without the list (or a nested
 * struct or map that held fields with none): upstream 1.24
 * stores such a list as null (structured-merge-diff's removeItems keeps no empty list), which a custom resource schema that
 * says array refuses with 422 (kubernetes#135841 shows the same for an emptied map).
 *
 *   emptiedListTags({ spec: { l: ['a'] } }, { spec: { l: [] } }) -> { input: 'apply-empties-list', class: 'emptied-list-refused' }
 *   emptiedListTags({ spec: { l: ['a'] } }, {}) -> the same (the model removed the list and its parent)
 *   emptiedListTags({ spec: { l: ['a'] } }, { spec: { l: ['b'] } }) -> undefined
 */
export function emptiedListTags(live: unknown, next: unknown): WriteTags | undefined {
  // Walked from the live object: the model may remove an emptied list with its parents (here the list
  // and `spec` go), where upstream keeps the list's key with null.
  const emptied = (a: unknown, b: unknown, depth: number, parentKept: boolean): boolean => {
    if (Array.isArray(a)) return a.length > 0 && (b === undefined || (Array.isArray(b) && b.length === 0));
    if (!isRecord(a)) return false;
    // A struct or map below spec that held fields and is left with none (emptied, or removed while its
    // parent stays) is stored as null the same way (seen against 1.24 on a fresh seed, ha topology:
    // "spec.granularStruct in body must be of type object: \"null\"").
    if (depth >= 2 && parentKept && Object.keys(a).length > 0 && (b === undefined || (isRecord(b) && Object.keys(b).length === 0)))
      return true;
    const rest = isRecord(b) ? b : {};
    return Object.keys(a).some((k) => emptied(a[k], Object.hasOwn(rest, k) ? rest[k] : undefined, depth + 1, isRecord(b)));
  };
  return emptied(live, next, 0, true) ? { input: 'apply-empties-list', class: 'emptied-list-refused' } : undefined;
}

/**
 * rest:4.7.5 writes upstream departs on: `[]` (resets there too) and `[{}]` with other changes (the
 * writer is left owning nothing); a reset alone conforms, so it has no tags.
 *
 *   managedFieldsWriteTags('empty', true) -> { input: 'managed-fields-empty-write', class: 'empty-managed-fields-resets' }
 */
export function managedFieldsWriteTags(managedFields: 'empty' | 'reset', changesOther: boolean): WriteTags | undefined {
  if (managedFields === 'empty') return { input: 'managed-fields-empty-write', class: 'empty-managed-fields-resets' };
  return changesOther ? { input: 'managed-fields-reset-with-changes', class: 'reset-with-changes-unowned' } : undefined;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Only the fields the schema declares: servers may add fields the suite never set. */
export function projected(obj: unknown, schema: Schema): Record<string, unknown> {
  const t = trackedPart(obj);
  if (schema.type !== 'map' || schema.values !== undefined) return t;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(t)) if (own(schema.fields, k) !== undefined) defineKey(out, k, t[k]);
  return out;
}

function projectedSet(s: FieldSet, schema: Schema): FieldSet {
  if (schema.type !== 'map' || schema.values !== undefined) return s;
  return s.filter((p) => p.length > 0 && own(schema.fields, p[0]!.slice(2)) !== undefined);
}

/** The field paths a manager owns, expected and observed, as data: added = owned beyond the model's. */
function ownershipValues(m: Pick<ManagedEntry, 'manager' | 'operation' | 'fields'>, observed: FieldSet) {
  const want = m.fields.paths().map(showPath);
  const got = observed.paths().map(showPath);
  return {
    expectedValue: { manager: m.manager, operation: m.operation, fields: want },
    observedValue: { manager: m.manager, operation: m.operation, fields: got },
    diff: diffPathSets(want, got),
  };
}

const showSet = (s: FieldSet) => (s.isEmpty() ? 'nothing' : s.paths().map(showPath).join(', '));
const all = (clauses: readonly ClauseId[], verdict: (c: ClauseId) => Judgement) => clauses.map(verdict);

interface ModelState {
  readonly object: Record<string, unknown>;
  readonly managed: readonly ManagedEntry[];
}

/**
 * The model's state in the target's form where the two differ only by empty maps or lists (hollow.ts):
 * what the judge compares with, and what a sequence carries on from.
 */
export function alignedExpectation(
  expected: ModelState,
  json: unknown,
  schema: Schema,
): { object: Record<string, unknown>; managed: ManagedEntry[] } {
  const md = isRecord(json) && isRecord(json['metadata']) ? json['metadata'] : {};
  const decoded = decodeManagedFields(md['managedFields'] ?? []);
  const observed = isManagedFieldsError(decoded) ? [] : decoded.map((e) => ({ ...e, fields: projectedSet(e.fields, schema) }));
  const a = adoptHollowForm(
    { tracked: trackedPart(expected.object), managed: expected.managed },
    { tracked: trackedPart(json), managed: observed },
  );
  return { object: withTrackedPart(expected.object, a.tracked), managed: a.managed };
}

/**
 * `ownershipClauses`: the clauses the ownership verdicts go to, when only some of `clauses` promise
 * anything about ownership (rest:4.7.5 alone, for a reset: rest:4.1/put is about the stored object).
 */
export function judgeWrite(
  expected: Expected,
  status: number,
  json: unknown,
  schema: Schema,
  apiVersion: string,
  clauses: readonly ClauseId[],
  ownershipClauses: readonly ClauseId[] = clauses,
): Judgement[] {
  if (expected.kind === 'refused' && expected.statusOpen === true && (status < 200 || status >= 300) && !(status >= 400 && status < 500)) {
    const c = clauses.includes('rest:4.7.7/list-type') ? 'rest:4.7.7/list-type' : clauses[0];
    return c === undefined
      ? []
      : [unspecified(c, `refused (${expected.detail}); the status of such a refusal is not named`, `status ${status}`)];
  }
  if (expected.kind !== 'written') {
    const refused = status >= 400 && status < 500;
    const what = expected.kind === 'conflict' ? `refused as a conflict (${expected.detail})` : `refused (${expected.detail})`;
    const verdicts = all(clauses, (c) =>
      rule(c, refused, what, `status ${status}`, { needs: [needStatusClass(`the write is ${what}: a 4xx answer`, 4)] }),
    );
    const tags = expected.kind === 'refused' ? expected.tags : undefined;
    const js =
      tags === undefined
        ? verdicts
        : tagged(verdicts, { input: tags.input, observedStatus: status, class: status >= 200 && status < 300 ? tags.class : undefined });
    if (expected.kind === 'conflict' && refused) {
      js.push(unspecified('rest:7.5', 'HTTP status of a conflict: not shown', `status ${status}`));
      js.push(
        unspecified(
          'rest:7.6',
          'shape of the error body: not shown',
          `kind ${JSON.stringify(isRecord(json) ? json['kind'] : undefined)}, reason ${JSON.stringify(isRecord(json) ? json['reason'] : undefined)}`,
        ),
      );
    }
    return js;
  }
  const ok = status >= 200 && status < 300;
  const inputOf = expected.tags ?? expected.refusal;
  const input = inputOf === undefined ? {} : { input: inputOf.input };
  const refusedAs = expected.refusal === undefined ? {} : { class: expected.refusal.class };
  if (!ok)
    return tagged(
      all(clauses, (c) =>
        fail(c, 'the write succeeds (2xx)', `status ${status}: ${isRecord(json) ? String(json['message'] ?? '') : ''}`.slice(0, 300)),
      ),
      { ...input, ...refusedAs, observedStatus: status },
    );
  return tagged(judgeState(expected, json, schema, apiVersion, clauses, ownershipClauses, expected.tags?.class), {
    ...input,
    observedStatus: status,
  });
}

/**
 * The object and its ownership record against the model's. `missingEntryClass`: the class of a failure
 * that only lacks an entry the model expects (ownership lost), where the write is of a kind upstream
 * departs on (managedFieldsWriteTags).
 */
export function judgeState(
  model: ModelState,
  json: unknown,
  schema: Schema,
  apiVersion: string,
  clauses: readonly ClauseId[],
  ownershipClauses: readonly ClauseId[] = clauses,
  missingEntryClass?: ObservationClassName,
): Judgement[] {
  const js: Judgement[] = [];
  const expected = alignedExpectation(model, json, schema);
  const want = projected(expected.object, schema);
  const got = projected(json, schema);
  const same = sameValue(want, got, schema);
  // The diff is by position in lists; the verdict (sameValue) is the schema's, sets in any order.
  const objectValues = same ? undefined : { expectedValue: want, observedValue: got, diff: diffValues(want, got) };
  js.push(...all(clauses, (c) => rule(c, same, `object ${JSON.stringify(want)}`, JSON.stringify(got), objectValues)));
  const md = isRecord(json) && isRecord(json['metadata']) ? json['metadata'] : {};
  const raw = md['managedFields'] ?? [];
  const decoded = decodeManagedFields(raw);
  if (isManagedFieldsError(decoded)) {
    const clause = decoded.message.startsWith('fieldsType')
      ? 'rest:2.6/fieldsType'
      : decoded.message.startsWith('operation')
        ? 'rest:2.6/operation'
        : 'rest:2.6/fieldsV1';
    js.push(
      fail(
        clause,
        'managedFields entries with fieldsType FieldsV1, operation Apply or Update and a FieldsV1 tree',
        `entry ${decoded.index}: ${decoded.message}`,
      ),
    );
    return js;
  }
  js.push(...judgeEntryFields(raw, apiVersion));
  const observed = decoded.map((e) => ({ ...e, fields: projectedSet(e.fields, schema) })).filter((e) => !e.fields.isEmpty());
  js.push(...judgeOwnership(expected.managed, observed, ownershipClauses, missingEntryClass));
  return js;
}

/** Each managedFields entry's own fields (rest:2.6): fieldsType FieldsV1, the object's apiVersion, a time when present. */
function judgeEntryFields(raw: unknown, apiVersion: string): Judgement[] {
  const js: Judgement[] = [];
  for (const e of Array.isArray(raw) ? raw : []) {
    if (!isRecord(e)) continue;
    // JSON.stringify(undefined) is undefined, not text: an absent field is shown as such.
    const shown = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));
    js.push(rule('rest:2.6/fieldsType', e['fieldsType'] === 'FieldsV1', 'fieldsType FieldsV1', shown(e['fieldsType'])));
    js.push(rule('rest:2.6/apiVersion', e['apiVersion'] === apiVersion, `apiVersion ${apiVersion}`, shown(e['apiVersion'])));
    // Time is learned, not predicted; upstream leaves it out when an apply changed only ownership.
    js.push(
      rule(
        'rest:2.6/time',
        e['time'] === undefined || (typeof e['time'] === 'string' && RFC3339.test(e['time'])),
        'time, when present, an RFC 3339 timestamp',
        shown(e['time']),
      ),
    );
  }
  return js;
}

/**
 * The ownership record against the model's (`managed`): one entry per writer and operation, owning the
 * model's set, and no entry the model has no write for. `observed`: the entries decoded, projected on
 * the schema, empty ones dropped.
 */
function judgeOwnership(
  managed: readonly ManagedEntry[],
  observed: readonly ManagedEntry[],
  ownershipClauses: readonly ClauseId[],
  missingEntryClass: ObservationClassName | undefined,
): Judgement[] {
  const js: Judgement[] = [];
  const key = (e: Pick<ManagedEntry, 'manager' | 'operation'>) => `${e.manager}\u0000${e.operation}`;
  const byKey = new Map(observed.map((e) => [key(e), e]));
  const accounted = new Set(managed.map(key));
  // An entry's manager names a writer: one no write of the model was made by is misnamed.
  const writers = new Set(managed.map((m) => m.manager));
  const strangers = [...new Set(observed.map((e) => e.manager).filter((name) => !writers.has(name)))];
  if (strangers.length > 0)
    js.push(
      fail(
        'rest:2.6/manager',
        `entries named after the writers: ${[...writers].join(', ') || 'none'}`,
        `entries for ${strangers.join(', ')}`,
      ),
    );
  for (const m of managed) {
    const o = byKey.get(key(m));
    if (!o) {
      const other = observed.find((e) => e.manager === m.manager && !accounted.has(key(e)));
      if (other) accounted.add(key(other));
      if (other)
        js.push(
          fail(
            'rest:2.6/operation',
            `${showManager(m)} owns ${showSet(m.fields)}`,
            `${m.manager} is recorded with operation ${other.operation}`,
          ),
        );
      else
        js.push(
          ...all(ownershipClauses, (c) => ({
            ...fail(c, `${showManager(m)} owns ${showSet(m.fields)}`, `no entry for ${showManager(m)}`),
            class: missingEntryClass,
          })),
        );
      continue;
    }
    js.push(pass('rest:2.6/manager', `an entry for ${showManager(m)}`), pass('rest:2.6/operation', `operation ${m.operation}`));
    const eq = o.fields.equals(m.fields);
    const owned = eq ? undefined : ownershipValues(m, o.fields);
    js.push(
      ...all(ownershipClauses, (c) => rule(c, eq, `${showManager(m)} owns ${showSet(m.fields)}`, `owns ${showSet(o.fields)}`, owned)),
    );
    if (eq) js.push(pass('rest:2.6/fieldsV1', `fields of ${showManager(m)} decode to the model's set`));
  }
  for (const o of observed) {
    if (accounted.has(key(o))) continue;
    js.push(...all(ownershipClauses, (c) => fail(c, `no entry for ${showManager(o)}`, `${showManager(o)} owns ${showSet(o.fields)}`)));
  }
  return js;
}
