/**
 * How the objects a read returned compare with those the model holds: equal versions (resourceVersion,
 * uid, the content the suite set), the differences of a whole list against a snapshot, and the
 * structured values (expected, observed, field-path diff) a failing read judgement carries.
 */
import { contentMismatch, showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { diffValues, type JudgementValues } from './value-diff.ts';

/** Why an observed object is not the given version (undefined when it is). */
export function versionMismatch(v: ObjectVersion, o: ObservedObject, knownKeys: ReadonlySet<string>): string | undefined {
  if (o.rv !== v.rv) return `resourceVersion ${JSON.stringify(o.rv)}, expected ${JSON.stringify(v.rv)}`;
  if (o.uid !== v.uid) return `uid ${JSON.stringify(o.uid)}, expected ${JSON.stringify(v.uid)}`;
  return contentMismatch(v.content, o, knownKeys);
}

/** Differences between the suite's objects in a snapshot and what the target returned (empty = equal). */
export function diffObjects(
  expected: readonly ObjectVersion[],
  observed: readonly ObservedObject[],
  knownKeys: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  const want = new Map(expected.map((v) => [v.key, v]));
  const seen = new Set<string>();
  for (const o of observed) {
    if (seen.has(o.key)) out.push(`${o.key} listed twice`);
    seen.add(o.key);
    const v = want.get(o.key);
    if (!v) {
      out.push(`unexpected ${o.key}@${String(o.rv)}`);
      continue;
    }
    const d = versionMismatch(v, o, knownKeys);
    if (d) out.push(`${o.key}: ${d}`);
  }
  for (const v of expected) if (!seen.has(v.key)) out.push(`missing ${showVersion(v)}`);
  return out;
}

/**
 * The compared part of objects, keyed by object (`ns/name`): what the model predicts of each (its
 * resourceVersion, uid and the content the suite set, labels and annotations restricted to the suite's
 * own keys) and nothing the server may add. Both sides of a read's structured diff.
 */
export function comparable(objs: readonly (ObjectVersion | ObservedObject)[], knownKeys: ReadonlySet<string>): Record<string, unknown> {
  const own = (m: Readonly<Record<string, string>>) =>
    Object.fromEntries(
      [...knownKeys]
        .filter((k) => Object.hasOwn(m, k))
        .sort()
        .map((k) => [k, m[k]]),
    );
  const body = (b: unknown) =>
    b === undefined || b === null || (typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 0) ? null : b;
  const out: Record<string, unknown> = {};
  for (const x of objs) {
    const c = 'content' in x ? x.content : x;
    out[x.key] = { resourceVersion: x.rv, uid: x.uid, labels: own(c.labels), annotations: own(c.annotations), body: body(c.body) };
  }
  return out;
}

/** Expected and observed objects of a read, and their field-path diff, for a failing judgement. */
export function readValues(
  expected: readonly ObjectVersion[],
  observed: readonly ObservedObject[],
  knownKeys: ReadonlySet<string>,
): JudgementValues {
  const expectedValue = comparable(expected, knownKeys);
  const observedValue = comparable(observed, knownKeys);
  return { expectedValue, observedValue, diff: diffValues(expectedValue, observedValue) };
}
