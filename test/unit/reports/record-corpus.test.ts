// The corpus's index (test/fixtures/records/records.json, written by `npm run records:refresh`): it
// lists exactly the files the folder holds, and what the issue asks the corpus to cover. The records
// themselves are judged again by test/oracle/corpus.test.ts.
import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR, INDEX_FILE, readCorpusIndex, REFRESHED_BY, statusesDigest, statusLines } from '../../../scripts/dev/record-corpus.ts';
import { selectionOf } from '../../../scripts/dev/refresh-records-run.ts';

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
    for (const t of ['single', 'ha', 'no-watch-cache']) expect(new Set(api.filter((e) => e.topology === t).map((e) => e.seed)).size, t).toBeGreaterThanOrEqual(3);
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
