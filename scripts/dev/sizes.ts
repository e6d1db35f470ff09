/**
 * `npm run sizes`: the hand-written source files over 400 lines and the functions over 80 lines
 * (scripts/dev/source-sizes.ts: generated files and tables aside), biggest first, and their counts.
 * test/architecture/sizes.test.ts holds the same figures to an allowlist that may only shrink.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, isMeasured, oversize, type Oversize } from './source-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every tracked (or new, not ignored) source file the rules measure, and what of it is oversize. */
export function oversizeInCheckout(dir: string = root): Oversize[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' });
  const files = listed.split('\n').filter(isMeasured);
  return files.flatMap((f) => {
    try {
      return oversize(f, readFileSync(path.join(dir, f), 'utf8'));
    } catch {
      return []; // listed by git but deleted in the work tree
    }
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = oversizeInCheckout().sort((a, b) => b.lines - a.lines);
  const files = found.filter((o) => o.kind === 'file');
  const functions = found.filter((o) => o.kind === 'function');
  process.stdout.write(`files over ${MAX_FILE_LINES} lines: ${files.length}\n`);
  for (const o of files) process.stdout.write(`  ${String(o.lines).padStart(5)}  ${o.file}\n`);
  process.stdout.write(`functions over ${MAX_FUNCTION_LINES} lines: ${functions.length}\n`);
  for (const o of functions) process.stdout.write(`  ${String(o.lines).padStart(5)}  ${o.file}  ${o.name}\n`);
}
