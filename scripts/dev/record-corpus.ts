/**
 * The corpus of real servers' records (docs/rejudge.md, "The corpus"): test/fixtures/records/ holds
 * the records of runs against the upstream binaries, one file per run, and records.json, their index.
 * `npm run records:refresh` (scripts/dev/refresh-records.ts) writes both; the corpus self-test
 * (test/oracle/corpus.test.ts) judges every indexed record again.
 *
 * A record is stored as the run wrote it, only compressed again: the run's gzip (32 KiB window, level 3)
 * becomes brotli with a 16 MiB window, which finds the repetitions between checks (the rv-cell checks
 * are alike) and keeps a default run's record near a third of its size. Nothing of the record is read
 * or dropped here, so the corpus follows the record's schema without knowing it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';

export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/records');
export const INDEX_FILE = 'records.json';
export const RECORD_SUFFIX = '.jsonl.br';
export const REFRESHED_BY = 'npm run records:refresh (scripts/dev/refresh-records.ts); never edited by hand';

export type CorpusKind = 'api' | 'daemon' | 'nodeagent';

export interface CorpusEntry {
  /** The record's file name in the corpus folder. */
  readonly file: string;
  readonly kind: CorpusKind;
  /** The binary under test and its version. */
  readonly target: string;
  /** The control plane's topology (API runs; the others talk to no cluster). */
  readonly topology?: string;
  readonly seed: number;
  /** The run's options that decide what it ran (suite, profile, budget, capability), paths left out. */
  readonly selection: readonly string[];
  /** When the run started (ISO 8601). */
  readonly date: string;
  /** The suite that wrote the record: package version and commit. */
  readonly suiteVersion: string;
  /** The shipped expectations file the run used, relative to the package root. */
  readonly expectations: string;
  /** What `--target-capability` said, for the expectations' `when: capability` entries. */
  readonly capabilities: Readonly<Record<string, boolean>>;
  readonly profile: string;
  /** The release the target reported (`when: release` entries). */
  readonly release?: string;
  readonly verdict: string;
  /** summary.json's totals. */
  readonly totals: Readonly<Record<string, number>>;
  /** sha256 of the per-clause shown statuses (statusesDigest). */
  readonly statuses: string;
  readonly bytes: number;
}

export interface CorpusIndex {
  readonly refreshedBy: string;
  readonly records: readonly CorpusEntry[];
}

/** The clauses of a summary.json, as far as the digest reads them. */
export interface SummaryClauses {
  readonly clauses: readonly { readonly id: string; readonly status: string; readonly expectedFailure?: boolean }[];
}

/** One line per clause, `id status` with a listed failure shown as `known`, sorted: the digest's input. */
export function statusLines(s: SummaryClauses): string[] {
  return s.clauses.map((c) => `${c.id} ${c.status === 'failed' && c.expectedFailure === true ? 'known' : c.status}`).sort();
}

export function statusesDigest(s: SummaryClauses): string {
  return `sha256:${createHash('sha256').update(statusLines(s).join('\n')).digest('hex')}`;
}

/** A run's record.jsonl.gz as the corpus stores it. */
export function packRecord(gzipped: Buffer): Buffer {
  const text = gunzipSync(gzipped);
  return brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
}

/** A corpus record as a run's record.jsonl.gz again (level 1: it is read once, by rejudge). */
export function unpackRecord(packed: Buffer): Buffer {
  return gzipSync(brotliDecompressSync(packed), { level: 1 });
}

export function readCorpusIndex(dir: string = CORPUS_DIR): CorpusIndex {
  return JSON.parse(readFileSync(path.join(dir, INDEX_FILE), 'utf8')) as CorpusIndex;
}

export function writeCorpusIndex(records: readonly CorpusEntry[], dir: string = CORPUS_DIR): void {
  const index: CorpusIndex = { refreshedBy: REFRESHED_BY, records };
  writeFileSync(path.join(dir, INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
}
