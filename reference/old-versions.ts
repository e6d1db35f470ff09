/**
 * A version older than the target's history window, found rather than waited for (rest:6.1.3,
 * rest:7/410, rest:4.5/meaning/exact). Any target that has run longer than its window holds objects
 * whose version is older than it: what the control plane made at its start. Versions are opaque, so
 * "older than the window" is learned from the server's own answer, never by comparing versions: the
 * object's last change (its creationTimestamp and every managedFields time) lies further in the past,
 * by the server's own Date header, than the window.
 *
 *   oldVersionCandidate([{ name: 'default', rv: '1', lastChangeMs: t0 }], t0 + 10_000, 3000)
 *     -> { kind: 'found', name: 'default', rv: '1', ageMs: 10_000 }
 */
import { isRecord } from './objects.ts';
import { fail, inconclusive, pass, type Judgement } from './judgement.ts';

export interface Dated {
  readonly name: string;
  readonly rv: string;
  /** The latest time the server recorded for the object: creationTimestamp or a managedFields time. */
  readonly lastChangeMs: number;
}

/** Timestamps have whole seconds (and the Date header too): a margin so that "older" is never a rounding. */
const GRAIN_MS = 1000;

/**
 * The last change an object's metadata records (undefined when a time does not parse). Only a 410 rests
 * on the age; a served watch from the version must deliver the suite's own later change whatever the
 * version's age (it was read before that change was made), so an age overstated by a write that left no
 * time behind can excuse nothing but a 410.
 */
export function datedObject(item: unknown): Dated | undefined {
  if (!isRecord(item) || !isRecord(item['metadata'])) return undefined;
  const md = item['metadata'];
  const name = md['name'];
  const rv = md['resourceVersion'];
  const created = typeof md['creationTimestamp'] === 'string' ? Date.parse(md['creationTimestamp']) : NaN;
  if (typeof name !== 'string' || typeof rv !== 'string' || rv === '' || Number.isNaN(created)) return undefined;
  const times = (Array.isArray(md['managedFields']) ? md['managedFields'] : []).map((m) =>
    isRecord(m) && typeof m['time'] === 'string' ? Date.parse(m['time']) : NaN,
  );
  if (times.some((t) => Number.isNaN(t))) return undefined;
  return { name, rv, lastChangeMs: Math.max(created, ...times) };
}

export type Candidate =
  | { readonly kind: 'found'; readonly name: string; readonly rv: string; readonly ageMs: number }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'none' };

/** The object unchanged for longest, if that is longer than the window; else how long until one is. */
export function oldVersionCandidate(objects: readonly Dated[], serverNowMs: number, windowMs: number): Candidate {
  if (objects.length === 0) return { kind: 'none' };
  const oldest = [...objects].sort((a, b) => a.lastChangeMs - b.lastChangeMs)[0]!;
  const ageMs = serverNowMs - oldest.lastChangeMs;
  if (ageMs > windowMs + GRAIN_MS) return { kind: 'found', name: oldest.name, rv: oldest.rv, ageMs };
  return { kind: 'wait', ms: windowMs + GRAIN_MS - ageMs + GRAIN_MS };
}

const EXPECTED_WATCH = '410 Gone for a version older than the history, or the changes after it';

/** What a watch from the old version showed: 410, the change made after it, nothing yet, or a refusal. */
export type OldWatch =
  | { readonly kind: 'gone' }
  | { readonly kind: 'refused'; readonly status: number }
  | { readonly kind: 'delivered' }
  | { readonly kind: 'endedEmpty'; readonly attempts: number }
  | { readonly kind: 'silent'; readonly waitedMs: number };

/**
 * rest:6.1.3 and rest:7/410 for a watch from `about`'s version, the suite's own change made after it.
 *
 *   judgeOldVersionWatch({ kind: 'gone' }, 'namespace default unchanged for 40 s') -> [pass rest:6.1.3, pass rest:7/410]
 */
export function judgeOldVersionWatch(w: OldWatch, about: string): Judgement[] {
  switch (w.kind) {
    case 'gone':
      return [
        pass('rest:6.1.3', EXPECTED_WATCH, `410 Gone (${about})`),
        pass('rest:7/410', '410 Gone for a version older than the history', `410 Gone (${about})`),
      ];
    case 'refused':
      return [
        fail('rest:6.1.3', EXPECTED_WATCH, `status ${w.status} (${about})`),
        fail('rest:7/410', '410 Gone for a version older than the history', `status ${w.status} (${about})`),
      ];
    case 'delivered':
      return [pass('rest:6.1.3', EXPECTED_WATCH, `served, with the change made after it: the target keeps more history (${about})`)];
    case 'endedEmpty': {
      const observed = `${w.attempts} watches from the version each answered 200 and ended with no event, though the suite changed the watched scope after it (${about})`;
      return [fail('rest:6.1.3', EXPECTED_WATCH, observed), fail('rest:7/410', '410 Gone for a version older than the history', observed)];
    }
    case 'silent':
      return [inconclusive('rest:6.1.3', `${EXPECTED_WATCH}, within ${w.waitedMs} ms`, `neither came; the stream stayed open (${about})`)];
  }
}

/**
 * rest:4.5/meaning/exact and rest:7/410 for an Exact list at the old version, narrowed to what the suite
 * made after it: 410 Gone, or the state at that version (its resourceVersion, none of the suite's objects).
 *
 *   judgeOldVersionExact(410, undefined, 0, '1', 'namespace default ...') -> [pass rest:4.5/meaning/exact, pass rest:7/410]
 */
export function judgeOldVersionExact(status: number, listRv: unknown, laterItems: number, rv: string, about: string): Judgement[] {
  const expected = 'Exact: 410 Gone if the version is unavailable, else the state at exactly that version';
  if (status === 410)
    return [
      pass('rest:4.5/meaning/exact', expected, `410 Gone (${about})`),
      pass('rest:7/410', '410 Gone for a version older than the history', `410 Gone (${about})`),
    ];
  if (status !== 200) return [fail('rest:4.5/meaning/exact', expected, `status ${status} (${about})`)];
  const ok = listRv === rv && laterItems === 0;
  return [
    ok
      ? pass('rest:4.5/meaning/exact', expected, `served at the version: the target keeps more history (${about})`)
      : fail(
          'rest:4.5/meaning/exact',
          expected,
          `200 with resourceVersion ${JSON.stringify(listRv)} (asked ${JSON.stringify(rv)}) and ${laterItems} object(s) made after that version (${about})`,
        ),
  ];
}
