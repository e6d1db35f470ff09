/**
 * JSON Patch (RFC 6902), the model of PATCH with application/json-patch+json (rest:4.1), through the
 * `rfc6902` library applied to a clone: the input is never touched and a failing operation (a
 * failed `test`, a missing path) fails the whole patch.
 */
import { applyPatch, type Operation } from 'rfc6902';
import { deepClone } from './values.ts';

export type JsonPatchOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export function jsonPatch(target: unknown, ops: unknown): JsonPatchOutcome {
  if (!Array.isArray(ops)) return { ok: false, error: 'a JSON patch is an array of operations' };
  for (const [i, op] of ops.entries()) {
    if (typeof op !== 'object' || op === null || typeof (op as { op?: unknown }).op !== 'string' || typeof (op as { path?: unknown }).path !== 'string') {
      return { ok: false, error: `operation ${i} needs string op and path` };
    }
  }
  const doc = { root: deepClone(target) };
  const rooted = (ops as Operation[]).map((op) => ({ ...op, path: `/root${op.path}`, ...('from' in op ? { from: `/root${op.from}` } : {}) })) as Operation[];
  const results = applyPatch(doc, rooted);
  const bad = results.findIndex((r) => r !== null);
  if (bad >= 0) return { ok: false, error: `operation ${bad} failed: ${results[bad]!.name}` };
  return { ok: true, value: doc.root };
}
