/**
 * The run's record (docs/rejudge.md): `record.jsonl.gz` in the reports folder, gzip'd JSON lines. The
 * first line names the format and its schema version; the second holds what the reports are built
 * from (BuildRunArgs without the catalog: the check records, footprint, expectations, target); then one
 * line per check with its judge calls (runner/check-journal.ts). The reports of the run are made from
 * this same object, and `svc-conformance rejudge` makes them again from the file.
 *
 * Compatibility: a reader accepts the schema versions in READABLE_SCHEMAS and refuses any other in one
 * line (exit 2). A change that older readers would misread (a field's meaning, a judge's inputs)
 * takes a new schema number; adding an optional field or a judge does not.
 */
import { ownedReportFiles, recordOwned, RUN_CLAIM } from './reports-ownership.ts';
import { gunzipSync, gzip } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import type { BuildRunArgs } from './aggregate.ts';
import type { CheckFootprint, Selectable } from '../harness/case/index.ts';
import type { BaselineClause } from './baseline.ts';
import type { FailureLink, JournalEntry } from '../harness/case/index.ts';
import { journalOf } from '../runner/check-journal.ts';

export const RECORD_FILE = 'record.jsonl.gz';
export const RECORD_FORMAT = 'svc-conformance/record';
export const RECORD_SCHEMA = 2;
export const READABLE_SCHEMAS: readonly number[] = [1, 2];

/**
 * What the reports are built of. `selected`: the checks with their suite and title (the Allure
 * results name them); `baseline`: the `--baseline` summary's statuses, for summary.md's changes.
 */
export type RecordedRun = Omit<BuildRunArgs, 'catalog' | 'selected'> & {
  readonly selected?: readonly Selectable[];
  readonly baseline?: readonly BaselineClause[];
};

export interface RecordedCheck {
  readonly check: string;
  readonly entries: readonly JournalEntry[];
  /** Values the entries refer to by digest (harness/case/judge-record.ts). */
  readonly blobs: Readonly<Record<string, unknown>>;
  readonly links: readonly FailureLink[];
  readonly tallyRecords: number;
  /** False: the check broke or was stopped; its records are kept as they are. */
  readonly complete: boolean;
}

export interface RunRecord {
  readonly schema: number;
  readonly version: string;
  readonly run: RecordedRun;
  readonly checks: readonly RecordedCheck[];
}

/** A record that this version cannot read: the message is one line. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

/** The record of a run from what its reports are built of and the journals of its checks' footprints. */
export function runRecordOf(run: RecordedRun, footprints: readonly CheckFootprint[]): RunRecord {
  const checks: RecordedCheck[] = [];
  for (const fp of footprints) {
    const j = journalOf(fp);
    if (j !== undefined)
      checks.push({
        check: j.check,
        entries: j.entries,
        blobs: Object.fromEntries(j.blobs),
        links: j.links,
        tallyRecords: j.tallyRecords,
        complete: j.complete,
      });
  }
  return { schema: RECORD_SCHEMA, version: run.version, run, checks };
}

/** gzip level 3: a fifth of level 6's time on a default run's record, for half as much again in size (1.3 MB, not 0.9). */
const GZIP_LEVEL = 3;

export function recordBytes(r: RunRecord): Promise<Buffer> {
  const lines = [
    JSON.stringify({ format: RECORD_FORMAT, schema: r.schema, version: r.version }),
    JSON.stringify({ run: r.run }),
    ...r.checks.map((c) => JSON.stringify({ check: c })),
  ];
  // Compressed on the thread pool: the run's own thread goes on with the terminal summary meanwhile.
  return promisify(gzip)(lines.join('\n') + '\n', { level: GZIP_LEVEL });
}

/** Writes the record into the reports folder; returns its path. */
export async function writeRunRecord(dir: string, r: RunRecord): Promise<string> {
  const file = path.join(dir, RECORD_FILE);
  const bytes = await recordBytes(r);
  // Listed in the folder's manifest as the suite's, like every other report: a stopped run publishes
  // twice, and the second writing must replace the first one's record, not refuse it as a stranger's.
  const owned = ownedReportFiles(dir, RUN_CLAIM);
  await writeFile(file, bytes);
  recordOwned(dir, owned, [], [file]);
  return file;
}

/** Reads a record; throws RecordError (one line) for a missing, unreadable or incompatible one. */
export function readRunRecord(dir: string): RunRecord {
  const file = path.join(dir, RECORD_FILE);
  let text: string;
  try {
    text = gunzipSync(readFileSync(file)).toString('utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RecordError(
      code === 'ENOENT'
        ? `${file}: no record (runs write one since record schema ${RECORD_SCHEMA})`
        : `${file}: not a gzip'd record (${code ?? (e as Error).message})`,
    );
  }
  const lines = text.split('\n').filter((l) => l !== '');
  const head = parseLine(file, lines[0], 1) as { format?: unknown; schema?: unknown; version?: unknown };
  if (head.format !== RECORD_FORMAT) throw new RecordError(`${file}: not a ${RECORD_FORMAT} file`);
  if (typeof head.schema !== 'number' || !READABLE_SCHEMAS.includes(head.schema)) {
    throw new RecordError(
      `${file}: record schema ${String(head.schema)} (written by ${String(head.version)}); this version reads schema ${READABLE_SCHEMAS.join(', ')}`,
    );
  }
  const run = (parseLine(file, lines[1], 2) as { run?: RecordedRun }).run;
  if (run === undefined) throw new RecordError(`${file}: line 2 holds no run`);
  const checks = lines.slice(2).map((l, i) => (parseLine(file, l, i + 3) as { check: RecordedCheck }).check);
  return { schema: head.schema, version: String(head.version), run, checks };
}

function parseLine(file: string, line: string | undefined, n: number): unknown {
  if (line === undefined) throw new RecordError(`${file}: ends before line ${n}`);
  try {
    return JSON.parse(line);
  } catch {
    throw new RecordError(`${file}: line ${n} is not JSON`);
  }
}
