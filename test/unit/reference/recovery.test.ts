// Why: the verdicts after restart and compaction hooks, with the near misses each must reject.
import { describe, expect, it } from 'vitest';
import { judgeExactAfterCompaction, judgeVersionsAcrossRestart, judgeWatchAfterCompaction } from '../../../reference/recovery.ts';

const verdicts = (js: readonly { clause: string; verdict: string }[]) => js.map((j) => `${j.verdict} ${j.clause}`);

describe('after compaction', () => {
  it('an Exact list at a compacted version must answer 410; serving it fails the history clause', () => {
    expect(verdicts(judgeExactAfterCompaction(410, undefined, '5'))).toEqual([
      'pass rest:8/watch-history',
      'pass rest:7/410',
      'pass rest:4.5/meaning/exact',
    ]);
    expect(verdicts(judgeExactAfterCompaction(200, '5', '5'))).toEqual(['fail rest:8/watch-history']);
    expect(verdicts(judgeExactAfterCompaction(500, undefined, '5'))).toEqual(['fail rest:7/410']);
  });

  it('a watch may still be served from a cache: inconclusive, never a pass', () => {
    expect(verdicts(judgeWatchAfterCompaction('gone', 200))).toEqual(['pass rest:6.1.3', 'pass rest:7/410']);
    expect(verdicts(judgeWatchAfterCompaction('served', 200))).toEqual(['inconclusive rest:6.1.3']);
    expect(verdicts(judgeWatchAfterCompaction('refused', 500))).toEqual(['fail rest:6.1.3']);
  });
});

describe('versions across a restart', () => {
  it('a version reused for another write fails; the same write seen again does not', () => {
    const before = new Map([
      ['7', 'a'],
      ['8', 'b'],
    ]);
    expect(verdicts(judgeVersionsAcrossRestart(before, [['9', 'c']]))).toEqual(['pass rest:2.3/metadata.resourceVersion']);
    expect(verdicts(judgeVersionsAcrossRestart(before, [['8', 'c']]))).toEqual(['fail rest:2.3/metadata.resourceVersion']);
    expect(verdicts(judgeVersionsAcrossRestart(before, [['8', 'b']]))).toEqual(['pass rest:2.3/metadata.resourceVersion']);
    expect(judgeVersionsAcrossRestart(before, [])).toEqual([]);
  });
});
