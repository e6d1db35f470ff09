/**
 * PATCH (rest:4.1): server-side apply (application/apply-patch+yaml, rest:4.7), JSON merge patch and
 * JSON patch. Each computes the new object with the model and then goes through the same write
 * path as PUT (or POST, for an apply that creates), so everything that path does applies to PATCH.
 */
import { decodeManagedFields } from '../../reference/apply/managed.ts';
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { InvalidObject, jsonPatch, mergePatch } from '../../reference/apply/index.ts';
import { isRecord } from '../../reference/objects.ts';
import { apiVersionOf, type ResourceType } from '../../reference/resources.ts';
import { conflictAnswer, faultyApply, writeContextOf } from './field-manager.ts';
import { keyFor } from './reads.ts';
import { has, type ServerState } from './state.ts';
import { badRequest, invalid, notFound, statusAnswer, type Answer } from './status.ts';
import { createObject, updateObject } from './writes.ts';
import { lacks } from './partial-modes.ts';
import { STRATEGIC_MERGE, strategicRefusal } from './strategic-merge.ts';

export function patchObject(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  req: IncomingMessage,
  url: URL,
  raw: string,
): Answer {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const existing = st.store.get(keyFor(rt, ns, name));
  const ctx = writeContextOf(req, url, st);
  if (type === 'application/apply-patch+yaml' && lacks(st, 'apply'))
    return statusAnswer(415, 'UnsupportedMediaType', `the patch media type "${type}" is not supported`);
  if (type === 'application/apply-patch+yaml') return applyPatch(st, rt, ns, name, url, raw, existing);
  // kubectl patch (default --type=strategic) and client-side kubectl apply send strategic merge patch.
  if (type !== 'application/merge-patch+json' && type !== 'application/json-patch+json' && type !== STRATEGIC_MERGE) {
    return statusAnswer(415, 'UnsupportedMediaType', `the patch media type "${type}" is not supported`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (e) {
    return badRequest(`could not decode the patch as JSON: ${(e as Error).message}`);
  }
  const refused = type === STRATEGIC_MERGE ? strategicRefusal(st, rt, doc) : undefined;
  if (refused) return refused;
  if (!existing) return notFound(rt.plural, name);
  const base = { ...existing, kind: rt.kind, apiVersion: apiVersionOf(rt) };
  let next: unknown;
  if (type === 'application/merge-patch+json' || type === STRATEGIC_MERGE)
    next = mergePatch(base, has(st, 'merge-patch-null-kept') ? withoutNulls(doc) : doc);
  else {
    const ops = has(st, 'json-patch-test-ignored') && Array.isArray(doc) ? doc.filter((o) => !(isRecord(o) && o['op'] === 'test')) : doc;
    const r = has(st, 'json-patch-remove-missing-ok') ? lenientRemoves(base, ops) : jsonPatch(base, ops);
    if (!r.ok) return invalid(`the JSON patch could not be applied: ${r.error}`);
    next = r.value;
  }
  return guarded(() => updateObject(st, rt, ns, name, next, ctx));
}

function applyPatch(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  url: URL,
  raw: string,
  existing: Record<string, unknown> | undefined,
): Answer {
  // rest:4.7.1: fieldManager is required for apply.
  const given = url.searchParams.get('fieldManager');
  // Planted fault apply-without-field-manager-accepted (clause-faults.ts): the apply is recorded as "unknown".
  const manager = (given === null || given === '') && has(st, 'apply-without-field-manager-accepted') ? 'unknown' : given;
  if (manager === null || manager === '')
    return invalid('PatchOptions is invalid: fieldManager: Required value: is required for apply patch');
  const force = url.searchParams.get('force') === 'true';
  let intent: unknown;
  try {
    intent = parseYaml(raw);
  } catch (e) {
    return badRequest(`could not decode the apply body as YAML: ${(e as Error).message}`);
  }
  if (!isRecord(intent)) return badRequest('the apply body must be an object');
  const md = isRecord(intent['metadata']) ? intent['metadata'] : {};
  // rest:4.7.2: the intent must not carry managedFields.
  // Planted fault apply-managed-fields-adopted (clause-faults.ts): the body's managedFields are taken as the record.
  const adopted = md['managedFields'] !== undefined && has(st, 'apply-managed-fields-adopted') ? md['managedFields'] : undefined;
  if (md['managedFields'] !== undefined && adopted === undefined) return badRequest('metadata.managedFields must be nil in an apply body');
  if (intent['kind'] !== rt.kind || intent['apiVersion'] !== apiVersionOf(rt))
    return badRequest(`apply needs apiVersion ${apiVersionOf(rt)} and kind ${rt.kind}`);
  if (md['name'] !== undefined && md['name'] !== name) return badRequest('the name of the object does not match the name on the URL');
  if (md['namespace'] !== undefined && md['namespace'] !== ns)
    return badRequest('the namespace of the object does not match the namespace on the URL');
  const withName = { ...intent, metadata: { ...md, name } };
  return guarded(() => {
    const out = faultyApply(st, rt, existing, withName, manager, force);
    if (out.kind === 'conflict') return conflictAnswer(st, out);
    const taken = adopted === undefined ? undefined : decodeManagedFields(adopted);
    const ctx = { fieldManager: manager, applied: Array.isArray(taken) ? taken : out.managed };
    return existing ? updateObject(st, rt, ns, name, out.object, ctx) : createObject(st, rt, ns, out.object, ctx);
  });
}

/** An object the schema cannot place (a map-list item without its key, say) is invalid, not a crash. */
function guarded(write: () => Answer): Answer {
  try {
    return write();
  } catch (e) {
    if (e instanceof InvalidObject) return invalid(e.message);
    throw e;
  }
}

/** Planted fault merge-patch-null-kept: null members dropped at every depth, as a careless decoder would. */
function withoutNulls(doc: unknown): unknown {
  if (!isRecord(doc)) return doc;
  return Object.fromEntries(
    Object.entries(doc)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** Planted fault json-patch-remove-missing-ok: operations applied one at a time, a failing `remove` skipped. */
function lenientRemoves(base: unknown, ops: unknown): ReturnType<typeof jsonPatch> {
  if (!Array.isArray(ops)) return jsonPatch(base, ops);
  let cur: unknown = base;
  for (const op of ops) {
    const r = jsonPatch(cur, [op]);
    if (r.ok) cur = r.value;
    else if (!(isRecord(op) && op['op'] === 'remove')) return r;
  }
  return { ok: true, value: cur };
}
