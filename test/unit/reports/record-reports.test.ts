// The reports of a run made from its record (reports/record-reports.ts): everything the writer takes
// besides the judgement comes out of the recorded run, the `--baseline` statuses and the expectations
// included, so `rejudge` writes the same files as the run did.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readRunRecord, RECORD_FILE } from '../../../reports/run-record.ts';
import { reportExtrasOf } from '../../../reports/record-reports.ts';
import { buildRunResult, toMarkdownSummary } from '../../../reports/index.ts';
import { catalog } from '../../../reference/catalog/index.ts';
import { CORPUS_DIR, readCorpusIndex, unpackRecord } from '../../../scripts/dev/record-corpus.ts';

const fixture = path.join(CORPUS_DIR, readCorpusIndex().records.find((e) => e.kind === 'api' && e.topology === 'single')!.file);

function recordedRun() {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-record-reports-'));
  writeFileSync(path.join(dir, RECORD_FILE), unpackRecord(readFileSync(fixture)));
  return readRunRecord(dir).run;
}

describe('reportExtrasOf', () => {
  it('takes the Allure input, the expectations and the baseline from the recorded run alone', () => {
    const run = recordedRun();
    const result = buildRunResult({ ...run, catalog });
    const x = reportExtrasOf(run, result);
    expect(x.catalog).toBe(catalog);
    expect(x.baseline).toBeUndefined();
    expect(x.allure!.checks.map((c) => c.id)).toEqual(run.selected!.map((c) => c.id));
    expect(x.allure!.checks.every((c) => c.suite !== '' && c.title !== '' && c.clauses.length > 0)).toBe(true);
    expect(new Date(x.allure!.startedAt).toISOString()).toBe(run.startedAt);
    expect(x.allure!.seed).toBe(run.seed);
    // The upstream expectations the run applied excuse its known failures in the Allure results too.
    const failures = run.records.filter((r) => r.verdict === 'fail');
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.some((r) => x.allure!.known!(r))).toBe(true);
  });

  it('a recorded baseline gives summary.md its changes: a clause that failed before and passes now is fixed', () => {
    const run = recordedRun();
    const result = buildRunResult({ ...run, catalog });
    const passed = result.clauses.find((c) => c.status === 'passed')!.id;
    const x = reportExtrasOf({ ...run, baseline: [{ id: passed, status: 'failed' }] }, result);
    expect(x.baseline!.fixed).toEqual([passed]);
    expect(toMarkdownSummary(result, x.baseline)).toContain(passed);
    expect(toMarkdownSummary(result)).not.toContain(passed);
  });
});
