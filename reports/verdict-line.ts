/**
 * The verdict as one line with how much was judged, the same in the terminal, summary.md and
 * summary.json (`verdictLine`):
 *
 *   nonconformant: 3 failures, 310 clauses judged
 *   nonconformant: 1 failure, 1 clause judged; incomplete: judged too little
 *   conformant: 519 clauses judged
 *
 * A clause is judged when the run decided it: passed, unspecified, or failed beyond the expectations
 * file (a known failure decides nothing new). Counts that other parts of a run add (features not
 * served, clauses blocked by them) go in as further parts through `judgedParts`.
 */
import type { ClauseResult, RunResult } from '../runner/results.ts';
import { verdictText } from './scorecard.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Passed, unspecified, or failed beyond the expectations file. */
export function isJudged(c: ClauseResult): boolean {
  return c.status === 'passed' || c.status === 'unspecified' || (c.status === 'failed' && c.expectedFailure !== true);
}

/**
 * The figures after the verdict, in order: failures (when any), features the capability probe found
 * not served and the clauses blocked by them (when any; docs/capability-map.md), clauses judged.
 */
export function judgedParts(run: Pick<RunResult, 'clauses'> & Partial<Pick<RunResult, 'capabilities'>>): string[] {
  const failures = run.clauses.filter((c) => c.status === 'failed' && c.expectedFailure !== true).length;
  const notServed = (run.capabilities ?? []).filter((e) => e.state === 'notServed').length;
  const blocked = run.clauses.filter((c) => c.status === 'blocked').length;
  return [
    ...(failures > 0 ? [plural(failures, 'failure', 'failures')] : []),
    ...(notServed > 0
      ? [
          plural(notServed, 'feature not served', 'features not served'),
          plural(blocked, 'clause blocked by them', 'clauses blocked by them'),
        ]
      : []),
    plural(run.clauses.filter(isJudged).length, 'clause judged', 'clauses judged'),
  ];
}

export function verdictHeadline(
  run: Pick<RunResult, 'verdict' | 'clauses' | 'incomplete'> & Partial<Pick<RunResult, 'capabilities'>>,
): string {
  const incomplete = run.incomplete !== undefined ? `; incomplete: ${run.incomplete.because.join(', ')}` : '';
  return `${verdictText(run.verdict)}: ${judgedParts(run).join(', ')}${incomplete}`;
}
