// The corpus of real servers' records (test/fixtures/records/, docs/rejudge.md "The corpus"): every
// record its index lists is judged again with the model as it is. With the record's own expectations
// nothing may change (the same per-clause statuses and classes, every judge call's verdicts as
// recorded); with the shipped expectations files nothing may fail beyond them. A model change that
// flips a verdict of a real server fails here, naming the clause and the record; once the flip is
// understood the corpus is written again by `npm run records:refresh`, never by hand.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clauseChanges, rejudgeDir, REJUDGED_DIR } from '../../reports/rejudge-dir.ts';
import { rejudgeRun } from '../../reports/rejudge.ts';
import { readRunRecord, RECORD_FILE, RecordError } from '../../reports/run-record.ts';
import { buildRunResult, expectationsForRun, parseExpectations } from '../../reports/index.ts';
import { regressionsOf } from '../../reports/aggregate.ts';
import { catalog } from '../../reference/catalog/index.ts';
import { judges, type JudgeRegistry } from '../../reference/judges.ts';
import { CORPUS_DIR, readCorpusIndex, statusesDigest, unpackRecord, type CorpusEntry } from '../../scripts/dev/record-corpus.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = readCorpusIndex().records;

/** A folder of its own holding the record as a run's reports folder holds it (rejudge writes rejudged/ beside it). */
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function folderOf(e: CorpusEntry): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-corpus-'));
  folders.push(dir);
  writeFileSync(path.join(dir, RECORD_FILE), unpackRecord(readFileSync(path.join(CORPUS_DIR, e.file))));
  return dir;
}

/** A record this version cannot read fails with its corpus name and the remedy, not a temporary folder's. */
function readable<T>(e: CorpusEntry, read: () => T): T {
  try {
    return read();
  } catch (x) {
    throw unreadable(e, x);
  }
}

async function readableAsync<T>(e: CorpusEntry, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (x) {
    throw unreadable(e, x);
  }
}

function unreadable(e: CorpusEntry, x: unknown): unknown {
  if (!(x instanceof RecordError)) return x;
  return new Error(`${e.file} (written by ${e.suiteVersion}): ${x.message}; write the corpus again: npm run records:refresh`);
}

/** The shipped expectations file of the record's kind, as it holds for that run's target. */
function shippedExpectations(e: CorpusEntry) {
  const file = path.join(root, e.expectations);
  const listed = parseExpectations(
    readFileSync(file, 'utf8'),
    e.expectations,
    catalog.map((c) => c.id),
  );
  return expectationsForRun(listed, { scale: false, profile: e.profile, capabilities: e.capabilities, release: e.release });
}

describe('the corpus of real servers records, judged again with the current model', () => {
  // What `rejudge DIR` does, in one pass: the record read once and judged once, its clauses compared
  // with the record's by the command's own clauseChanges, then aggregated again with the shipped
  // expectations files. The command itself runs on these records below, with a planted bug.
  it.each(corpus)('$file: no verdict changed, and nothing fails beyond the shipped expectations', (e) => {
    const rec = readable(e, () => readRunRecord(folderOf(e)));
    const again = rejudgeRun(rec, judges);
    const after = buildRunResult({ ...again.run, catalog });
    const changes = clauseChanges(buildRunResult({ ...rec.run, catalog }), after).map(
      (c) => `${e.file}: ${c.clause} ${c.before.status} -> ${c.after.status} (before: ${c.before.why}; after: ${c.after.why})`,
    );
    expect(changes, `${e.file}: verdicts changed against the record`).toEqual([]);
    expect(again.counts.changedCalls, `${e.file}: judge calls that now give other verdicts than recorded`).toBe(0);
    expect(again.counts.derivedCalls).toBeGreaterThan(0);
    expect(statusesDigest({ clauses: after.clauses }), `${e.file}: per-clause statuses against records.json`).toBe(e.statuses);

    const shipped = buildRunResult({ ...again.run, expectations: shippedExpectations(e), catalog });
    expect(
      regressionsOf(shipped.clauses).map((c) => `${e.file}: ${c}`),
      `${e.file}: failed beyond ${e.expectations}`,
    ).toEqual([]);
  });
});

/** A planted model bug: a registry judge replaced through the seam rejudge takes, no file edited. */
const planted: Record<string, { judge: keyof typeof judges; registry: JudgeRegistry; flips: string }> = {
  api: {
    judge: 'judgeCreate',
    // The model wants 500 where a create was answered 201.
    registry: {
      ...judges,
      judgeCreate: (o: Parameters<typeof judges.judgeCreate>[0]) => judges.judgeCreate({ ...o, status: o.status === 201 ? 500 : o.status }),
    },
    flips: 'rest:4.1/post',
  },
  daemon: {
    judge: 'judgeRefusal',
    // The model takes a daemon that exited at once for one that exited 0 (accepted the bad flag).
    registry: {
      ...judges,
      judgeRefusal: (v, seen, loop) => judges.judgeRefusal(v, seen.kind === 'exited' ? { ...seen, code: 0 } : seen, loop),
    },
    flips: 'node:',
  },
  nodeagent: {
    judge: 'judgeConfigAnswer',
    // The model reads the loader's exit code the wrong way round.
    registry: {
      ...judges,
      judgeConfigAnswer: (doc, ans, p, v) => judges.judgeConfigAnswer(doc, { ...ans, exitCode: ans.exitCode === 0 ? 1 : 0 }, p, v),
    },
    flips: 'node:',
  },
};

describe('a planted model bug on the records of real servers', () => {
  const cases = Object.keys(planted).flatMap((kind) => {
    const e = corpus.find((x) => x.kind === kind);
    return e === undefined ? [] : [{ kind, e }];
  });

  it('has a record of each kind to plant on', () => {
    expect(cases.map((c) => c.kind)).toEqual(Object.keys(planted));
  });

  it.each(cases)(
    '$kind ($e.file): rejudge exits 0 with the model as it is, 1 with the bug, naming the flipped clauses',
    async ({ kind, e }) => {
      const bug = planted[kind]!;
      expect(bug.registry[bug.judge]).not.toBe(judges[bug.judge]);
      const dir = folderOf(e);
      const unchanged = await readableAsync(e, () => rejudgeDir(dir));
      expect(unchanged.exitCode).toBe(0);
      expect(unchanged.lines.join('\n')).toContain('no verdict changed');
      const o = await rejudgeDir(dir, bug.registry);
      expect(o.exitCode).toBe(1);
      const flipped = o.changes
        .filter((c) => c.clause.startsWith(bug.flips) && c.before.status === 'passed' && c.after.status === 'failed')
        .map((c) => c.clause);
      expect(flipped.length).toBeGreaterThan(0);
      expect(o.counts.changedCalls).toBeGreaterThan(0);
      // Named where a person reads them: the command's line and diff.md.
      expect(o.lines.join('\n')).toContain(`${flipped[0]} passed -> failed`);
      expect(readFileSync(path.join(dir, REJUDGED_DIR, 'diff.md'), 'utf8')).toContain(`| ${flipped[0]} | passed | failed |`);
    },
  );
});
