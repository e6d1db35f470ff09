/**
 * The one module that touches the disk (STYLE.md practice 10). Everything it writes comes from the
 * pure formatters; this only decides file names and modes.
 */
import { appendFile, chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '../runner/results.ts';
import type { Clause } from '../reference/catalog/types.ts';
import type { FamilyOf } from './areas.ts';
import { toHtml } from './html.ts';
import { toJUnitXml } from './junit.ts';
import { toSummaryJson } from './summary-json.ts';
import { toMarkdownSummary } from './markdown.ts';
import type { BaselineDiff } from './baseline.ts';
import { COUNTEREXAMPLE_DIR, FAILURE_PAGE_DIR, counterexampleFiles, sanitiseFileName } from './counterexample-files.ts';
import { failurePage } from './failure-page.ts';
import { ALLURE_DIR, allureFiles, type AllureInput } from './allure.ts';

export { COUNTEREXAMPLE_DIR, FAILURE_PAGE_DIR };

export interface ExtraFile {
  readonly name: string;
  readonly content: string;
}

export interface WriteExtras {
  /** More files for `counterexamples/` (transcripts, say); names are sanitised the same way. */
  readonly counterexampleFiles?: readonly ExtraFile[];
  /** Adds the coverage block to summary.json (it needs clause kinds). */
  readonly catalog?: readonly Clause[];
  /** Changes against an earlier run's summary.json (`--baseline`), shown in summary.md. */
  readonly baseline?: BaselineDiff;
  /** A CI step-summary file to append summary.md to (GitHub's `$GITHUB_STEP_SUMMARY`). */
  readonly stepSummaryFile?: string;
  /** The checks' records as Allure results (`allure-results/`, reports/allure.ts). */
  readonly allure?: AllureInput;
}

export const HISTORY_DIR = 'histories';

/** Returns the paths written, summary.json first. */
export async function writeReports(
  run: RunResult,
  dir: string,
  familyOf: FamilyOf,
  extra: WriteExtras = {},
): Promise<{ files: string[] }> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const put = async (path: string, content: string, mode?: number): Promise<void> => {
    await writeFile(path, content, 'utf8');
    // writeFile's mode only applies when it creates the file; chmod covers a rerun into the same folder.
    if (mode !== undefined) await chmod(path, mode);
    files.push(path);
  };

  const coverage = extra.catalog === undefined ? undefined : { catalog: extra.catalog, familyOf };
  await put(join(dir, 'summary.json'), toSummaryJson(run, coverage));
  await put(join(dir, 'junit.xml'), toJUnitXml(run, familyOf));
  await put(join(dir, 'index.html'), toHtml(run, familyOf));
  const markdown = toMarkdownSummary(run, extra.baseline);
  await put(join(dir, 'summary.md'), markdown);
  if (extra.stepSummaryFile !== undefined && extra.stepSummaryFile !== '') await appendFile(extra.stepSummaryFile, markdown, 'utf8');

  await writeHistories(run, dir, put);

  if (extra.allure !== undefined) {
    // Allure reads every file in its folder: an earlier run's results would show beside this one's.
    const allureDir = join(dir, ALLURE_DIR);
    await rm(allureDir, { recursive: true, force: true });
    await mkdir(allureDir, { recursive: true });
    for (const f of allureFiles(extra.allure)) await writeFile(join(allureDir, f.name), f.content, 'utf8');
  }

  // Pages left by an earlier run into the same folder would be read as this run's failures.
  const pageDir = join(dir, FAILURE_PAGE_DIR);
  await rm(pageDir, { recursive: true, force: true });
  const pages = failurePages(run);
  if (pages.length > 0) {
    await mkdir(pageDir, { recursive: true });
    for (const p of pages) await put(join(pageDir, p.name), p.content);
  }

  // Scripts left by an earlier run into the same folder would pass for reproductions of this one.
  const cxDir = join(dir, COUNTEREXAMPLE_DIR);
  await rm(cxDir, { recursive: true, force: true });
  const scripts = counterexampleScripts(run);
  const extras = (extra.counterexampleFiles ?? []).map((f) => ({ name: sanitiseFileName(f.name), content: f.content }));
  if (scripts.length + extras.length === 0) return { files };
  await mkdir(cxDir, { recursive: true });
  for (const s of scripts) await put(join(cxDir, s.name), s.content, s.name.endsWith('.sh') ? 0o755 : undefined);
  for (const f of extras) await put(join(cxDir, f.name), f.content);
  return { files };
}

export { sanitiseFileName };

/**
 * One script per recorded counterexample: `<clause>-<n>.sh`, n counting from 1 within the clause, and
 * `<clause>-<n>.test.mjs` beside it where the counterexample has a node test.
 */
export function counterexampleScripts(run: RunResult): ExtraFile[] {
  const out: ExtraFile[] = [];
  for (const f of counterexampleFiles(run)) {
    if (f.script !== undefined) {
      const body = f.cx.curl.startsWith('#!') ? f.cx.curl : `#!/usr/bin/env bash\n${f.cx.curl}`;
      out.push({ name: f.script, content: body.endsWith('\n') ? body : `${body}\n` });
    }
    // The same case as a node test beside it (`node --test <clause>-<n>.test.mjs`).
    if (f.nodeTest !== undefined) out.push({ name: f.nodeTest, content: f.cx.nodeTest!.endsWith('\n') ? f.cx.nodeTest! : `${f.cx.nodeTest!}\n` });
  }
  return out;
}

/** One page per counterexample, `failures/<clause>-<n>.html`, linking the report and its scripts. */
export function failurePages(run: RunResult): ExtraFile[] {
  return counterexampleFiles(run).map((f) => ({
    name: f.page,
    content: failurePage(f.clause, f.cx, {
      report: '../index.html',
      ...(f.script !== undefined ? { script: `../${COUNTEREXAMPLE_DIR}/${f.script}` } : {}),
      ...(f.nodeTest !== undefined ? { nodeTest: `../${COUNTEREXAMPLE_DIR}/${f.nodeTest}` } : {}),
    }),
  }));
}

/** Recorded histories of failing counterexamples: `histories/<check>-<clause>.json`, to judge again later. */
export function historyFiles(run: RunResult): ExtraFile[] {
  const out = new Map<string, string>();
  for (const c of run.clauses) {
    for (const cx of c.counterexamples) {
      if (cx.history === undefined) continue;
      const name = `${sanitiseFileName(`${cx.check}-${c.id}`)}.json`;
      if (!out.has(name)) out.set(name, `${JSON.stringify(cx.history)}\n`);
    }
  }
  return [...out].map(([name, content]) => ({ name, content }));
}

async function writeHistories(run: RunResult, dir: string, put: (path: string, content: string) => Promise<void>): Promise<void> {
  const hDir = join(dir, HISTORY_DIR);
  await rm(hDir, { recursive: true, force: true });
  const files = historyFiles(run);
  if (files.length === 0) return;
  await mkdir(hDir, { recursive: true });
  for (const f of files) await put(join(hDir, f.name), f.content);
}
