/**
 * Structured differences between what the model expected and what the target returned (docs/architecture.md
 * "Structured diffs"): field paths added, modified and removed, as data. The report renders them; judges
 * attach them to a Judgement next to its prose (`expected` / `observed` stay the one-line summary).
 *
 *   diffValues({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 3 }, d: 4 })
 *     -> { added: [{ path: 'd', observed: 4 }], modified: [{ path: 'b.c', expected: 2, observed: 3 }], removed: [] }
 *
 * Paths are written `a.b[0].c`; a key that is not a plain identifier is quoted (`data["key.with.dots"]`).
 * Learned and ignored paths are the caller's to subtract before diffing (project both sides first).
 */

export interface FieldChange {
  readonly path: string;
  /** Absent for an added field. */
  readonly expected?: unknown;
  /** Absent for a removed field. */
  readonly observed?: unknown;
}

export interface ValueDiff {
  /** In the observation only. */
  readonly added: readonly FieldChange[];
  /** In both, with different values (leaves, or a change of type). */
  readonly modified: readonly FieldChange[];
  /** In the expectation only. */
  readonly removed: readonly FieldChange[];
}

/** What a judgement may carry beside its prose: the compared values and their difference. */
export interface JudgementValues {
  readonly expectedValue?: unknown;
  readonly observedValue?: unknown;
  readonly diff?: ValueDiff;
}

export const emptyDiff: ValueDiff = { added: [], modified: [], removed: [] };

export const isEmptyDiff = (d: ValueDiff): boolean => d.added.length === 0 && d.modified.length === 0 && d.removed.length === 0;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `a` + `b` -> `a.b`; `a` + `key.with.dots` -> `a["key.with.dots"]`; `a` + 0 -> `a[0]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENT.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

export function diffValues(expected: unknown, observed: unknown): ValueDiff {
  const added: FieldChange[] = [];
  const modified: FieldChange[] = [];
  const removed: FieldChange[] = [];
  const walk = (path: string, e: unknown, o: unknown): void => {
    if (isPlainObject(e) && isPlainObject(o)) {
      for (const k of Object.keys(e)) {
        if (Object.hasOwn(o, k)) walk(childPath(path, k), e[k], o[k]);
        else removed.push({ path: childPath(path, k), expected: e[k] });
      }
      for (const k of Object.keys(o)) if (!Object.hasOwn(e, k)) added.push({ path: childPath(path, k), observed: o[k] });
      return;
    }
    if (Array.isArray(e) && Array.isArray(o)) {
      const n = Math.max(e.length, o.length);
      for (let i = 0; i < n; i++) {
        if (i >= o.length) removed.push({ path: childPath(path, i), expected: e[i] });
        else if (i >= e.length) added.push({ path: childPath(path, i), observed: o[i] });
        else walk(childPath(path, i), e[i], o[i]);
      }
      return;
    }
    if (!Object.is(e, o)) modified.push({ path: path === '' ? '(root)' : path, expected: e, observed: o });
  };
  walk('', expected, observed);
  return { added, modified, removed };
}

/** A diff of two sets of paths (field ownership): paths only in `observed` are added, only in `expected` removed. */
export function diffPathSets(expected: readonly string[], observed: readonly string[]): ValueDiff {
  const e = new Set(expected);
  const o = new Set(observed);
  return {
    added: [...o].filter((p) => !e.has(p)).map((path) => ({ path })),
    modified: [],
    removed: [...e].filter((p) => !o.has(p)).map((path) => ({ path })),
  };
}
