// The tooling behind "a planted fault for every passed clause": the arithmetic on a made-up run, and the
// data it reads (every clause a fault or a reason names is catalogued; a clause with a fault needs no reason).
import { describe, expect, it } from 'vitest';
import {
  coverageLines,
  faultCoverage,
  passedClauses,
  passedInRecords,
  plantedFaultsByClause,
  withoutFaultOrReason,
} from '../../../scripts/dev/fault-coverage.ts';
import { noPlantedFaultReasons } from '../../../reference/catalog/no-planted-fault.ts';
import { clauseById } from '../../../reference/catalog/index.ts';

describe('fault coverage of passed clauses', () => {
  const byClause = new Map([
    ['rest:2.2.2', ['duplicate-create-overwrites']],
    ['node:2.2/maxPods', ['nodeagent:negative-max-pods']],
  ]);

  it('splits the passed clauses of each document into failed by a fault, excused, and neither', () => {
    const cov = faultCoverage(['rest:2.2.2', 'rest:7.1', 'rest:2.8', 'node:2.2/maxPods', 'node:2.2/port', 'rest:2.2.2'], byClause, {
      'rest:2.8': 'why',
    });
    expect(cov.rest).toEqual({ passed: 3, failedByFault: 1, excused: 1, missing: ['rest:7.1'] });
    expect(cov.node).toEqual({ passed: 2, failedByFault: 1, excused: 0, missing: ['node:2.2/port'] });
    expect(coverageLines(cov)).toEqual([
      'API clauses passed: 3; failed by a planted fault: 1 (33 %); no fault possible (catalogued): 1; neither: 1',
      'node clauses passed: 2; failed by a planted fault: 1 (50 %); no fault possible (catalogued): 0; neither: 1',
      '  no fault: rest:7.1',
      '  no fault: node:2.2/port',
    ]);
  });

  it('reads only passed clauses from a summary, and refuses what is not one', () => {
    const summary = {
      clauses: [
        { id: 'rest:7.1', status: 'passed' },
        { id: 'rest:2.8', status: 'notChecked' },
        { id: 'rest:2.2.2', status: 'failed' },
      ],
    };
    expect(passedClauses(summary)).toEqual(['rest:7.1']);
    expect(() => passedClauses({ verdict: 'conformant' })).toThrow('not a summary.json');
  });

  it('every clause a planted fault or a reason names is catalogued, and no clause has both', () => {
    const faulted = plantedFaultsByClause();
    expect([...faulted.keys()].filter((c) => clauseById(c) === undefined)).toEqual([]);
    expect(Object.keys(noPlantedFaultReasons).filter((c) => clauseById(c) === undefined)).toEqual([]);
    expect(Object.keys(noPlantedFaultReasons).filter((c) => faulted.has(c))).toEqual([]);
  });

  it('names the passed clauses of a run with neither a fault nor a reason (what the stable-coverage runs require empty)', () => {
    const records = [
      { clause: 'rest:2.2.2', verdict: 'pass' },
      { clause: 'rest:7.1', verdict: 'pass' },
      { clause: 'rest:2.8', verdict: 'pass' },
      { clause: 'rest:4.4.1', verdict: 'pass' },
      { clause: 'rest:4.4.1', verdict: 'fail' },
      { clause: 'rest:4.4.6', verdict: 'unspecified' },
    ];
    expect(passedInRecords(records)).toEqual(['rest:2.2.2', 'rest:7.1', 'rest:2.8']);
    expect(withoutFaultOrReason(passedInRecords(records), byClause, { 'rest:2.8': 'why' })).toEqual(['rest:7.1']);
    // The shipped data: a clause no fault names and no reason excuses is listed; a faulted or excused one is not.
    expect(withoutFaultOrReason(['rest:2.2.2', 'rest:4.2/healthz', 'node:2.2/maxPods'])).toEqual([]);
    expect(withoutFaultOrReason(['rest:0/no-such-clause'])).toEqual(['rest:0/no-such-clause']);
  });

  it('a fault of a whole family of clauses counts for its first clause only', () => {
    // lax-scalars may be reported under any scalar field: that shows some of them bite, not each one.
    const faulted = plantedFaultsByClause();
    expect(faulted.get('node:2.2/kind')).toContain('nodeagent:lax-scalars');
    expect(faulted.get('node:2.2/enableServer') ?? []).not.toContain('nodeagent:lax-scalars');
  });
});
