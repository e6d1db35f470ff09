/**
 * Verdicts after the target's own restart and compaction hooks. Pure.
 *
 * - A compaction the hook promises makes every older version unreadable: an Exact list at such a
 *   version must answer 410 Gone (rest:8 "watch history ... applies to watch and Exact reads",
 *   rest:7/410). A watch from it may still be served by a cache that holds the events (upstream's
 *   watch cache does): 410 passes rest:6.1.3, a stream decides nothing.
 * - After a restart, resourceVersions keep their meaning: a version handed out before it never names
 *   another state afterwards (rest:2.3/metadata.resourceVersion). Whether acknowledged writes
 *   survived is the linearizability verdict of the recorded history (reference/concurrency).
 */
import { fail, inconclusive, pass, type Judgement } from './judgement.ts';

export function judgeExactAfterCompaction(status: number, rvAnswered: string | undefined, rv: string): Judgement[] {
  const expected = `410 Gone for an Exact list at ${rv}, a version the compaction hook removed`;
  if (status === 410)
    return [pass('rest:8/watch-history', expected), pass('rest:7/410', expected), pass('rest:4.5/meaning/exact', expected)];
  if (status === 200)
    return [
      fail(
        'rest:8/watch-history',
        expected,
        `status 200 with the list at ${rvAnswered ?? '(no resourceVersion)'}: the version is still served after compaction`,
      ),
    ];
  return [fail('rest:7/410', expected, `status ${status}`)];
}

export function judgeWatchAfterCompaction(kind: 'gone' | 'served' | 'refused', status: number): Judgement[] {
  const expected = '410 Gone for a watch from a version the compaction hook removed (a cache may still serve it)';
  if (kind === 'gone') return [pass('rest:6.1.3', expected), pass('rest:7/410', expected)];
  if (kind === 'served') return [inconclusive('rest:6.1.3', expected, 'served: the events are still held somewhere (a watch cache)')];
  return [fail('rest:6.1.3', expected, `status ${status}`)];
}

/**
 * `before`: version -> the write token it was handed out for; `after`: the versions written after the
 * restart with their tokens. Example: before {"7": "a"}, after [["7", "b"]] -> fail (7 reused).
 */
export function judgeVersionsAcrossRestart(
  before: ReadonlyMap<string, string>,
  after: readonly (readonly [string, string])[],
): Judgement[] {
  const reused = after.filter(([rv, token]) => before.has(rv) && before.get(rv) !== token);
  const expected = 'a resourceVersion handed out before the restart names no other state after it';
  if (reused.length === 0) return after.length === 0 ? [] : [pass('rest:2.3/metadata.resourceVersion', expected)];
  return [
    fail(
      'rest:2.3/metadata.resourceVersion',
      expected,
      reused.map(([rv, token]) => `${rv} was write ${before.get(rv)} before the restart and write ${token} after it`).join('; '),
    ),
  ];
}

/** The target did not come back within the window the run allows: nothing after the restart is judged. */
export function notBackInTime(windowMs: number): Judgement[] {
  return [
    inconclusive(
      'rest:4.5/meaning/most-recent',
      `the target ready again within ${windowMs} ms of the restart hook (--eventual-window widens it)`,
      'not ready in time',
    ),
  ];
}
