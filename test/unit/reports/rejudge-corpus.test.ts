// The corpus of saved upstream runs (test/fixtures/records/), judged again on every change: with the
// model as it is, every verdict of the record comes out as recorded (no call judged otherwise, the
// same summary.json); a planted model bug flips verdicts and names the clauses. A change of the model
// that flips a verdict of the corpus fails here first: the diff says which, and the record is
// replaced only once the flip is understood (docs/rejudge.md). The record was written by
//   npx svc-conformance envtest --kubeconfig-out /tmp/up.kubeconfig &   (KUBEBUILDER_ASSETS: kube-apiserver 1.24)
//   npx svc-conformance run --seed 1 --runs 5 --suite rest-crud --suite rest-paging --suite rest-watch \
//     --kubeconfig /tmp/up.kubeconfig --profile k8s --expectations upstream-kube-apiserver --reports DIR
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rejudgeDir } from '../../../reports/rejudge-dir.ts';
import { readRunRecord, RECORD_FILE } from '../../../reports/run-record.ts';
import { buildRunResult, toSummaryJson } from '../../../reports/index.ts';
import { catalog, familyOf } from '../../../reference/catalog/index.ts';
import { judges } from '../../../reference/judges.ts';

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/records');
const records = readdirSync(corpus).filter((f) => f.endsWith('.jsonl.gz'));

/** A folder of its own holding the record, as a run's reports folder does (rejudge writes rejudged/ beside it). */
function folderOf(file: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-rejudge-corpus-'));
  copyFileSync(path.join(corpus, file), path.join(dir, RECORD_FILE));
  return dir;
}

describe('the corpus of upstream records', () => {
  it('holds at least one record', () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it.each(records)('%s: judged again with the model, every verdict as recorded and the same summary.json', async (file) => {
    const dir = folderOf(file);
    const o = await rejudgeDir(dir);
    expect(o.changes).toEqual([]);
    expect(o.exitCode).toBe(0);
    expect(o.counts.changedCalls).toBe(0);
    expect(o.counts.derivedClauses).toBeGreaterThan(o.counts.carriedClauses);
    const run = buildRunResult({ ...readRunRecord(dir).run, catalog });
    expect(readFileSync(path.join(dir, 'rejudged', 'summary.json'), 'utf8')).toBe(toSummaryJson(run, { catalog, familyOf }));
  });

  it.each(records)('%s: a model that wants 500 for a create flips rest:4.1/post and says so (exit 1)', async (file) => {
    const planted = { ...judges, judgeCreate: (o: Parameters<typeof judges.judgeCreate>[0]) => judges.judgeCreate({ ...o, status: o.status === 201 ? 500 : o.status }) };
    const o = await rejudgeDir(folderOf(file), planted);
    expect(o.exitCode).toBe(1);
    expect(o.changes.map((c) => [c.clause, c.before.status, c.after.status])).toContainEqual(['rest:4.1/post', 'passed', 'failed']);
    expect(o.counts.changedCalls).toBeGreaterThan(0);
  });
});
