// The guard that lets answer-format variations run together (variation-cases.ts) must notice a
// variation that leaves a judgment unmade, or the group would hide what that judgment could flag.
import { describe, expect, it } from 'vitest';
import { narrowedJudgments, passCounts } from '../../helpers/judgments.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const rec = (check: string, clause: string, verdict: CheckRecord['verdict'], count: number): CheckRecord =>
  ({ check, clause, verdict, count }) as CheckRecord;

describe('narrowed judgments', () => {
  const unvaried = passCounts([
    rec('paging', 'rest:2.3/metadata.remainingItemCount', 'pass', 19),
    rec('paging', 'rest:4.4.3', 'pass', 6),
    rec('paging', 'rest:4.4.3', 'pass', 2),
    rec('other', 'rest:7.1', 'pass', 8),
  ]);

  it('adds up the pass observations per check and clause, and nothing else', () => {
    expect(unvaried).toEqual({ 'paging rest:2.3/metadata.remainingItemCount': 19, 'paging rest:4.4.3': 8, 'other rest:7.1': 8 });
    expect(passCounts([rec('a', 'rest:1', 'inconclusive', 4), rec('a', 'rest:1', 'fail', 1)])).toEqual({});
  });

  it('a run that judged everything as often (or more) narrows nothing', () => {
    expect(narrowedJudgments(unvaried, { ...unvaried, 'paging rest:4.4.3': 9 }, ['paging', 'other'])).toEqual([]);
  });

  it('a variation that drops a field leaves its clause unjudged: named, with both counts', () => {
    const varied = passCounts([
      rec('paging', 'rest:4.4.3', 'pass', 8),
      rec('paging', 'rest:2.3/metadata.remainingItemCount', 'unspecified', 19),
      rec('other', 'rest:7.1', 'pass', 8),
    ]);
    expect(narrowedJudgments(unvaried, varied, ['paging', 'other'])).toEqual([
      'paging rest:2.3/metadata.remainingItemCount: passed 19 times unvaried, 0 here',
    ]);
  });

  it('fewer observations of a judged clause count too; checks the varied run did not run are not asked', () => {
    expect(narrowedJudgments(unvaried, { 'paging rest:2.3/metadata.remainingItemCount': 19, 'paging rest:4.4.3': 7 }, ['paging'])).toEqual([
      'paging rest:4.4.3: passed 8 times unvaried, 7 here',
    ]);
  });
});
