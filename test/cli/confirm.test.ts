// Why (issue 19 item 5): a nightly failure is replayed before anyone is paged; the label must say
// "deterministic" only when every replay failed again under the same clause.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { confirmFailures } from '../../scripts/confirm-failures.ts';
import { confirmationLabel } from '../../reports/confirmation.ts';
import type { CheckRecord } from '../../harness/results.ts';
import { Ajv } from 'ajv';
import { summaryJsonSchema } from '../../reports/summary-schema.ts';

const failing = (clause: string, pathText?: string) => ({ clause, check: 'c', verdict: 'fail', count: 1, counterexample: { check: 'c', clause, expected: 'e', observed: 'o', steps: [], curl: '', requestCount: 1, seed: 1, replay: 'r', ...(pathText ? { path: pathText } : {}) } }) as unknown as CheckRecord;

describe('confirmFailures', () => {
  it('counts the replays that fail the same clause again, and labels them', async () => {
    let n = 0;
    const flaky = async () => (n++ % 2 === 0 ? [failing('rest:4.4.3')] : [failing('rest:4.4.6')]);
    const [f] = await confirmFailures([failing('rest:4.4.3', '0:1')], 4, flaky, () => undefined);
    expect(f!.counterexample!.confirmation).toEqual({ runs: 4, reproduced: 2 });
    expect(confirmationLabel({ runs: 4, reproduced: 2 })).toMatch(/^flaky/);
    const [d] = await confirmFailures([failing('rest:4.4.3', '0:1')], 3, async () => [failing('rest:4.4.3')], () => undefined);
    expect(confirmationLabel(d!.counterexample!.confirmation!)).toBe('deterministic (3/3 replays failed again)');
    const [none] = await confirmFailures([failing('rest:4.4.3', '0:1')], 2, async () => [], () => undefined);
    expect(confirmationLabel(none!.counterexample!.confirmation!)).toMatch(/^not reproduced/);
  });

  it('leaves a failure without a path as it is (nothing to replay)', async () => {
    const [f] = await confirmFailures([failing('rest:4.4.3')], 2, async () => { throw new Error('not replayed'); }, () => undefined);
    expect(f!.counterexample!.confirmation).toBeUndefined();
  });
});

describe('run --confirm', () => {
  it('a planted fault is replayed and reported deterministic in summary.json and summary.md', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'confirm-'));
    const bin = path.resolve(import.meta.dirname, '../../bin/svc-conformance.mjs');
    const r = spawnSync(process.execPath, [bin, 'run', '--check', 'paging-snapshot', '--fault', 'page-rv-drift', '--seed', '7', '--runs', '20', '--confirm', '2', '--reports', dir], { encoding: 'utf8', timeout: 240_000 });
    expect(r.status, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { clauses: { status: string; counterexamples: { confirmation?: unknown }[] }[] };
    const failed = summary.clauses.filter((c) => c.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.counterexamples[0]!.confirmation).toEqual({ runs: 2, reproduced: 2 });
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('deterministic (2/2 replays failed again)');
    // The published schema of summary.json holds for a real one (a failure, its confirmation, footprint, coverage).
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).addFormat('date-time', true).compile(summaryJsonSchema);
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    expect(summary).toHaveProperty('footprint');
  }, 300_000);
});
