/**
 * managedFields entries (rest:2.6) and the part of an object whose fields are tracked. A manager is
 * identified by its name and operation: the same name applying and updating owns two entries, as
 * upstream. Identity and server-set metadata (name, uid, resourceVersion, ...) belong to nobody.
 */
import { isRecord } from '../objects.ts';
import { decodeFieldsV1, encodeFieldsV1, isFieldsV1Error } from './fieldsv1.ts';
import { FieldSet } from './set.ts';
import { defineKey, own } from './values.ts';

export type Operation = 'Apply' | 'Update';

export interface ManagedEntry {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  /** RFC 3339; passed in by the caller, never read from a clock here. */
  readonly time: string | undefined;
  readonly fields: FieldSet;
}

export const sameManager = (a: Pick<ManagedEntry, 'manager' | 'operation'>, b: Pick<ManagedEntry, 'manager' | 'operation'>) =>
  a.manager === b.manager && a.operation === b.operation;
export const showManager = (e: Pick<ManagedEntry, 'manager' | 'operation'>) => `${e.manager} (${e.operation})`;

/** Metadata fields a writer can own; everything else in metadata is identity or set by the server. */
const TRACKED_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'];
const UNTRACKED_TOP = ['apiVersion', 'kind', 'metadata', 'status'];

/** The part of an object field ownership is about: its body plus labels, annotations, finalizers and owner references. */
export function trackedPart(obj: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(obj)) return out;
  for (const k of Object.keys(obj)) if (!UNTRACKED_TOP.includes(k)) defineKey(out, k, obj[k]);
  const md = own(obj, 'metadata');
  if (isRecord(md)) {
    const m: Record<string, unknown> = {};
    for (const k of TRACKED_METADATA) if (own(md, k) !== undefined) defineKey(m, k, md[k]);
    if (Object.keys(m).length > 0) out['metadata'] = m;
  }
  return out;
}

/** `obj` with its tracked part replaced by `tracked` (identity and server fields kept from `obj`). */
export function withTrackedPart(obj: Record<string, unknown>, tracked: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) if (UNTRACKED_TOP.includes(k) && k !== 'metadata') defineKey(out, k, obj[k]);
  const md: Record<string, unknown> = {};
  const oldMd = own(obj, 'metadata');
  if (isRecord(oldMd)) for (const k of Object.keys(oldMd)) if (!TRACKED_METADATA.includes(k)) defineKey(md, k, oldMd[k]);
  const newMd = own(tracked, 'metadata');
  if (isRecord(newMd)) for (const k of TRACKED_METADATA) if (own(newMd, k) !== undefined) defineKey(md, k, newMd[k]);
  out['metadata'] = md;
  for (const k of Object.keys(tracked)) if (k !== 'metadata') defineKey(out, k, tracked[k]);
  return out;
}

/** Paths no manager owns even when they change (upstream strips them): the metadata node itself. */
export const IGNORED = FieldSet.of([['f:metadata']]);

export function encodeManagedFields(entries: readonly ManagedEntry[]): Record<string, unknown>[] {
  return entries.map((e) => ({
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    time: e.time,
    fieldsType: 'FieldsV1',
    fieldsV1: encodeFieldsV1(e.fields),
  }));
}

export interface ManagedFieldsError {
  readonly index: number;
  readonly message: string;
}

/** Reads a managedFields list as a target (or a client) wrote it. */
export function decodeManagedFields(list: unknown): ManagedEntry[] | ManagedFieldsError {
  if (!Array.isArray(list)) return { index: -1, message: 'managedFields is not a list' };
  const out: ManagedEntry[] = [];
  for (const [index, raw] of list.entries()) {
    if (!isRecord(raw)) return { index, message: 'entry is not an object' };
    const op = own(raw, 'operation');
    if (op !== undefined && op !== 'Apply' && op !== 'Update')
      return { index, message: `operation ${JSON.stringify(op)} is neither Apply nor Update` };
    const ft = own(raw, 'fieldsType');
    if (ft !== undefined && ft !== 'FieldsV1') return { index, message: `fieldsType ${JSON.stringify(ft)} is not FieldsV1` };
    const tree = own(raw, 'fieldsV1') ?? own(raw, 'fields') ?? {};
    const fields = decodeFieldsV1(tree);
    if (isFieldsV1Error(fields)) return { index, message: `fieldsV1 at ${fields.path}: ${fields.message}` };
    const str = (k: string) => (typeof own(raw, k) === 'string' ? (raw[k] as string) : undefined);
    out.push({
      manager: str('manager') ?? '',
      operation: (op as Operation | undefined) ?? 'Update',
      apiVersion: str('apiVersion') ?? '',
      time: str('time'),
      fields,
    });
  }
  return out;
}

export const isManagedFieldsError = (v: ManagedEntry[] | ManagedFieldsError): v is ManagedFieldsError => !Array.isArray(v);
