/**
 * What the suite may replace in a reports folder: only what it wrote there itself. A manifest beside
 * the reports, `.svc-conformance-reports.json`, lists every file the suite's commands wrote into the
 * folder; a later run deletes or overwrites only those. Anything else where the suite would write (a
 * user's `checks/x` under `--reports .`) refuses the run before anything is sent, and is never touched.
 *
 * A folder written by a version without the manifest is recognised file by file: a report file that
 * names the suite in its text, and in a folder whose summary.json the suite wrote, Allure results by
 * their generated names and saved histories named after a check. Anything not recognised is refused.
 */
import { lstatSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALLURE_DIR } from './allure.ts';
import { CHECK_DOC_DIR } from './check-docs.ts';
import { COUNTEREXAMPLE_DIR, FAILURE_PAGE_DIR } from './counterexample-files.ts';

export const MANIFEST = '.svc-conformance-reports.json';
export const HISTORY_DIR = 'histories';
export const NODEAGENT_CASE_DIR = 'nodeagent';

/** Files a command writes at the top of the folder, and folders whose contents it replaces. */
export interface Claim {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
}

export const RUN_CLAIM: Claim = {
  files: ['summary.json', 'junit.xml', 'index.html', 'summary.md', 'record.jsonl.gz'],
  dirs: ['rejudged', HISTORY_DIR, CHECK_DOC_DIR, ALLURE_DIR, FAILURE_PAGE_DIR, COUNTEREXAMPLE_DIR, NODEAGENT_CASE_DIR],
};
export const MATRIX_CLAIM: Claim = { files: ['matrix.json', 'matrix.md', 'matrix.html'], dirs: [] };
export const COMPARE_CLAIM: Claim = { files: ['compare.json', 'compare.md', 'compare.html'], dirs: [] };
const EVERY_CLAIM: Claim = {
  files: [...RUN_CLAIM.files, ...MATRIX_CLAIM.files, ...COMPARE_CLAIM.files],
  dirs: RUN_CLAIM.dirs,
};

/** A reports folder the command must not write into; the message is one line, fit to print as is. */
export class ReportsDirError extends Error {
  constructor(
    message: string,
    /** The first file the suite did not write, where one is the reason. */
    readonly foreign?: string,
  ) {
    super(message);
    this.name = 'ReportsDirError';
  }
}

/**
 * The files of `dir` (relative, `/`-separated) the suite wrote and may replace. Throws
 * ReportsDirError when anything the claim would replace is not among them.
 */
export function ownedReportFiles(dir: string, claim: Claim): Set<string> {
  if (kindAt(dir) === 'missing') return new Set();
  const listed = readManifest(dir);
  const present = presentFiles(dir, claim);
  let owned: Set<string>;
  if (listed !== undefined) owned = listed;
  else {
    const suiteSummary = isSuiteJson(path.join(dir, 'summary.json'));
    owned = new Set(presentFiles(dir, EVERY_CLAIM).filter((f) => writtenBySuite(dir, f, suiteSummary)));
  }
  const foreign = present.filter((f) => !owned.has(f));
  if (foreign.length > 0) {
    const more = foreign.length > 1 ? ` (and ${foreign.length - 1} more)` : '';
    const replaced = [...claim.files, ...claim.dirs.map((d) => `${d}/`)].join(', ');
    throw new ReportsDirError(
      `${path.join(dir, foreign[0]!)} was not written by svc-conformance${more}, and the reports replace ${replaced} in ${dir}: move it away or choose another folder; nothing was deleted`,
      path.join(dir, foreign[0]!),
    );
  }
  return owned;
}

/**
 * Deletes the owned files under each of `dirs`, then the folders that leaves empty; anything else
 * (a file added while the run ran) stays, and so does its folder. Returns the removed files.
 */
