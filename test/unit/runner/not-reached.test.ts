// Why: a clause a failing check could not reach names the failure that stopped its
// cases, how many of the later cases it stopped, and the cases the time bound left out; never "no
// check of this run reached it" (the CLI run against health-verbose-unmarked shows it end to end:
// test/oracle/cli/verdict-rules.test.ts).
import { describe, expect, it } from 'vitest';
import { NOT_REACHED, notReachedNote } from '../../../runner/run-check.ts';

describe('notReachedNote', () => {
  it('names the failure and what the later cases did', () => {
    expect(notReachedNote('health-endpoints', ['rest:4.2/verbose'], 14, 14)).toBe(
      'not reached: health-endpoints failed rest:4.2/verbose, and 14 of its 14 later cases stopped at that failure before judging this clause',
    );
    expect(notReachedNote('c', ['a', 'b'], 5, 2)).toMatch(
      /^not reached: c failed a, b, and 2 of its 5 later cases .* \(the others drew no case of it\)$/,
    );
    expect(notReachedNote('c', ['a'], 0, 0, undefined, 7)).toMatch(
      /and no later case of it ran; 7 later cases did not run \(going on past a failure may take as long as finding it took, at least 10 s/,
    );
    expect(notReachedNote('c', ['a'], 3, 1, 'infrastructure: GET /x answered 503')).toMatch(
      /; its later cases ended: infrastructure: GET \/x answered 503$/,
    );
    expect(notReachedNote('c', ['a'], 1, 1).startsWith(NOT_REACHED)).toBe(true);
  });
});
