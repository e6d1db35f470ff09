/**
 * JSON Patch (RFC 6902), the model of PATCH with application/json-patch+json (rest:4.1), through the
 * `rfc6902` library applied to a clone: the input is never touched and a failing operation (a
 * failed `test`, a missing path) fails the whole patch.
 */
import { applyPatch, type Operation } from 'rfc6902';
import { deepClone } from './values.ts';

/**
 * `replaceOfMissingMember`: the failing operation is a `replace` of a member its (existing) object
 * lacks. RFC 6902 4.3 requires the target location to exist, so the patch fails; upstream 1.24
 * (evanphx/json-patch v4, partialDoc.get answering nil without error for a missing key) applies it as
 * an add. Named so a judge can tell that departure from other failures (reference/observations.ts).
 */
export type JsonPatchOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly replaceOfMissingMember?: true };

export function jsonPatch(target: unknown, ops: unknown): JsonPatchOutcome {
  if (!Array.isArray(ops)) return { ok: false, error: 'a JSON patch is an array of operations' };
  for (const [i, op] of ops.entries()) {
    if (
      typeof op !== 'object' ||
      op === null ||
      typeof (op as { op?: unknown }).op !== 'string' ||
      typeof (op as { path?: unknown }).path !== 'string'
    ) {
      return { ok: false, error: `operation ${i} needs string op and path` };
    }
  }
  const doc = { root: deepClone(target) };
  const rooted = (ops as Operation[]).map((op) => ({
    ...op,
    path: `/root${op.path}`,
    ...('from' in op ? { from: `/root${op.from}` } : {}),
  })) as Operation[];
  const results = applyPatch(doc, rooted);
  const bad = results.findIndex((r) => r !== null);
  if (bad >= 0) {
    const op = (ops as Operation[])[bad]!;
    const missingMember = op.op === 'replace' && isMissingObjectMember(jsonPatch(target, ops.slice(0, bad)), op.path);
    return {
      ok: false,
      error: `operation ${bad} failed: ${results[bad]!.name}`,
      ...(missingMember ? { replaceOfMissingMember: true as const } : {}),
    };
  }
  return { ok: true, value: doc.root };
}

/** `/a/b`: the document before the operation has an object at /a (not a list) without member b. */
function isMissingObjectMember(before: JsonPatchOutcome, pointer: string): boolean {
  if (!before.ok || !pointer.startsWith('/')) return false;
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = tokens.pop()!;
  let at: unknown = before.value;
  for (const t of tokens) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, t)) return false;
    at = (at as Record<string, unknown>)[t];
  }
  return typeof at === 'object' && at !== null && !Array.isArray(at) && !Object.hasOwn(at, last);
}