export function removeOwned(dir: string, dirs: readonly string[], owned: ReadonlySet<string>): string[] {
  const removed: string[] = [];
  for (const f of owned) {
    if (!dirs.some((d) => f.startsWith(`${d}/`))) continue;
    try {
      unlinkSync(path.join(dir, f));
      removed.push(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  for (const d of dirs) removeEmptyDirs(path.join(dir, d));
  return removed;
}

/** Records the files the suite now owns in `dir`: the manifest's earlier ones that remain, and `written`. */
export function recordOwned(dir: string, earlier: ReadonlySet<string>, removed: readonly string[], written: readonly string[]): void {
  const files = new Set([...earlier].filter((f) => !removed.includes(f)));
  for (const w of written) files.add(toRelative(dir, w));
  const manifest = {
    tool: 'svc-conformance',
    about: 'Files svc-conformance wrote into this folder; it replaces only these. Delete this file together with them.',
    files: [...files].sort(),
  };
  writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Writes top-level report files (matrix, compare) into `dir`, refusing files the suite did not write. */
export function writeOwnedFiles(dir: string, claim: Claim, files: readonly (readonly [string, string])[]): void {
  const owned = ownedReportFiles(dir, claim);
  for (const [f, content] of files) writeFileSync(f, content);
  recordOwned(
    dir,
    owned,
    [],
    files.map(([f]) => f),
  );
}

export function toRelative(dir: string, file: string): string {
  return path.relative(dir, path.resolve(dir, file)).split(path.sep).join('/');
}

function readManifest(dir: string): Set<string> | undefined {
  const file = path.join(dir, MANIFEST);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ReportsDirError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const m = JSON.parse(text) as { tool?: unknown; files?: unknown };
    if (
      m.tool === 'svc-conformance' &&
      Array.isArray(m.files) &&
      m.files.every((f) => typeof f === 'string' && !f.split('/').includes('..'))
    ) {
      return new Set(m.files as string[]);
    }
  } catch {
    // Not JSON: refused below like any other foreign manifest.
  }
  throw new ReportsDirError(`${file} is not a manifest svc-conformance wrote; remove it or choose another folder`);
}

/** The claimed files that exist, and every entry below the claimed folders (a symlink is an entry, not followed). */
function presentFiles(dir: string, claim: Claim): string[] {
  const out: string[] = [];
  for (const f of claim.files) if (kindAt(path.join(dir, f)) !== 'missing') out.push(f);
  for (const d of claim.dirs) walk(dir, d, out);
  return out;
}

function walk(dir: string, rel: string, out: string[]): void {
  const kind = kindAt(path.join(dir, rel));
  if (kind === 'missing') return;
  if (kind !== 'dir') {
    out.push(rel);
    return;
  }
  for (const name of readdirSync(path.join(dir, rel)).sort()) walk(dir, `${rel}/${name}`, out);
}

function kindAt(p: string): 'missing' | 'dir' | 'other' {
  try {
    return lstatSync(p).isDirectory() ? 'dir' : 'other';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}

function removeEmptyDirs(p: string): void {
  if (kindAt(p) !== 'dir') return;
  for (const name of readdirSync(p)) removeEmptyDirs(path.join(p, name));
  if (readdirSync(p).length === 0) rmdirSync(p);
}

const ALLURE_NAME =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-(result\.json|container\.json|attachment\.[A-Za-z0-9]+)$/;
const SUITE_MARKS = ['svc-conformance', 'Generated by `npm run docs:checks`'];

/** A file of a folder without a manifest, recognised as one an earlier version of the suite wrote. */
function writtenBySuite(dir: string, rel: string, suiteSummary: boolean): boolean {
  const file = path.join(dir, rel);
  if (kindAt(file) !== 'other' || lstatSync(file).isSymbolicLink()) return false;
  const [top, name, deeper] = rel.split('/');
  if (deeper !== undefined) return false;
  if (name === undefined) return top!.endsWith('.json') ? isSuiteJson(file) : mentionsSuite(file);
  if (top === ALLURE_DIR) return suiteSummary && ALLURE_NAME.test(name);
  if (top === HISTORY_DIR) return suiteSummary && /^[A-Za-z0-9._-]+\.json$/.test(name) && isJson(file);
  if (top === NODEAGENT_CASE_DIR) return /^nodeagent-[A-Za-z0-9._-]+-\d+\.yaml$/.test(name) && /^# (rest|node):/.test(head(file));
  if (top === CHECK_DOC_DIR) return name.endsWith('.md') && mentionsSuite(file);
  if (top === FAILURE_PAGE_DIR) return name.endsWith('.html') && mentionsSuite(file);
  if (top === COUNTEREXAMPLE_DIR) return /\.(sh|mjs|txt)$/.test(name) && mentionsSuite(file);
  return false;
}

function head(file: string): string {
  // The mark sits after a page's style block, a few KiB in.
  return readFileSync(file, 'utf8').slice(0, 1 << 20);
}

function mentionsSuite(file: string): boolean {
  const text = head(file);
  return SUITE_MARKS.some((m) => text.includes(m));
}

function isJson(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

function isSuiteJson(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { tool?: unknown }).tool === 'svc-conformance';
  } catch {
    return false;
  }
}
