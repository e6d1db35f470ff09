/**
 * JSON Merge Patch (RFC 7386), the model of PATCH with application/merge-patch+json (rest:4.1): an
 * object patch merges key by key, `null` deletes, anything else replaces. Pure: the target is not
 * touched, and keys such as `__proto__` and `constructor` are ordinary keys.
 */
import { isRecord } from '../objects.ts';
import { defineKey } from './values.ts';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const base = isRecord(target) ? target : {};
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) if (!Object.hasOwn(patch, k)) defineKey(out, k, base[k]);
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) continue;
    defineKey(out, k, mergePatch(Object.hasOwn(base, k) ? base[k] : undefined, v));
  }
  // Keep the target's key order for keys the patch kept or changed.
  const ordered: Record<string, unknown> = {};
  for (const k of Object.keys(base)) if (Object.hasOwn(out, k)) defineKey(ordered, k, out[k]);
  for (const k of Object.keys(out)) if (!Object.hasOwn(ordered, k)) defineKey(ordered, k, out[k]);
  return ordered;
}
