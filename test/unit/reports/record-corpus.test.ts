// The corpus's index (test/fixtures/records/records.json, written by `npm run records:refresh`): it
// lists exactly the files the folder holds, and what the issue asks the corpus to cover. The records
// themselves are judged again by test/oracle/corpus.test.ts.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { CORPUS_DIR, INDEX_FILE, readCorpusIndex, REFRESHED_BY, statusesDigest, statusLines } from '../../../scripts/dev/record-corpus.ts';
import { runProblem, secretsIn, selectionOf, type FinishedRun } from '../../../scripts/dev/refresh-records-run.ts';

const index = readCorpusIndex();
const MAX_CORPUS_BYTES = 6_000_000;

describe('the corpus index', () => {
  it('says the script writes it', () => {
    expect(index.refreshedBy).toBe(REFRESHED_BY);
  });

  it('lists every file of the folder, and every file it lists is there with its size', () => {
    const files = readdirSync(CORPUS_DIR).filter((f) => f !== INDEX_FILE);
    expect(index.records.map((e) => e.file).sort()).toEqual(files.sort());
    for (const e of index.records) expect(statSync(path.join(CORPUS_DIR, e.file)).size, e.file).toBe(e.bytes);
  });

  it('covers three topologies with at least three seeds each, the controller manager and the kubelet loader', () => {
    const api = index.records.filter((e) => e.kind === 'api');
    for (const t of ['single', 'ha', 'no-watch-cache'])
      expect(new Set(api.filter((e) => e.topology === t).map((e) => e.seed)).size, t).toBeGreaterThanOrEqual(3);
    expect(index.records.filter((e) => e.kind === 'daemon').length).toBeGreaterThan(0);
    expect(index.records.filter((e) => e.kind === 'nodeagent').length).toBeGreaterThan(0);
  });

  it('stays small', () => {
    expect(index.records.reduce((n, e) => n + e.bytes, 0)).toBeLessThanOrEqual(MAX_CORPUS_BYTES);
  });
});

describe('what the index holds of a run', () => {
  it('digests the shown status of each clause, a listed failure as known', () => {
    const a = {
      clauses: [
        { id: 'rest:2', status: 'failed', expectedFailure: true },
        { id: 'rest:1', status: 'passed' },
      ],
    };
    expect(statusLines(a)).toEqual(['rest:1 passed', 'rest:2 known']);
    expect(statusesDigest(a)).not.toBe(statusesDigest({ clauses: [a.clauses[0]!, { id: 'rest:1', status: 'failed' }] }));
    expect(statusesDigest(a)).not.toBe(statusesDigest({ clauses: [{ ...a.clauses[0]!, expectedFailure: false }, a.clauses[1]!] }));
  });

  it('keeps the options that select, not paths, seeds or commands', () => {
    const args = [
      'run',
      '--kubeconfig',
      '/tmp/k',
      '--profile',
      'k8s',
      '--seed',
      '7',
      '--runs',
      '5',
      '--hook',
      'compact=node x',
      '--target-capability',
      'watch-cache',
      '--expectations',
      '/e.yaml',
      '--reports',
      '/r',
    ];
    expect(selectionOf(args)).toEqual(['--profile k8s', '--runs 5', '--target-capability watch-cache', '--hook compact=<etcd compaction>']);
  });
});

describe('what keeps a run out of the corpus', () => {
  const ok = {
    verdict: 'conformant',
    errors: [],
    clauses: [
      { id: 'rest:1', status: 'passed' },
      { id: 'rest:2', status: 'failed', expectedFailure: true },
    ],
  };

  it.each([
    ['a conformant run with its record', ok, '{"format":"x"}\n', 0, []],
    [
      'a failure beyond the expectations file',
      { ...ok, verdict: 'nonconformant', clauses: [{ id: 'rest:3', status: 'failed' }] },
      '{}',
      1,
      ['failed beyond upstream-kube-apiserver.yaml: rest:3'],
    ],
    ['an error', { ...ok, verdict: 'error', errors: ['target unreachable'] }, '{}', 1, ['errors: target unreachable']],
    ['no summary', undefined, '{}', 1, ['no readable summary.json (exit 1)']],
    ['no record', ok, undefined, 0, ['no record.jsonl.gz']],
    [
      'a record holding the admin token',
      ok,
      '{"h":"Bearer s3cr3t-token-value"}',
      0,
      ["its record.jsonl.gz holds the control plane's credentials"],
    ],
  ] as const)('%s', (_name, summary, record, exitCode, problems) => {
    // The run's reports folder as `run` leaves it: summary.json and record.jsonl.gz, or not.
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-corpus-run-'));
    if (summary !== undefined) writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary));
    if (record !== undefined) writeFileSync(path.join(dir, 'record.jsonl.gz'), gzipSync(record));
    const args = ['run', '--expectations', '/x/upstream-kube-apiserver.yaml'];
    const f: FinishedRun = {
      run: { name: 'api-fresh-7', kind: 'api', topology: 'single', seed: 7, fresh: true, args, reportsDir: dir },
      exitCode,
      wallMs: 1,
      secrets: secretsIn(dir, ['s3cr3t-token-value']),
      version: 'kube-apiserver',
    };
    expect(runProblem(f)).toEqual(problems);
    rmSync(dir, { recursive: true, force: true });
  });
});
