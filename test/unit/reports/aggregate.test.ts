import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../../runner/results.ts';
import {
  aggregate,
  buildRunResult,
  MAX_COUNTEREXAMPLES,
  MAX_NOTES,
  NO_CHECK_RAN,
  NOT_IN_CATALOG,
  unknownClauseIds,
} from '../../../reports/aggregate.ts';
import type { Clause } from '../../../reference/catalog/types.ts';
import { catalog, cx, fakeId, rec } from './fixtures.ts';

const run = (over: Partial<Parameters<typeof buildRunResult>[0]> = {}) =>
  buildRunResult({
    records: [],
    catalog,
    profile: 'svc',
    seed: 7,
    server: 'https://127.0.0.1:6443',
    nodeagentLoader: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1234,
    version: '0.1.0',
    errors: [],
    ...over,
  });

describe('aggregate: status precedence', () => {
  const normative: Clause = { id: 'rest:1.1', doc: 'rest', section: '1', summary: 's', kind: 'normative' };
  const unspec: Clause = { ...normative, id: 'rest:1.2', kind: 'unspecified' };
  const cases: { verdicts: Verdict[]; clause: Clause; status: string; why: string }[] = [
    { verdicts: [], clause: normative, status: 'notChecked', why: 'no record at all' },
    { verdicts: ['pass', 'fail', 'pass'], clause: normative, status: 'failed', why: 'one failure outweighs passes' },
    { verdicts: ['fail', 'error'], clause: normative, status: 'failed', why: 'a failure beats an error' },
    { verdicts: ['error'], clause: normative, status: 'error', why: 'error only' },
    { verdicts: ['pass', 'error'], clause: normative, status: 'error', why: 'an error means we cannot vouch' },
    { verdicts: ['unspecified', 'pass'], clause: normative, status: 'passed', why: 'a judged pass beats a note' },
    { verdicts: ['unspecified'], clause: normative, status: 'unspecified', why: 'unspecified only' },
    { verdicts: ['inconclusive'], clause: normative, status: 'inconclusive', why: 'asked, but nothing decided it: never a pass' },
    { verdicts: ['inconclusive', 'pass'], clause: normative, status: 'passed', why: 'one judged case decides it' },
    { verdicts: ['inconclusive', 'fail'], clause: normative, status: 'failed', why: 'a failure outweighs an undecided case' },
    { verdicts: ['inconclusive', 'notChecked'], clause: normative, status: 'inconclusive', why: 'asked beats never asked' },
    { verdicts: ['notChecked', 'skipped'], clause: normative, status: 'skipped', why: 'skipped beats not checked' },
    { verdicts: ['notChecked'], clause: normative, status: 'notChecked', why: 'explicitly not checked' },
    { verdicts: ['pass'], clause: unspec, status: 'unspecified', why: 'unspecified kind is never judged' },
    { verdicts: ['fail', 'pass'], clause: unspec, status: 'unspecified', why: 'not even by a failing check' },
    { verdicts: ['error'], clause: unspec, status: 'error', why: 'infrastructure trouble still shows' },
    { verdicts: [], clause: unspec, status: 'notChecked', why: 'unspecified kind with no record' },
  ];
  it.each(cases)('$verdicts on a $clause.kind clause -> $status ($why)', ({ verdicts, clause, status }) => {
    const [result] = aggregate(
      verdicts.map((v) => rec(clause.id, v)),
      [clause],
    );
    expect(result?.status).toBe(status);
    expect(result?.checks).toBe(verdicts.length);
  });
});

