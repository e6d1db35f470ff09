import { describe, expect, it } from 'vitest';
import { toSummaryJson } from '../../../reports/summary-json.ts';
import { catalog, familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';
import { summaryValidator } from './summary-validator.ts';

// docs/architecture.md "Reports and exit codes": CI scripts parse these keys; each one is pinned here on purpose.
const TOP_KEYS = ['tool', 'version', 'profile', 'seed', 'verdict', 'target', 'totals', 'clauses'];
const TOTAL_KEYS = ['passed', 'failed', 'unspecified', 'skipped', 'notChecked'];
const CLAUSE_KEYS = ['id', 'section', 'summary', 'status', 'checks', 'counterexamples'];

describe('summary.json', () => {
  const run = sampleRun();
  const parsed = JSON.parse(toSummaryJson(run, { catalog, familyOf })) as Record<string, unknown>;

  it('has the documented keys first, in order, with the documented types', () => {
    expect(Object.keys(parsed).slice(0, TOP_KEYS.length)).toEqual(TOP_KEYS);
    expect(parsed.tool).toBe('svc-conformance');
    expect(parsed.version).toBe('0.1.0');
    expect(parsed.profile).toBe('svc');
    expect(parsed.seed).toBe(42);
    expect(parsed.verdict).toBe('nonconformant');
    // The documented two first; kind, description and the reported version after them.
    expect(parsed.target).toEqual({
      server: 'https://127.0.0.1:6443',
      nodeagentLoader: null,
      kind: 'external',
      description: 'https://127.0.0.1:6443 (kubeconfig /home/u/.kube/config, context prod)',
      reportedVersion: 'v1.24.3',
    });
  });

  it('has every documented total, counting clauses by status', () => {
    const totals = parsed.totals as Record<string, number>;
    for (const k of TOTAL_KEYS) expect(typeof totals[k], k).toBe('number');
    expect(totals).toEqual({
      passed: 1,
      failed: 2,
      known: 0,
      unspecified: 1,
      inconclusive: 0,
      skipped: 0,
      notChecked: 0,
      informative: 1,
      error: 1,
      notServed: 0,
      blocked: 0,
    });
  });

  it('has every documented clause key with real values', () => {
    const clauses = parsed.clauses as Record<string, unknown>[];
    expect(clauses).toHaveLength(catalog.length);
    for (const c of clauses) expect(Object.keys(c).slice(0, CLAUSE_KEYS.length)).toEqual(CLAUSE_KEYS);
    expect(clauses[0]).toMatchObject({ id: 'rest:4.4.3', section: '4.4', status: 'failed', checks: 15 });
    const cxs = clauses[0]?.counterexamples as Record<string, unknown>[];
    expect(cxs).toHaveLength(1);
    expect(cxs[0]).toMatchObject({
      check: 'paging-continue',
      seed: 42,
      requestCount: 4,
      steps: ['create a', 'create b', 'list limit=1', 'list continue=T'],
    });
    expect(clauses.find((c) => c.id === 'rest:4.4.9')).toMatchObject({ status: 'unspecified', notes: ['returned 3 items for limit=5'] });
  });

  it('uses only documented verdict and status words', () => {
    expect(['conformant', 'nonconformant', 'error']).toContain(parsed.verdict);
    // `error` is the one status beyond DESIGN's list (infrastructure trouble on a clause).
    // `informative`: a clause the catalog says no black-box test can judge.
    const allowed = ['passed', 'failed', 'unspecified', 'inconclusive', 'skipped', 'notChecked', 'informative', 'error'];
    for (const c of parsed.clauses as { status: string }[]) expect(allowed).toContain(c.status);
  });

  it('carries the extras: time, errors and a coverage block of normative clauses judged', () => {
    expect(parsed).toMatchObject({ startedAt: '2025-01-02T03:04:05.000Z', durationMs: 61500, errors: [] });
    // rest normative: 4.4.3 failed, 4.4.6 failed, 4.5 passed; node: maxPods error (judged), overview
    // informative: counted apart from the gaps, never as a normative clause left unchecked.
    const f = (checked: number, normative: number, verdicts: number, informative: number, clauses: number) => ({
      checked,
      normative,
      verdicts,
      informative,
      notChecked: clauses - verdicts - informative,
      clauses,
    });
    expect(parsed.coverage).toEqual({
      docs: { rest: f(3, 3, 4, 0, 4), node: f(1, 1, 1, 1, 2) },
      areas: {
        'rest:4.4 paging': { doc: 'rest', ...f(2, 2, 3, 0, 3) },
        'rest:4.5 resource versions': { doc: 'rest', ...f(1, 1, 1, 0, 1) },
        'node:1 overview': { doc: 'node', ...f(0, 0, 0, 1, 1) },
        'node:2.2 defaults': { doc: 'node', ...f(1, 1, 1, 0, 1) },
      },
    });
  });

  it('leaves coverage out without a catalog', () => {
    expect(JSON.parse(toSummaryJson(run))).not.toHaveProperty('coverage');
  });
});

describe('docs/schemas/summary.schema.json', () => {
  const validate = summaryValidator();
  const summary = JSON.parse(toSummaryJson(sampleRun(), { catalog, familyOf })) as Record<string, unknown>;

  it('accepts the summaries the tool writes, and extras after the documented keys', () => {
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...summary, shard: '1/2' })).toBe(true);
  });

  it('refuses a summary missing a documented key, with an unknown verdict or status, or a counterexample without its replay', () => {
    const { verdict: _verdict, ...noVerdict } = summary;
    expect(validate(noVerdict)).toBe(false);
    expect(validate({ ...summary, verdict: 'passed' })).toBe(false);
    const clauses = summary['clauses'] as Record<string, unknown>[];
    expect(validate({ ...summary, clauses: [{ ...clauses[0], status: 'ok' }] })).toBe(false);
    const failed = clauses.find((c) => (c['counterexamples'] as unknown[]).length > 0)!;
    const cex = (failed['counterexamples'] as Record<string, unknown>[])[0]!;
    const { replay: _replay, ...noReplay } = cex;
    expect(validate({ ...summary, clauses: [{ ...failed, counterexamples: [noReplay] }] })).toBe(false);
  });
});
