/**
 * Strict reading of a parsed YAML (or JSON) file's nodes, for the files the CLI takes (the
 * expectations file): each helper names the path and, through `fail`, the line of what is wrong.
 */
import { isMap, isScalar, isSeq, type LineCounter, type Node, type YAMLMap } from 'yaml';

/** Reports a bad node: its path in the file and what is wrong with it; never returns. */
export type Fail = (node: unknown, path: string, detail: string) => never;

export function onlyKeys(map: YAMLMap, at: string, allowed: readonly string[], fail: Fail): void {
  for (const pair of map.items) {
    const key = keyName(pair.key);
    if (!allowed.includes(key)) fail(pair.key, `${at}.${key}`, `unknown key (expected ${allowed.join(', ')})`);
  }
}

export function oneOrMany<T>(node: unknown, path: string, fail: Fail, each: (n: unknown, p: string) => T): T[] {
  if (!isSeq(node)) return [each(node, path)];
  if (node.items.length === 0) return fail(node, path, 'empty list');
  return node.items.map((n, i) => each(n, `${path}[${i}]`));
}

export function requiredString(node: unknown, parent: unknown, path: string, fail: Fail): string {
  if (node === undefined) return fail(parent, path, 'missing (required)');
  if (!isScalar(node) || typeof node.value !== 'string') return fail(node, path, `expected a string, got ${kindOf(node)}`);
  if (node.value.trim() === '') return fail(node, path, 'must not be empty');
  return node.value;
}

export function keyName(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

export function kindOf(node: unknown): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return node.value === null ? 'null' : typeof node.value;
  return 'nothing';
}

export function lineOf(node: unknown, lc: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lc.linePos(range[0]).line;
}

export function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
