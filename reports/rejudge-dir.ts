/**
 * Judges a saved run's reports folder again (`svc-conformance rejudge DIR`, docs/rejudge.md) and
 * writes beside it, in DIR/rejudged/: every report the run wrote (summary.json, summary.md, index.html,
 * junit.xml, Allure results, failure pages and reproducers), made by the same code the run used, and
 * diff.json and diff.md naming every clause whose status or counterexample classes changed, with the
 * judgement's message before and after. Exit 0: nothing changed; 1: a verdict changed; 2: the record
 * is missing or of an incompatible schema (RecordError, one line).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import { judges, type JudgeRegistry } from '../reference/judges.ts';
import type { ClauseResult, RunResult } from '../runner/results.ts';
import { buildRunResult } from './aggregate.ts';
import { readRunRecord, RecordError, type RecordedRun } from './run-record.ts';
import { reportExtrasOf } from './record-reports.ts';
import { ownedReportFiles, recordOwned, removeOwned, ReportsDirError, type Claim } from './reports-ownership.ts';
import { writeReports } from './write.ts';
import { rejudgeRun, type RejudgeCounts } from './rejudge.ts';
import { RecordDamaged } from '../harness/case/index.ts';

export const REJUDGED_DIR = 'rejudged';

export interface ClauseChange {
  readonly clause: string;
  readonly before: { readonly status: string; readonly classes: readonly string[]; readonly why: string };
  readonly after: { readonly status: string; readonly classes: readonly string[]; readonly why: string };
}

export interface RejudgeOutcome {
  readonly exitCode: 0 | 1;
  readonly changes: readonly ClauseChange[];
  readonly counts: RejudgeCounts;
  readonly lines: readonly string[];
}

/** Throws RecordError for a record this version cannot read, or a DIR/rejudged/ holding files the suite did not write (the caller exits 2 with its message). */
export async function rejudgeDir(dir: string, registry: JudgeRegistry = judges): Promise<RejudgeOutcome> {
  const rec = readRunRecord(dir);
  for (const c of rec.checks) {
    for (const e of c.entries) {
      for (const s of e.s)
        if ('j' in s && registry[s.j] === undefined)
          throw new RecordError(`${dir}: the record names the judge ${s.j}, which this version does not have`);
    }
  }
  const before = buildRunResult({ ...rec.run, catalog });
  let again: ReturnType<typeof rejudgeRun>;
  try {
    again = rejudgeRun(rec, registry);
  } catch (e) {
    if (e instanceof RecordDamaged) throw new RecordError(`${dir}: ${e.message}`);
    throw e;
  }
  const after = buildRunResult({ ...again.run, catalog });
  const changes = clauseChanges(before, after);
  const lines = summaryLines(changes, again.counts, before, after);
  await writeRejudged(dir, again.run, after, [
    [
      'diff.json',
      JSON.stringify({ changes, counts: again.counts, verdict: { before: before.verdict, after: after.verdict } }, null, 2) + '\n',
    ],
    ['diff.md', diffMarkdown(changes, lines)],
  ]);
  return { exitCode: changes.length === 0 ? 0 : 1, changes, counts: again.counts, lines };
}

const REJUDGE_CLAIM: Claim = { files: [], dirs: [REJUDGED_DIR] };

/**
 * Every report of the run, made again from the record and the new judgement by the code the run used
 * (reports/record-reports.ts), into DIR/rejudged/, with the diff beside them. Replaces only what an
 * earlier rejudge wrote there (listed in DIR's manifest, so a later run into DIR may replace it too).
 */
async function writeRejudged(
  dir: string,
  run: RecordedRun,
  result: RunResult,
  diff: readonly (readonly [string, string])[],
): Promise<void> {
  let owned: Set<string>;
  try {
    owned = ownedReportFiles(dir, REJUDGE_CLAIM);
  } catch (e) {
    if (e instanceof ReportsDirError) throw new RecordError(e.message);
    throw e;
  }
  const removed = removeOwned(dir, REJUDGE_CLAIM.dirs, owned);
  const out = path.join(dir, REJUDGED_DIR);
  await writeReports(result, out, familyOf, reportExtrasOf(run, result));
  for (const [name, content] of diff) writeFileSync(path.join(out, name), content);
  recordOwned(dir, owned, removed, filesUnder(out));
}

function filesUnder(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(d, e.name)) : [path.join(d, e.name)],
  );
}

const classesOf = (c: ClauseResult): string[] => [...new Set(c.counterexamples.map((x) => x.class ?? '(no class)'))].sort();
const whyOf = (c: ClauseResult): string => {
  const x = c.counterexamples[0];
  if (x !== undefined) return `expected ${x.expected}; observed ${x.observed}`;
  return c.notes[0] ?? '';
};

export function clauseChanges(before: RunResult, after: RunResult): ClauseChange[] {
  const now = new Map(after.clauses.map((c) => [c.id, c]));
  const changes: ClauseChange[] = [];
  for (const b of before.clauses) {
    const a = now.get(b.id);
    if (a === undefined) continue;
    const [cb, ca] = [classesOf(b), classesOf(a)];
    if (a.status === b.status && cb.join() === ca.join()) continue;
    changes.push({
      clause: b.id,
      before: { status: b.status, classes: cb, why: whyOf(b) },
      after: { status: a.status, classes: ca, why: whyOf(a) },
    });
  }
  return changes;
}

function summaryLines(changes: readonly ClauseChange[], n: RejudgeCounts, before: RunResult, after: RunResult): string[] {
  const judged = n.derivedClauses + n.carriedClauses;
  return [
    `rejudge: ${n.derivedCalls} of ${n.calls} judge calls derived again with the current model (${n.changedCalls} with other verdicts than recorded); of ${judged} clauses judged, ${n.derivedClauses} re-derived, ${n.carriedClauses} carried over as recorded (judges not in the registry)`,
    ...(n.keptChecks.length > 0
      ? [`rejudge: records of ${n.keptChecks.join(', ')} kept as they were (the check broke or was stopped)`]
      : []),
    changes.length === 0
      ? `rejudge: no verdict changed (run ${before.verdict})`
      : `rejudge: ${changes.length} clause${changes.length === 1 ? '' : 's'} changed (run ${before.verdict} -> ${after.verdict}): ${changes.map((c) => `${c.clause} ${c.before.status} -> ${c.after.status}`).join(', ')}`,
  ];
}

function diffMarkdown(changes: readonly ClauseChange[], lines: readonly string[]): string {
  const rows = changes.map(
    (c) => `| ${c.clause} | ${c.before.status} | ${c.after.status} | ${cell(c.before.why)} | ${cell(c.after.why)} |`,
  );
  return [
    '# Judged again',
    '',
    ...lines.map((l) => `- ${l}`),
    '',
    ...(rows.length > 0 ? ['| clause | before | after | why before | why after |', '|---|---|---|---|---|', ...rows, ''] : []),
  ].join('\n');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 300);
