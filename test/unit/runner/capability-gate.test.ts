/**
 * What the capability map does to a run (runner/capability-gate.ts): a feature not served is one
 * record under its clause (a failure where the spec requires it, notServed where it does not), the
 * checks that need it are not run and their clauses are blocked, and the map's statuses fold into the
 * clause statuses as documented (runner/verdicts.ts).
 */
import { describe, expect, it } from 'vitest';
import { capabilityMapOf, type FeatureFinding } from '../../../reference/features.ts';
import { gateChecks, PROBE_CHECK } from '../../../runner/capability-gate.ts';
import { checkById, checks } from '../../../suites/checks/index.ts';
import { checksWithNeeds, featureNeedsOf } from '../../../suites/checks/feature-needs.ts';
import { clauseStatusOf } from '../../../runner/verdicts.ts';
import type { AnyCheck } from '../../../harness/case/check.ts';

const served = (id: FeatureFinding['feature']): FeatureFinding => ({ feature: id, state: 'served', evidence: 'ok' });
const absent = (id: FeatureFinding['feature']): FeatureFinding => ({ feature: id, state: 'notServed', evidence: `${id} answered 405` });
const pick = (...ids: string[]): AnyCheck[] => ids.map((id) => checkById(id)!);

describe('capability gate', () => {
  it('names only checks of the registry', () => {
    expect(checksWithNeeds().filter((id) => checkById(id) === undefined)).toEqual([]);
  });

  it('a full map runs every check and records nothing', () => {
    const g = gateChecks(checks, capabilityMapOf([served('put'), served('paging')]));
    expect(g.run).toHaveLength(checks.length);
    expect(g.records).toEqual([]);
  });

  it('PUT not served: the checks that need it are not run, their clauses blocked; rest:4.1/put fails once', () => {
    const selected = pick('crud-sequences', 'rv-cell-get-unset', 'paging-snapshot', 'names-and-scope');
    const g = gateChecks(selected, capabilityMapOf([absent('put')]));
    expect(g.run.map((c) => c.id)).toEqual(selected.filter((c) => !featureNeedsOf(c.id).includes('put')).map((c) => c.id));
    expect(g.run.map((c) => c.id)).toContain('names-and-scope');
    const blocked = g.records.filter((r) => r.verdict === 'blocked');
    expect(new Set(blocked.map((r) => r.check))).toEqual(new Set(['rv-cell-get-unset', 'paging-snapshot']));
    expect(blocked.every((r) => r.note?.startsWith('blocked by PUT of an object'))).toBe(true);
    const finding = g.records.filter((r) => r.check === PROBE_CHECK);
    expect(finding).toEqual([expect.objectContaining({ clause: 'rest:4.1/put', verdict: 'fail' })]);
    expect(finding[0]!.note).toContain('not served: PUT of an object (put answered 405)');
    expect(g.entries.find((e) => e.feature === 'put')?.blocks).toEqual(['rv-cell-get-unset', 'paging-snapshot']);
  });

  it('an optional feature not served is notServed under its clause, never a failure', () => {
    const g = gateChecks(pick('paging-snapshot'), capabilityMapOf([absent('paging')]));
    const finding = g.records.filter((r) => r.check === PROBE_CHECK);
    expect(finding.map((r) => [r.clause, r.verdict])).toEqual([['rest:4.4.5', 'notServed']]);
  });

  it('a finding the selection does not speak of is not recorded (a health run says nothing of PUT)', () => {
    const g = gateChecks(pick('health-endpoints'), capabilityMapOf([absent('put')]));
    expect(g.records).toEqual([]);
    expect(g.run).toHaveLength(1);
  });

  it('a served-wrongly or unknown feature blocks nothing: the checks judge it', () => {
    const g = gateChecks(
      pick('rv-cell-get-unset'),
      capabilityMapOf([{ feature: 'put', state: 'servedWrongly', evidence: 'PUT answered 500' }]),
    );
    expect(g.run).toHaveLength(1);
    expect(g.records).toEqual([]);
  });

  it('clause statuses: the failure of a required feature wins; notServed beats a pass; blocked yields to any verdict', () => {
    expect(clauseStatusOf(['blocked', 'fail'], false)).toBe('failed');
    expect(clauseStatusOf(['pass', 'notServed'], false)).toBe('notServed');
    expect(clauseStatusOf(['blocked', 'pass'], false)).toBe('passed');
    expect(clauseStatusOf(['blocked', 'inconclusive'], false)).toBe('inconclusive');
    expect(clauseStatusOf(['blocked', 'notChecked'], false)).toBe('blocked');
  });
});

describe('a run whose watches deliver nothing within its bound', () => {
  it('is not tested, never conformant: delivery is required, but a silent stream cannot fail it', async () => {
    const { buildRunResult } = await import('../../../reports/aggregate.ts');
    const { catalog } = await import('../../../reference/catalog/index.ts');
    const g = gateChecks(pick('watch-cell-unset', 'names-and-scope'), capabilityMapOf([absent('watch-delivery')]));
    const base = {
      catalog,
      profile: 'svc',
      seed: 1,
      server: 'http://x',
      nodeagentLoader: null,
      startedAt: '2026-11-28T00:00:00Z',
      durationMs: 1,
      version: '0',
      errors: [],
    };
    const records = [...g.records, { clause: 'rest:2.2.3' as const, check: 'names-and-scope', verdict: 'pass' as const, count: 1 }];
    const r = buildRunResult({ ...base, records, capabilities: g.entries });
    expect(r.clauses.find((c) => c.id === 'rest:6.1.1')?.status).toBe('notServed');
    expect(r.verdict).toBe('notTested');
    expect(r.notTested?.[0]).toMatch(/^not served within the run's bound: watch delivery of a later write/);
    // The same run with delivery served is conformant: the line comes from the finding alone.
    expect(buildRunResult({ ...base, records }).verdict).toBe('conformant');
    // A clause no check that ran reached names the blocking, not "no check reached it" alone.
    expect(r.clauses.find((c) => c.id === 'rest:6.1/ADDED')?.notes).toEqual([
      'no check that ran reached it; 1 check was not run, blocked by watch-delivery not served (a check may judge clauses beyond those it declares)',
    ]);
    expect(buildRunResult({ ...base, records }).clauses.find((c) => c.id === 'rest:6.1/ADDED')?.notes[0]).toMatch(
      /^no check of this run reached it/,
    );
  });
});
