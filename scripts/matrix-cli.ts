/**
 * `svc-conformance matrix DIR[=LABEL]...`: several runs' summary.json as one table of clauses
 * by implementation (reports/matrix.ts), written as matrix.json, matrix.md and matrix.html. A column
 * is labelled by LABEL, else the summary's target label, else the folder's name. Exit 0 written,
 * 2 a folder without a readable summary.json (one line).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { ConfigError } from '../harness/transport/index.ts';
import { buildMatrix, toMatrixJson, toMatrixMarkdown, type MatrixRunInput } from '../reports/matrix.ts';
import { toMatrixHtml } from '../reports/matrix-html.ts';
import { makeWritableDir } from '../reports/reports-dir.ts';
import { MATRIX_CLAIM } from '../reports/reports-ownership.ts';
import { reportsDirArg, writeOwned } from './reports-option.ts';

export function readRun(arg: string, outDir: string): MatrixRunInput {
  const eq = arg.indexOf('=');
  const dir = eq < 0 ? arg : arg.slice(0, eq);
  const file = path.join(dir, 'summary.json');
  let summary: MatrixRunInput['summary'];
  try {
    summary = JSON.parse(readFileSync(file, 'utf8')) as MatrixRunInput['summary'];
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `${file}: ${code === 'ENOENT' ? 'no such file (give the --reports folder of a run)' : (code ?? `not JSON (${(e as Error).message})`)}`,
    );
  }
  if (typeof summary !== 'object' || summary === null || !Array.isArray(summary.clauses))
    throw new ConfigError(`${file}: not a svc-conformance summary.json (no clauses)`);
  const own = typeof summary.target?.label === 'string' ? summary.target.label : undefined;
  return {
    dir: path.relative(outDir, path.resolve(dir)) || '.',
    label: eq >= 0 ? arg.slice(eq + 1) : (own ?? path.basename(path.resolve(dir))),
    summary,
  };
}

export function writeMatrix(args: readonly string[], reports: string): { files: string[]; differing: number; rows: number } {
  const outDir = path.resolve(reports);
  if (args.length < 2) throw new ConfigError('matrix needs at least two run folders');
  const runs = args.map((a) => readRun(a, outDir));
  try {
    makeWritableDir(outDir);
  } catch (e) {
    throw new ConfigError(`--reports ${reports}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const m = buildMatrix(runs);
  const files = [
    [path.join(outDir, 'matrix.json'), toMatrixJson(m)],
    [path.join(outDir, 'matrix.md'), toMatrixMarkdown(m)],
    [path.join(outDir, 'matrix.html'), toMatrixHtml(m)],
  ] as const;
  writeOwned(outDir, MATRIX_CLAIM, files);
  return { files: files.map(([f]) => f), differing: m.totals.differing, rows: m.totals.rows };
}

export function registerMatrixCommand(program: Command): void {
  program
    .command('matrix')
    .description(
      'several runs side by side: clauses as rows, runs as columns, rows where they differ first (matrix.json, matrix.md, matrix.html)',
    )
    .argument('<dirs...>', 'the --reports folders of the runs, each optionally DIR=LABEL')
    .option('--reports <dir>', 'where to write the matrix', reportsDirArg, 'results')
    .action((dirs, o) => {
      const r = writeMatrix(dirs, o.reports);
      process.stdout.write(`matrix: ${dirs.length} runs, ${r.rows} clauses, ${r.differing} differ\nreports: ${r.files.join(', ')}\n`);
    });
}
