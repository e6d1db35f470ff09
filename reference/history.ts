/**
 * The write history of one test case, as the suite observed it: a sequence of snapshots of the
 * objects the suite owns, one per acknowledged write. resourceVersions are opaque, so a snapshot is
 * identified by its index; an rv is mapped to an index only when the suite learned it (the answer to
 * its own write, or a list it matched to a snapshot). Immutable: every step returns a new History.
 *
 *   h0 = emptyHistory(0)            snapshots: [{}]
 *   h1 = recordWrite(h0, put(a@"7")) snapshots: [{}, {a@"7"}]    rvIndex: {"7": 1}
 */
import type { ObjectVersion } from './objects.ts';

export interface Snapshot {
  readonly index: number;
  /** rv returned by the write that produced this snapshot, when the answer carried one. */
  readonly rv: string | undefined;
  /** Suite clock when the write was sent, the earliest the target can have stamped it (retention windows). */
  readonly atMs: number;
  readonly objects: ReadonlyMap<string, ObjectVersion>;
}

export interface History {
  readonly snapshots: readonly Snapshot[];
  /** Learned resourceVersion -> the newest snapshot index it denotes. */
  readonly rvIndex: ReadonlyMap<string, number>;
  /**
   * Keys whose state the model cannot know (the spec leaves it open, e.g. deletion of an object
   * without finalizers may leave it Terminating): excluded from every comparison.
   */
  readonly tainted: ReadonlySet<string>;
  /** Every key the suite ever wrote, to tell the suite's objects from foreign ones in a list. */
  readonly everKeys: ReadonlySet<string>;
}

export function emptyHistory(atMs: number): History {
  return {
    snapshots: [{ index: 0, rv: undefined, atMs, objects: new Map() }],
    rvIndex: new Map(),
    tainted: new Set(),
    everKeys: new Set(),
  };
}

export const currentIndex = (h: History): number => h.snapshots.length - 1;
export const current = (h: History): Snapshot => h.snapshots[currentIndex(h)]!;

export type Write =
  | { readonly op: 'put'; readonly version: ObjectVersion; readonly atMs: number }
  | { readonly op: 'remove'; readonly key: string; readonly rv?: string; readonly atMs: number };

/** Appends the snapshot produced by one acknowledged write. */
export function recordWrite(h: History, w: Write): History {
  const objects = new Map(current(h).objects);
  let rv: string | undefined;
  let key: string;
  if (w.op === 'put') {
    objects.set(w.version.key, w.version);
    rv = w.version.rv;
    key = w.version.key;
  } else {
    objects.delete(w.key);
    rv = w.rv;
    key = w.key;
  }
  const index = h.snapshots.length;
  const rvIndex = new Map(h.rvIndex);
  if (rv !== undefined) rvIndex.set(rv, index);
  return {
    snapshots: [...h.snapshots, { index, rv, atMs: w.atMs, objects }],
    rvIndex,
    tainted: h.tainted,
    everKeys: new Set(h.everKeys).add(key),
  };
}

/** Records that `rv` (e.g. a list's collection version) denotes snapshot `index`. */
export function learnRv(h: History, rv: string, index: number): History {
  if (h.rvIndex.get(rv) === index) return h;
  return { ...h, rvIndex: new Map(h.rvIndex).set(rv, index) };
}

export function taint(h: History, key: string): History {
  return { ...h, tainted: new Set(h.tainted).add(key) };
}

/**
 * Snapshot index range a read may reflect, by rest:4.5 semantic. `at` is the index of the rv the
 * request named (NotOlderThan, Exact) or of the first page (ContinueExact).
 */
export function acceptableRange(
  h: History,
  semantic: 'MostRecent' | 'Any' | 'NotOlderThan' | 'Exact' | 'ContinueExact',
  at?: number,
): { lo: number; hi: number } {
  const n = currentIndex(h);
  switch (semantic) {
    case 'MostRecent':
      return { lo: n, hi: n };
    case 'Any':
      return { lo: 0, hi: n };
    case 'NotOlderThan':
      return { lo: requireAt(at, semantic), hi: n };
    case 'Exact':
    case 'ContinueExact':
      return { lo: requireAt(at, semantic), hi: requireAt(at, semantic) };
  }
}

function requireAt(at: number | undefined, semantic: string): number {
  if (at === undefined) throw new Error(`model misuse: ${semantic} needs the index of the requested resourceVersion`);
  return at;
}

/** The suite's objects in snapshot `i`, minus tainted keys. */
export function visibleObjects(h: History, i: number): ObjectVersion[] {
  const s = h.snapshots[i];
  if (!s) throw new Error(`model misuse: no snapshot ${i}`);
  return [...s.objects.values()].filter((o) => !h.tainted.has(o.key));
}

/**
 * Whether the target may already have compacted the version that denotes snapshot `index` (rest:6.1.4):
 * once `windowMs` has passed since the write that made it was sent. Snapshot 0 is the state before the
 * case's first write: a version learned for it (say, from a stale rv="0" list) may be any revision from
 * before the case began, however old, so it may always be gone.
 */
export function mayHaveBeenCompacted(h: History, index: number, nowMs: number, windowMs: number): boolean {
  const s = h.snapshots[index];
  if (!s) throw new Error(`model misuse: no snapshot ${index}`);
  return index === 0 || nowMs - s.atMs >= windowMs;
}
