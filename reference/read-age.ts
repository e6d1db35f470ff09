/**
 * rest:4.5 "Not older than": a read naming a resourceVersion is served at least as new as it. A cell
 * of the table says which meaning a request gets; the meaning clause says what that meaning promises.
 * A read answered from a state before the version it named breaks the promise itself, so the failure
 * is reported under the meaning clause too, not only under the cell that chose it. Other failures of
 * such a read (a torn list, a changed object, a refusal) say nothing about its age and stay the cell's.
 *
 *   withAgeMeaning({ semantic: 'NotOlderThan', clause: cell }, [fail(cell, ...)], { lo: 4, at: [3] })
 *     -> [fail(cell, ...), fail('rest:4.5/meaning/not-older-than', ...)]
 */
import type { ClauseId, Judgement } from './judgement.ts';
import type { History } from './history.ts';
import type { ObservedObject } from './objects.ts';

const NOT_OLDER_THAN: ClauseId = 'rest:4.5/meaning/not-older-than';

export interface AnswerAge {
  /** The first snapshot the read may show (that of the version it named). */
  readonly lo: number;
  /** The snapshots the answer is (its collection resourceVersion's, or those its items equal). */
  readonly at: readonly number[];
}

/** Whether the answer is only ever a state from before the one asked for. */
export const olderThanAsked = (age: AnswerAge): boolean => age.at.length > 0 && age.at.every((i) => i < age.lo);

/**
 * `js` with the cell's failure repeated under the meaning clause when the read is a Not-older-than one
 * and its answer is older than asked (same expected, observed, values and tags: an expectations entry
 * signs both the same way).
 */
export function withAgeMeaning(
  exp: { readonly semantic: string; readonly clause: ClauseId },
  js: readonly Judgement[],
  age: AnswerAge,
): Judgement[] {
  if (exp.semantic !== 'NotOlderThan' || !olderThanAsked(age)) return [...js];
  const failed = [...js].reverse().find((j) => j.verdict === 'fail' && j.clause === exp.clause);
  return failed === undefined ? [...js] : [...js, { ...failed, clause: NOT_OLDER_THAN }];
}

/**
 * The age of a get's answer, once no snapshot in range fits it: an object carrying the resourceVersion
 * of its own write before `lo` (versions are looked up by equality), or a "not found" (any 4xx but 400, which
 * refuses the read) for an object absent in a snapshot before `lo`.
 */
export function getAnswerAge(
  history: History,
  key: string,
  lo: number,
  observed: { readonly status: number; readonly object?: ObservedObject },
): AnswerAge {
  if (observed.status >= 200 && observed.status < 300) {
    const rv = observed.object?.rv;
    const written = typeof rv === 'string' ? history.rvIndex.get(rv) : undefined;
    // That write made this very object's version, and a later one had replaced it by `lo` (an object
    // whose version is still current but whose content differs is wrong, not old).
    const older =
      written !== undefined &&
      history.snapshots[written]?.objects.get(key)?.rv === rv &&
      history.snapshots[lo]?.objects.get(key)?.rv !== rv;
    return { lo, at: older ? [written] : [] };
  }
  if (observed.status < 400 || observed.status >= 500 || observed.status === 400) return { lo, at: [] };
  const at: number[] = [];
  for (let i = 0; i < lo && i < history.snapshots.length; i++) if (history.snapshots[i]!.objects.get(key) === undefined) at.push(i);
  return { lo, at };
}
