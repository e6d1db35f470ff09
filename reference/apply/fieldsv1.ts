/**
 * The FieldsV1 encoding of a field set (rest:2.6): a JSON tree whose keys are path elements and whose
 * leaves are `{}`. A path that is a member and also has members below it carries `".": {}`.
 *   { "f:data": { "f:a": {} }, "f:spec": { ".": {}, "f:x": {} } }
 */
import { isRecord } from '../objects.ts';
import { isPathElement, type Path } from './path.ts';
import { FieldSet } from './set.ts';
import { defineKey } from './values.ts';

export function encodeFieldsV1(set: FieldSet): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const p of set.paths()) {
    let node = root;
    for (const e of p) {
      if (!Object.hasOwn(node, e)) defineKey(node, e, {});
      node = node[e] as Record<string, unknown>;
    }
    if (p.length > 0 && node !== root) defineKey(node, '.', {});
  }
  return tidy(root);
}

/** `{".": {}}` alone is written `{}`, as upstream does. */
function tidy(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(node);
  if (keys.length === 1 && keys[0] === '.') return out;
  for (const k of keys.sort()) defineKey(out, k, k === '.' ? {} : tidy(node[k] as Record<string, unknown>));
  return out;
}

export interface FieldsV1Error {
  readonly path: string;
  readonly message: string;
}

/** Decodes a target's fieldsV1 tree; malformed input is reported, never thrown. */
export function decodeFieldsV1(tree: unknown): FieldSet | FieldsV1Error {
  const paths: Path[] = [];
  const walk = (node: unknown, at: string[]): FieldsV1Error | undefined => {
    if (!isRecord(node)) return { path: at.join(' '), message: 'expected an object' };
    const keys = Object.keys(node);
    if (keys.length === 0 && at.length > 0) paths.push(at);
    for (const k of keys) {
      if (k === '.') {
        if (at.length === 0) return { path: '.', message: '"." at the root' };
        paths.push(at);
        continue;
      }
      if (!isPathElement(k)) return { path: [...at, k].join(' '), message: `not a path element: ${JSON.stringify(k)}` };
      const err = walk(node[k], [...at, k]);
      if (err) return err;
    }
    return undefined;
  };
  const err = walk(tree, []);
  return err ?? FieldSet.of(paths);
}

export const isFieldsV1Error = (v: FieldSet | FieldsV1Error): v is FieldsV1Error => !(v instanceof FieldSet);
