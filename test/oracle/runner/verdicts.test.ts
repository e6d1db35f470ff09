// Why: one verdict vocabulary with one mapping to the report statuses; the fold of several records of a
// clause keeps its order of strength (a failure anywhere disproves the clause).
import { describe, expect, it } from 'vitest';
import { CLAUSE_STATUS_OF, checkOutcomeKind, clauseStatusOf, junitOutcome } from '../../../runner/verdicts.ts';

describe('verdict vocabulary', () => {
  it('folds records of a clause, strongest first', () => {
    expect(clauseStatusOf(['pass', 'fail', 'pass'], false)).toBe('failed');
    expect(clauseStatusOf(['error', 'pass'], false)).toBe('error');
    expect(clauseStatusOf(['unspecified', 'pass'], false)).toBe('passed');
    expect(clauseStatusOf(['skipped', 'notChecked'], false)).toBe('skipped');
    expect(clauseStatusOf(['inconclusive', 'notChecked'], false)).toBe('inconclusive');
    expect(clauseStatusOf([], false)).toBe('notChecked');
    expect(clauseStatusOf(['fail'], true)).toBe('unspecified');
  });

  it('maps every record verdict to a clause status of the same name', () => {
    expect(Object.entries(CLAUSE_STATUS_OF).map(([v, s]) => `${v}->${s}`)).toEqual([
      'pass->passed',
      'fail->failed',
      'unspecified->unspecified',
      'inconclusive->inconclusive',
      'skipped->skipped',
      'notChecked->notChecked',
      'error->error',
      'notServed->notServed',
      'blocked->blocked',
    ]);
  });

  it('JUnit: a known failure is skipped, an unknown one a failure', () => {
    expect(junitOutcome('failed', false)).toBe('failure');
    expect(junitOutcome('failed', true)).toBe('skipped');
    expect(junitOutcome('unspecified', false)).toBe('pass');
    expect(junitOutcome('informative', false)).toBe('skipped');
  });

  it("a check's line: its worst record decides", () => {
    expect(checkOutcomeKind(['pass', 'error', 'fail'])).toBe('failed');
    expect(checkOutcomeKind(['pass', 'error'])).toBe('error');
    expect(checkOutcomeKind(['notChecked', 'skipped'])).toBe('notChecked');
    expect(checkOutcomeKind(['pass', 'notChecked'])).toBe('passed');
  });
});
