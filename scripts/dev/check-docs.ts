/**
 * Writes docs/checks/ from the check registry (`npm run docs:checks`): one page per check and the
 * index README.md (reports/check-docs.ts renders them). Pages of checks no longer registered are
 * removed. A self-test checks the folder is what this renders.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCheckDocs } from '../../reports/check-docs.ts';

export const CHECK_DOCS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/checks');

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const docs = allCheckDocs();
  mkdirSync(CHECK_DOCS_DIR, { recursive: true });
  const keep = new Set(docs.map((d) => d.name));
  for (const f of readdirSync(CHECK_DOCS_DIR)) if (!keep.has(f)) rmSync(path.join(CHECK_DOCS_DIR, f));
  for (const d of docs) writeFileSync(path.join(CHECK_DOCS_DIR, d.name), d.content);
  process.stdout.write(`${path.relative(process.cwd(), CHECK_DOCS_DIR)}/: ${docs.length - 1} check pages and README.md\n`);
}
