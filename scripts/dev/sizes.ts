/**
 * `npm run sizes`: the hand-written source files over 400 lines and the functions over 80 lines
 * (scripts/dev/source-sizes.ts: generated files and tables aside), biggest first, and their counts.
 * test/unit/architecture/sizes.test.ts holds the same figures to an allowlist that may only shrink.
 *
 * `npm run sizes -- --width 140` measures each file as prettier would format it at that printWidth
 * (the repository's other prettier options and .prettierignore kept), without writing anything: the
 * sizes a narrower printWidth would give, before the tree is reformatted.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, isMeasured, oversize, type Oversize } from './source-sizes.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every tracked (or new, not ignored) source file of `dir` the rules measure, with its text. */
function measuredSources(dir: string): { file: string; text: string }[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: dir, encoding: 'utf8' });
  return listed
    .split('\n')
    .filter(isMeasured)
    .flatMap((file) => {
      try {
        return [{ file, text: readFileSync(path.join(dir, file), 'utf8') }];
      } catch {
        return []; // listed by git but deleted in the work tree
      }
    });
}

/** Every tracked (or new, not ignored) source file the rules measure, and what of it is oversize. */
export function oversizeInCheckout(dir: string = root): Oversize[] {
  return measuredSources(dir).flatMap(({ file, text }) => oversize(file, text));
}

/**
 * What would be oversize once the checkout is formatted at `printWidth`: each file is formatted in
 * memory with the repository's prettier options but that width; a file .prettierignore leaves alone
 * (the tables kept one row a line) is measured as it is.
 */
export async function oversizeAtWidth(printWidth: number, dir: string = root): Promise<Oversize[]> {
  const prettier = await import('prettier');
  const ignorePath = path.join(dir, '.prettierignore');
  const out: Oversize[] = [];
  for (const { file, text } of measuredSources(dir)) {
    const filepath = path.join(dir, file);
    const info = await prettier.getFileInfo(filepath, { ignorePath });
    if (info.ignored || info.inferredParser === null) {
      out.push(...oversize(file, text));
      continue;
    }
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    out.push(...oversize(file, await prettier.format(text, { ...options, filepath, printWidth })));
  }
  return out;
}

/** `--width N` of the command line, or undefined for the files as they are. */
function widthOption(argv: readonly string[]): number | undefined {
  const at = argv.indexOf('--width');
  if (at === -1) return undefined;
  const width = Number(argv[at + 1]);
  if (!Number.isInteger(width) || width < 40) {
    process.stderr.write(`sizes: --width takes a printWidth of 40 or more, not ${argv[at + 1] ?? 'nothing'}\n`);
    process.exit(2);
  }
  return width;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const width = widthOption(process.argv.slice(2));
  const found = (width === undefined ? oversizeInCheckout() : await oversizeAtWidth(width)).sort((a, b) => b.lines - a.lines);
  const files = found.filter((o) => o.kind === 'file');
  const functions = found.filter((o) => o.kind === 'function');
  if (width !== undefined) process.stdout.write(`as formatted at printWidth ${width}:\n`);
  process.stdout.write(`files over ${MAX_FILE_LINES} lines: ${files.length}\n`);
  for (const o of files) process.stdout.write(`  ${String(o.lines).padStart(5)}  ${o.file}\n`);
  process.stdout.write(`functions over ${MAX_FUNCTION_LINES} lines: ${functions.length}\n`);
  for (const o of functions) process.stdout.write(`  ${String(o.lines).padStart(5)}  ${o.file}  ${o.name}\n`);
}
