// The apply model's invariants over generated configmaps sequences (see sequence-invariants.ts).
import { describe, it } from 'vitest';
import { assertSequenceInvariants } from './sequence-invariants.ts';

describe('apply model invariants over generated sequences', () => {
  it('configmaps: owned fields exist, entries non-empty and round-trip, force never conflicts, re-apply is a no-op', () => {
    assertSequenceInvariants('configmaps');
  });
});
