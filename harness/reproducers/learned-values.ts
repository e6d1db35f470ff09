/**
 * The values a reproducer must learn from its own answers instead of repeating the recorded ones
 * (docs/architecture.md "Oracle rules": generated values are learned, never predicted): every resourceVersion,
 * uid and continue token an answer carried, and the name a `generateName` create was given, wherever
 * a later request of the case sends one of them again: as a path segment (a read of the generated
 * name), a query value (`resourceVersion=`, `continue=`) or a whole JSON string of its body
 * (`metadata.resourceVersion`, a precondition's uid, an owner reference).
 *
 *   POST .../configmaps {generateName: "x"} -> 201 {metadata: {name: "x089a9"}}
 *   GET  .../configmaps/x089a9               -> learned: {value: "x089a9", from: 0, path: ["metadata", "name"]}
 */
import type { Exchange } from '../transport/index.ts';
import type { AnswerNeed, AnswerTest } from '../../reference/answer-checks.ts';

export interface Learned {
  /** Shell variable name (`L1`); `<name>_Q` holds it URL-encoded. */
  readonly name: string;
  readonly value: string;
  /** Index of the exchange whose answer carries it, and where. */
  readonly from: number;
  readonly path: readonly (string | number)[];
  /** The requests that send it (none: only a need compares with it). */
  readonly usedBy: readonly number[];
}

type Path = readonly (string | number)[];

const isStreamRead = (e: Exchange): boolean =>
  e.request.method === 'GET' && (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));

export function parsedAnswer(e: Exchange): unknown {
  if (e.response?.json !== undefined) return e.response.json;
  try {
    return e.response ? JSON.parse(e.response.bodyText) : undefined;
  } catch {
    return undefined;
  }
}

function parsedBody(body: unknown): unknown {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  return body instanceof Uint8Array ? undefined : body;
}

/** The request asked the server to make the name up (`generateName` and no `name`). */
function generatesName(e: Exchange): boolean {
  const meta = (parsedBody(e.request.body) as { metadata?: { name?: unknown; generateName?: unknown } } | undefined)?.metadata;
  return typeof meta?.generateName === 'string' && (meta.name === undefined || meta.name === '');
}

/**
 * The values the server made up in one answer, with where each sits: under every `metadata` object,
 * `uid`, `resourceVersion` and `continue`; the top-level `metadata.name` when the request generated it.
 * A watch's answer is no source: the script reads it in the background until the case ends.
 */
export function generatedValues(e: Exchange): Map<string, Path> {
  const out = new Map<string, Path>();
  if (isStreamRead(e)) return out;
  const doc = parsedAnswer(e);
  const keep = (v: unknown, path: Path) => {
    if (typeof v === 'string' && v !== '' && v !== '0' && !out.has(v)) out.set(v, path);
  };
  const walk = (node: unknown, path: Path, depth: number) => {
    if (depth > 12 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, [...path, i], depth + 1));
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'metadata' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const m = v as Record<string, unknown>;
        for (const key of ['resourceVersion', 'uid', 'continue']) keep(m[key], [...path, k, key]);
        if (path.length === 0 && generatesName(e)) keep(m['name'], [k, 'name']);
      }
      walk(v, [...path, k], depth + 1);
    }
  };
  walk(doc, [], 0);
  return out;
}

/** The strings a request sends: path segments, query values, and the whole string leaves of its JSON body. */
export function sentStrings(e: Exchange): string[] {
  const out = new Set<string>();
  for (const seg of e.request.path.split('/')) if (seg !== '') out.add(safeDecode(seg));
  for (const [, v] of e.request.query ?? []) if (typeof v === 'string' && v !== '') out.add(v);
  const walk = (node: unknown, depth: number) => {
    if (depth > 30) return;
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) node.forEach((x) => walk(x, depth + 1));
    else if (typeof node === 'object' && node !== null) Object.values(node).forEach((x) => walk(x, depth + 1));
  };
  walk(parsedBody(e.request.body), 0);
  return [...out];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Every generated value a later request sends, learned from the latest earlier answer that carried
 * it; then the ones the needs compare with (`read`: a value a need expects of request `before`'s
 * answer is learned from an answer before it). Names are `L1`, `L2`... in order of first use.
 */
export function learnedValues(
  exchanges: readonly Exchange[],
  read: readonly { readonly value: string; readonly before: number }[] = [],
  order: readonly number[] = exchanges.map((_, i) => i),
): Learned[] {
  const learned: Learned[] = [];
  const made = exchanges.map(generatedValues);
  const sent = exchanges.map(sentStrings);
  // Sent before: a watch is sent where it began, not where it was recorded (when it closed).
  const pos = positions(order, exchanges.length);
  const learn = (v: string, before: number) => {
    if (learned.some((l) => l.value === v)) return;
    const earlier = order.filter((j) => before >= exchanges.length || pos[j]! < pos[before]!).reverse();
    for (const j of earlier) {
      const path = made[j]!.get(v);
      if (path !== undefined) {
        const usedBy = order.filter((k) => pos[k]! > pos[j]! && sent[k]!.includes(v));
        learned.push({ name: `L${learned.length + 1}`, value: v, from: j, path, usedBy });
        return;
      }
    }
  };
  exchanges.forEach((_, i) => {
    for (const v of sent[i]!) learn(v, i);
  });
  for (const r of read) learn(r.value, r.before);
  return learned;
}

/** Where each exchange stands in the send order. */
export function positions(order: readonly number[], count: number): number[] {
  const pos = new Array<number>(count).fill(count);
  order.forEach((i, k) => (pos[i] = k));
  return pos;
}

/**
 * The strings the needs compare answers with, and the request each is compared on: a value test's
 * expected value, a watch's event names (any answer of the case may have made those up).
 */
export function needStrings(needs: readonly AnswerNeed[], requests: number): { value: string; before: number }[] {
  const out: { value: string; before: number }[] = [];
  const strings = (v: unknown, before: number) => {
    if (typeof v === 'string') out.push({ value: v, before });
    else if (Array.isArray(v)) v.forEach((x) => strings(x, before));
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach((x) => strings(x, before));
  };
  const walk = (t: AnswerTest) => {
    if (t.kind === 'anyOf' || t.kind === 'allOf') t.tests.forEach(walk);
    else if (t.kind === 'value' && typeof t.at === 'object' && 'request' in t.at) strings(t.equals, t.at.request);
    else if (t.kind === 'events') [...t.start, ...t.then].forEach((e) => strings(e.name, requests));
  };
  needs.forEach((n) => walk(n.test));
  return out;
}
