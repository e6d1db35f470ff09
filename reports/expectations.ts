/**
 * The expectations file (DESIGN.md "Reports"): a target's known failures, so a nightly run fails only on
 * regressions. JSON or YAML (JSON is read by the YAML parser too, so errors carry lines either way):
 *
 *   knownFailures:
 *     - clause: rest:4.4.6
 *       reason: tokens never expire (issue 123)
 *
 *     - clause: rest:4.4.3
 *       reason: a paged selector list loses items past the first etcd batch
 *       when: scale        # only in runs with --scale: elsewhere the clause is not a known failure
 *
 * Parsing is strict: a typo in a key would otherwise silently un-list a failure and turn a known gap
 * into a red nightly run with no hint why.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** Run conditions an expectation can be limited to. */
export const EXPECTATION_CONDITIONS = ['scale'] as const;
export type ExpectationCondition = (typeof EXPECTATION_CONDITIONS)[number];

export interface KnownFailure {
  readonly clause: string;
  readonly reason: string;
  /** Listed for runs with this condition only (`scale`: a run with --scale). */
  readonly when?: ExpectationCondition;
}

export interface Expectations {
  readonly knownFailures: readonly KnownFailure[];
}

export const noExpectations: Expectations = { knownFailures: [] };

/** One line: `file:line: path: message`, so editors and CI logs can jump to it. */
export class ExpectationsError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly fieldPath: string,
    readonly detail: string,
  ) {
    const where = line === undefined ? file : `${file}:${line}`;
    super(`${where}: ${fieldPath === '' ? '' : `${fieldPath}: `}${detail}`);
    this.name = 'ExpectationsError';
  }
}

// `rest:4.4.6`, `node:2.2/maxPods`: the doc prefix and something after it; the catalog decides the rest.
const CLAUSE_ID = /^[a-z]+:\S+$/;
const ITEM_KEYS = new Set(['clause', 'reason', 'when']);

export function parseExpectations(text: string, fileName: string): Expectations {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    // prettyErrors would append a code frame; the line is all a one-line message needs.
    const line = lineCounter.linePos(first.pos[0]).line;
    throw new ExpectationsError(fileName, line, '', `not valid JSON or YAML: ${firstLine(first.message)}`);
  }
  const fail = (node: unknown, path: string, detail: string): never => {
    throw new ExpectationsError(fileName, lineOf(node, lineCounter), path, detail);
  };

  const root = doc.contents;
  // An empty file lists nothing; that is a valid (if pointless) expectations file.
  if (root === null || (isScalar(root) && root.value === null)) return noExpectations;
  if (!isMap(root)) return fail(root, '(root)', `expected a mapping with key knownFailures, got ${kindOf(root)}`);
  for (const pair of root.items) {
    const key = keyName(pair.key);
    if (key !== 'knownFailures') fail(pair.key, key, 'unknown key (expected only knownFailures)');
  }

  const list = root.get('knownFailures', true);
  if (list === undefined || (isScalar(list) && list.value === null)) return noExpectations;
  if (!isSeq(list)) return fail(list, 'knownFailures', `expected a list, got ${kindOf(list)}`);

  const seen = new Map<string, number>();
  const knownFailures = list.items.map((item, i): KnownFailure => {
    const at = `knownFailures[${i}]`;
    if (!isMap(item)) return fail(item, at, `expected a mapping with clause and reason, got ${kindOf(item)}`);
    for (const pair of item.items) {
      const key = keyName(pair.key);
      if (!ITEM_KEYS.has(key)) fail(pair.key, `${at}.${key}`, 'unknown key (expected clause, reason, when)');
    }
    const clause = requiredString(item.get('clause', true), item, `${at}.clause`, fail);
    if (!CLAUSE_ID.test(clause)) fail(item.get('clause', true), `${at}.clause`, `not a clause id like 'rest:4.4.6': ${JSON.stringify(clause)}`);
    const reason = requiredString(item.get('reason', true), item, `${at}.reason`, fail);
    const earlier = seen.get(clause);
    if (earlier !== undefined) fail(item.get('clause', true), `${at}.clause`, `${clause} is already listed at knownFailures[${earlier}]`);
    seen.set(clause, i);
    const whenNode = item.get('when', true);
    if (whenNode === undefined) return { clause, reason };
    const when = requiredString(whenNode, item, `${at}.when`, fail);
    if (!(EXPECTATION_CONDITIONS as readonly string[]).includes(when)) fail(whenNode, `${at}.when`, `unknown condition ${JSON.stringify(when)} (known: ${EXPECTATION_CONDITIONS.join(', ')})`);
    return { clause, reason, when: when as ExpectationCondition };
  });
  return { knownFailures };
}

/**
 * Several files as one (`--expectations a.yaml --expectations b.yaml`): every listed clause, in file
 * order; a clause listed in more than one file keeps each file's reason, joined, and a condition only
 * when every file states the same one.
 */
export function mergeExpectations(all: readonly Expectations[]): Expectations {
  const listed = new Map<string, KnownFailure[]>();
  for (const e of all) for (const k of e.knownFailures) listed.set(k.clause, [...(listed.get(k.clause) ?? []), k]);
  return {
    knownFailures: [...listed].map(([clause, ks]) => {
      const reason = [...new Set(ks.map((k) => k.reason))].join(' / ');
      // Listed without a condition anywhere: known in every run.
      const when = ks.every((k) => k.when !== undefined && k.when === ks[0]!.when) ? ks[0]!.when : undefined;
      return when === undefined ? { clause, reason } : { clause, reason, when };
    }),
  };
}

/**
 * The expectations that hold for a run: those limited to a condition the run does not have are left
 * out, so a run without --scale neither excuses a failure there nor reports the clause "now passing".
 */
export function expectationsForRun(e: Expectations, run: Readonly<Record<ExpectationCondition, boolean>>): Expectations {
  return { knownFailures: e.knownFailures.filter((k) => k.when === undefined || run[k.when]) };
}

/** Ids listed as known failures that the catalog does not know: likely typos, worth a warning. */
export function unknownExpectationIds(expectations: Expectations, knownIds: ReadonlySet<string>): string[] {
  return expectations.knownFailures.map((k) => k.clause).filter((id) => !knownIds.has(id));
}

type Fail = (node: unknown, path: string, detail: string) => never;

function requiredString(node: unknown, parent: unknown, path: string, fail: Fail): string {
  if (node === undefined) return fail(parent, path, 'missing (required)');
  if (!isScalar(node) || typeof node.value !== 'string') return fail(node, path, `expected a string, got ${kindOf(node)}`);
  if (node.value.trim() === '') return fail(node, path, 'must not be empty');
  return node.value;
}

function keyName(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

function kindOf(node: unknown): string {
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return node.value === null ? 'null' : typeof node.value;
  return 'nothing';
}

function lineOf(node: unknown, lc: LineCounter): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lc.linePos(range[0]).line;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
