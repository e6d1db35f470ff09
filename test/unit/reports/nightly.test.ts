// Why: a nightly user shards a run, merges it back, compares with last night and reads a step summary;
// each of those must say exactly what one unsharded run would have said.
import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { compareWithBaseline, baselineClauses } from '../../../reports/baseline.ts';
import { toMarkdownSummary } from '../../../reports/markdown.ts';
import { mergeSummaries, parseShard, shardOf } from '../../../reports/merge.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { catalog, cx, rec } from './fixtures.ts';
import { HOSTILE, sampleRun } from './sample-run.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const runOf = (records: CheckRecord[], seed = 42) =>
  buildRunResult({
    records,
    catalog,
    profile: 'svc',
    seed,
    server: 'http://x',
    nodeagentLoader: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1000,
    version: '0',
    errors: [],
  });

describe('shards', () => {
  it('split the checks deterministically and completely, each check in exactly one shard', () => {
    const items = Array.from({ length: 11 }, (_, i) => `c${i}`);
    const parts = [1, 2, 3].map((i) => shardOf(items, i, 3));
    expect(parts.flat().sort()).toEqual([...items].sort());
    expect(new Set(parts.flat()).size).toBe(items.length);
    expect(shardOf(items, 2, 3)).toEqual(shardOf(items, 2, 3));
  });

  it('parse i/n only within bounds', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3']) expect(parseShard(bad)).toBeUndefined();
  });
});

describe('mergeSummaries', () => {
  const records: CheckRecord[] = [
    rec('rest:4.4.3', 'pass', { check: 'a', count: 3 }),
    rec('rest:4.4.3', 'fail', { check: 'b', counterexample: cx() }),
    rec('rest:4.4.9', 'unspecified', { check: 'a', note: 'n' }),
    rec('rest:4.5/list/unset/limit-continue/other', 'pass', { check: 'b', count: 2 }),
  ];

  it("gives the clause statuses and totals of one run over the union of the shards' records", () => {
    const whole = runOf(records);
    const shardA = runOf(records.filter((r) => r.check === 'a'));
    const shardB = runOf(records.filter((r) => r.check === 'b'));
    const merged = mergeSummaries([
      { file: 'a', summary: toSummary(shardA) },
      { file: 'b', summary: toSummary(shardB) },
    ]);
    expect(merged.clauses.map((c) => [c.id, c.status, c.checks])).toEqual(whole.clauses.map((c) => [c.id, c.status, c.checks]));
    expect(merged.totals).toEqual(whole.totals);
    expect(merged.verdict).toBe('nonconformant');
  });

  it('refuses shards of different seeds: they are different runs', () => {
    expect(() =>
      mergeSummaries([
        { file: 'a', summary: toSummary(runOf(records, 1)) },
        { file: 'b', summary: toSummary(runOf(records, 2)) },
      ]),
    ).toThrow(/seed 2/);
  });
});

describe('compareWithBaseline', () => {
  it('separates new failures, fixed, still failing and lost coverage', () => {
    const before = [
      { id: 'rest:4.4.3', status: 'failed' as const },
      { id: 'rest:4.4.6', status: 'passed' as const },
      { id: 'rest:4.4.9', status: 'unspecified' as const },
      { id: 'node:2.2/maxPods', status: 'passed' as const },
    ];
    const d = compareWithBaseline(sampleRun(), before);
    expect(d.stillFailing).toEqual(['rest:4.4.3']);
    expect(d.newFailures).toEqual(['rest:4.4.6']);
    expect(d.fixed).toEqual([]);
    const now = runOf([rec('rest:4.4.3', 'pass'), rec('rest:4.4.6', 'pass')]);
    const d2 = compareWithBaseline(now, before);
    expect(d2.fixed).toEqual(['rest:4.4.3']);
    expect(d2.newlyNotChecked).toEqual(['rest:4.4.9', 'node:2.2/maxPods']);
  });

  it('reads a summary.json and names what is wrong with one that is not', () => {
    expect(baselineClauses(toSummary(sampleRun()), 'f').length).toBe(catalog.length);
    expect(() => baselineClauses({ nope: 1 }, 'f.json')).toThrow(/f\.json: not a summary\.json/);
  });
});

describe('summary.md', () => {
  it('leads with the verdict, lists each regression with its replay, keeps known failures apart', () => {
    const md = toMarkdownSummary(sampleRun({ expectations: { knownFailures: [{ clause: 'rest:4.4.6', reason: 'r' }] } }));
    expect(md.split('\n')[0]).toMatch(
      /^## .* svc-conformance: nonconformant: 1 failure, 3 clauses judged · https:\/\/127\.0\.0\.1:6443 \(kubeconfig \/home\/u\/\.kube\/config, context prod\)$/,
    );
    expect(md).toMatch(/### Failed beyond expectations \(1\)[\s\S]*`rest:4\.4\.3`[\s\S]*npx svc-conformance run/);
    expect(md).toMatch(/Known failures \(1\): excused by the expectations file \(not counted as failures\)[\s\S]*rest:4\.4\.6/);
    // Counted apart: 1 failed beyond expectations, 1 known, and the known one in no failed section.
    expect(md).toContain('| failed beyond expectations | known failures | passed |');
    expect(md).toContain('| 1 | 1 | 1 |');
    expect(md.slice(md.indexOf('### Failed'), md.indexOf('Known failures (1)'))).not.toContain('rest:4.4.6');
  });

  it('keeps hostile text inside its table cell', () => {
    const md = toMarkdownSummary(sampleRun({ hostile: true }));
    const failedRows = md.split('\n').filter((l) => l.startsWith('| `rest:4.4.3`'));
    expect(failedRows).toHaveLength(1);
    expect(HOSTILE.includes('|')).toBe(false);
    expect(toMarkdownSummary(runOf([rec('rest:4.4.3', 'fail', { counterexample: cx({ observed: 'a | b\nc' }) })]))).toContain('a \\| b c');
  });
});
