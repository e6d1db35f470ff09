/**
 * `svc-conformance merge-reports DIR... [--reports OUT]`: the report folders of the shards of one run
 * (`run --shard i/n` with one seed) become one set of reports: summary.json, summary.md, JUnit, HTML,
 * curl scripts, saved histories and the Allure results side by side. Exit code as `run` would have
 * given for the whole run.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { ConfigError } from '../harness/transport/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import { MergeError, mergeSummaries, toTerminalSummary, writeReports } from '../reports/index.ts';
import type { SummaryJson } from '../reports/index.ts';
import { HISTORY_DIR } from '../reports/write.ts';
import { ALLURE_DIR } from '../reports/allure.ts';
import { ownedReportFiles, recordOwned, RUN_CLAIM } from '../reports/reports-ownership.ts';
import { checkOwned, reportsDirArg } from './reports-option.ts';

export function mergeReportsCommand(program: Command): void {
  program
    .command('merge-reports')
    .description('merge the report folders of the shards of one run (run --shard i/n) into one')
    .argument('<dirs...>', 'report folders, one per shard')
    .option('--reports <dir>', 'where to write the merged reports', reportsDirArg, 'results')
    .action(async (dirs, o) => {
      process.exitCode = await mergeReports(dirs, path.resolve(o.reports));
    });
}

async function mergeReports(dirs: readonly string[], out: string): Promise<number> {
  const shards = dirs.map((d) => ({ file: path.join(d, 'summary.json'), summary: readSummary(path.join(d, 'summary.json')) }));
  let run;
  try {
    run = mergeSummaries(shards);
  } catch (e) {
    if (e instanceof MergeError) throw new ConfigError(e.message);
    throw e;
  }
  mkdirSync(out, { recursive: true });
  checkOwned(out, RUN_CLAIM);
  await writeReports(run, out, familyOf, { catalog, stepSummaryFile: process.env['GITHUB_STEP_SUMMARY'] });
  // Histories are not in summary.json; Allure results are per test: both are copied as they are.
  const copied: string[] = [];
  for (const d of dirs) {
    for (const sub of [HISTORY_DIR, ALLURE_DIR]) {
      const from = path.join(d, sub);
      if (!existsSync(from) || path.resolve(from) === path.join(out, sub)) continue;
      mkdirSync(path.join(out, sub), { recursive: true });
      for (const name of readdirSync(from)) {
        const to = path.join(out, sub, name);
        if (!statSync(path.join(from, name)).isFile() || copied.includes(to)) continue;
        copyFileSync(path.join(from, name), to);
        copied.push(to);
      }
    }
  }
  recordOwned(out, ownedReportFiles(out, { files: [], dirs: [] }), [], copied);
  process.stdout.write(
    `${toTerminalSummary(run, familyOf, { color: process.stdout.isTTY === true, reportsDir: path.relative(process.cwd(), out) || '.' })}\n`,
  );
  process.stderr.write(`svc-conformance: merged ${dirs.length} shard(s), ${readdirSync(out).length} entries in ${out}\n`);
  return run.verdict === 'conformant' ? 0 : run.verdict === 'nonconformant' ? 1 : 3;
}

function readSummary(file: string): SummaryJson {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(
      `${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file (is this a report folder?)' : (e as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as SummaryJson;
  } catch (e) {
    throw new ConfigError(`${file}: not JSON (${(e as Error).message})`);
  }
}
