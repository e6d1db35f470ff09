// Why: the measurement that calls a reproducer wrong must itself be right: 0 against the fault or 1
// against a clean server is wrong whatever else it did, and a node test (which cannot say "undecided":
// it fails) contradicts its script only where one says "failing" and the other "gone".
import { describe, expect, it } from 'vitest';
import { contradicts, outcomeOf } from '../../../scripts/dev/reproducer-outcomes.ts';

describe('reproducer outcomes', () => {
  it('wrong: 0 against the fault or 1 against a clean server; right only 1/0; 3 on either side undecided', () => {
    expect(outcomeOf(1, 0)).toBe('right');
    expect(outcomeOf(0, 0)).toBe('wrong');
    expect(outcomeOf(1, 1)).toBe('wrong');
    expect(outcomeOf(1, 3)).toBe('undecided');
    expect(outcomeOf(3, 0)).toBe('undecided');
    expect(outcomeOf(2, 2)).toBe('could not run');
  });

  it('a node test contradicts its script only with the opposite decision', () => {
    expect(contradicts('behaves', 1)).toBe(true);
    expect(contradicts('failing', 0)).toBe(true);
    expect(contradicts('behaves', 0)).toBe(false);
    expect(contradicts('failing', 1)).toBe(false);
    // A late watch may be undecided in one run and decided in the other.
    expect(contradicts('undecided', 0)).toBe(false);
    expect(contradicts('undecided', 1)).toBe(false);
    expect(contradicts('behaves', 3)).toBe(false);
    expect(contradicts('failing', 3)).toBe(false);
  });
});