describe('aggregate: per clause content', () => {
  it('returns one result per catalog clause, in catalog order, with catalog section and summary', () => {
    const results = aggregate([rec('node:2.2/maxPods', 'pass')], catalog);
    expect(results.map((r) => r.id)).toEqual(catalog.map((c) => c.id));
    expect(results[4]).toMatchObject({ section: '2.2', summary: 'maxPods defaults to 110', status: 'passed' });
  });

  it('sums counts into checks', () => {
    const [r] = aggregate([rec('rest:4.4.3', 'pass', { count: 120 }), rec('rest:4.4.3', 'pass', { count: 3 })], catalog);
    expect(r?.checks).toBe(123);
  });

  it('dedupes counterexamples by check and observed, keeping the smallest, smallest first', () => {
    const records = [
      rec('rest:4.4.3', 'fail', { counterexample: cx({ requestCount: 9 }) }),
      rec('rest:4.4.3', 'fail', { counterexample: cx({ requestCount: 3 }) }),
      rec('rest:4.4.3', 'fail', { counterexample: cx({ requestCount: 5, observed: 'other' }) }),
    ];
    const [r] = aggregate(records, catalog);
    expect(r?.counterexamples.map((c) => c.requestCount)).toEqual([3, 5]);
  });

  it('caps counterexamples per clause', () => {
    const records = [8, 7, 6, 5, 4, 3, 2].map((n) =>
      rec('rest:4.4.3', 'fail', { counterexample: cx({ requestCount: n, observed: `o${n}` }) }),
    );
    const [r] = aggregate(records, catalog);
    expect(r?.counterexamples.map((c) => c.requestCount)).toEqual([2, 3, 4, 5, 6]);
    expect(r?.counterexamples).toHaveLength(MAX_COUNTEREXAMPLES);
  });

  it('dedupes and caps notes', () => {
    const notes = ['a', 'a', 'b', ...Array.from({ length: 20 }, (_, i) => `n${i}`)];
    const [, , r] = aggregate(
      notes.map((note) => rec('rest:4.4.9', 'unspecified', { note })),
      catalog,
    );
    expect(r?.notes).toHaveLength(MAX_NOTES);
    expect(r?.notes.slice(0, 3)).toEqual(['a', 'b', 'n0']);
    expect(r?.notes[MAX_NOTES - 1]).toBe('(13 more notes not shown)');
  });

  it('keeps records for ids not in the catalog visible, and reports them', () => {
    const records = [rec('rest:99.1', 'fail', { counterexample: cx({ clause: fakeId('rest:99.1') }) }), rec('rest:4.4.3', 'pass')];
    expect(unknownClauseIds(records, catalog)).toEqual(['rest:99.1']);
    const results = aggregate(records, catalog);
    expect(results).toHaveLength(catalog.length + 1);
    expect(results.at(-1)).toMatchObject({ id: 'rest:99.1', summary: NOT_IN_CATALOG, status: 'failed' });
    expect(unknownClauseIds([rec('rest:4.4.3', 'pass')], catalog)).toEqual([]);
    // A failure on an unknown id is still a failure: it must not pass silently.
    expect(run({ records }).verdict).toBe('nonconformant');
  });
});

describe('buildRunResult: verdict and totals', () => {
  it('is conformant when nothing failed or errored', () => {
    const r = run({ records: [rec('rest:4.4.3', 'pass'), rec('rest:4.4.9', 'unspecified', { note: 'sent 3 of 5' })] });
    expect(r.verdict).toBe('conformant');
    expect(r.totals).toEqual({
      passed: 1,
      failed: 0,
      known: 0,
      unspecified: 1,
      inconclusive: 0,
      skipped: 0,
      notChecked: 3,
      informative: 1,
      error: 0,
      notServed: 0,
      blocked: 0,
    });
    expect(r).toMatchObject({
      tool: 'svc-conformance',
      seed: 7,
      profile: 'svc',
      target: { server: 'https://127.0.0.1:6443', nodeagentLoader: null },
    });
  });

  it('is error on a run error or a clause error, with no failure', () => {
    expect(run({ errors: ['connection refused'] }).verdict).toBe('error');
    expect(run({ records: [rec('rest:4.4.3', 'error')] }).verdict).toBe('error');
  });

  it('is nonconformant on a failure even with infrastructure errors', () => {
    const r = run({ records: [rec('rest:4.4.3', 'fail'), rec('rest:4.4.6', 'error')], errors: ['timeout'] });
    expect(r.verdict).toBe('nonconformant');
    expect(r.totals).toMatchObject({ failed: 1, error: 1 });
    expect(r.errors).toEqual(['timeout']);
  });

  it('counts every clause exactly once in the totals', () => {
    const r = run({ records: [rec('rest:4.4.3', 'fail'), rec('rest:4.4.6', 'skipped'), rec('x:1', 'pass')] });
    const sum = Object.values(r.totals).reduce((a, b) => a + b, 0);
    expect(sum).toBe(r.clauses.length);
    expect(r.clauses).toHaveLength(catalog.length + 1);
  });
});

describe('clauses without a verdict say why', () => {
  it("shows an informative clause as informative with its reason, and a gap with the catalog's reason or the generic one", () => {
    const results = aggregate(
      [rec('rest:4.4.3', 'pass')],
      [
        ...catalog,
        {
          id: fakeId('rest:9.9'),
          doc: 'rest',
          section: '4.4',
          summary: 'a clause no check names',
          kind: 'normative',
          notCheckedWhy: 'needs a hook',
        },
      ],
    );
    expect(results.find((c) => c.id === 'node:1')).toMatchObject({ status: 'informative', notes: ['an overview: nothing to judge'] });
    expect(results.find((c) => c.id === 'rest:9.9')).toMatchObject({ status: 'notChecked', notes: ['needs a hook'] });
    expect(results.find((c) => c.id === 'rest:4.4.6')).toMatchObject({ status: 'notChecked', notes: [NO_CHECK_RAN] });
  });

  it('keeps the reason a check gave, and the verdict a check reached on an informative clause', () => {
    const results = aggregate(
      [rec('rest:4.4.6', 'notChecked', { note: 'run timeout: check a did not finish' }), rec('node:1', 'pass')],
      catalog,
    );
    expect(results.find((c) => c.id === 'rest:4.4.6')?.notes).toEqual(['run timeout: check a did not finish']);
    expect(results.find((c) => c.id === 'node:1')?.status).toBe('passed');
  });
});
