import { describe, expect, it } from 'vitest';
import { unreachedClauses, unreachedInRun } from '../../../reports/coverage.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const record = (check: string, clause: string, verdict: CheckRecord['verdict']): CheckRecord => ({
  check,
  clause: clause as CheckRecord['clause'],
  verdict,
  count: 1,
});
const checks = [
  { id: 'paging', clauses: ['rest:4.4.1', 'rest:4.4.3'] },
  { id: 'watch', clauses: ['rest:6.1.1'] },
];

describe('unreachedClauses', () => {
  it('counts pass, fail, unspecified, inconclusive and error as reached', () => {
    const records = [
      record('paging', 'rest:4.4.1', 'pass'),
      record('paging', 'rest:4.4.3', 'inconclusive'),
      record('watch', 'rest:6.1.1', 'error'),
    ];
    expect(unreachedClauses(checks, records)).toEqual([]);
  });

  it('names a clause left notChecked or skipped, and one never recorded', () => {
    const records = [record('paging', 'rest:4.4.1', 'notChecked'), record('watch', 'rest:6.1.1', 'skipped')];
    expect(unreachedClauses(checks, records)).toEqual(['paging: rest:4.4.1', 'paging: rest:4.4.3', 'watch: rest:6.1.1']);
  });

  it('holds each check to its own clauses: another check reaching the clause does not count', () => {
    const records = [
      record('paging', 'rest:4.4.1', 'pass'),
      record('paging', 'rest:4.4.3', 'pass'),
      record('paging', 'rest:6.1.1', 'pass'),
    ];
    expect(unreachedClauses(checks, records)).toEqual(['watch: rest:6.1.1']);
  });
});

describe('unreachedInRun', () => {
  it('counts a clause reached by any check of the run, and names each unreached clause once', () => {
    const both = [...checks, { id: 'paging-2', clauses: ['rest:4.4.3', 'rest:4.4.6'] }];
    expect(unreachedInRun(both, [record('watch', 'rest:4.4.1', 'pass'), record('paging', 'rest:6.1.1', 'unspecified')])).toEqual([
      'rest:4.4.3',
      'rest:4.4.6',
    ]);
  });

  it('a clause only notChecked or skipped is unreached', () => {
    expect(
      unreachedInRun(checks, [
        record('paging', 'rest:4.4.1', 'notChecked'),
        record('paging', 'rest:4.4.3', 'skipped'),
        record('watch', 'rest:6.1.1', 'fail'),
      ]),
    ).toEqual(['rest:4.4.1', 'rest:4.4.3']);
  });
});
