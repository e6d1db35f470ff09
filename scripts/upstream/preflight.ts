/** What test:upstream checks before anything starts: the binaries, the expectations files, a reports root of its own. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetsError, resolveAssets, type BinaryName } from '../../harness/envtest/index.ts';
import { ExpectationsError, parseExpectations } from '../../reports/expectations.ts';
import { expectationFiles, type RunKind } from './plan.ts';
import { EXIT, fail, say } from './console.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const UPSTREAM_MARK = '.svc-conformance-upstream';

/** The upstream binaries, or the exit code when they are missing: 0 with --skip-if-missing, else a usage error. */
export function assetsOrExit(
  dir: string | undefined,
  skipIfMissing: boolean | undefined,
  required: BinaryName[],
): ReturnType<typeof resolveAssets> | number {
  try {
    return resolveAssets({ dir, required });
  } catch (e) {
    if (!(e instanceof AssetsError)) throw e;
    if (skipIfMissing) {
      say(`test:upstream: skipped (--skip-if-missing): ${e.message}`);
      return EXIT.ok;
    }
    fail(`${e.message} (--skip-if-missing to skip)`);
    return EXIT.usage;
  }
}

/** A malformed expectations file would fail every run the same way: refused before anything starts. */
export function expectationFilesRead(kinds: readonly RunKind[]): boolean {
  for (const kind of kinds) {
    const file = path.join(root, expectationFiles[kind]);
    try {
      parseExpectations(readFileSync(file, 'utf8'), path.relative(process.cwd(), file));
    } catch (e) {
      if (e instanceof ExpectationsError) fail(e.message);
      else fail(`${path.relative(process.cwd(), file)}: ${(e as Error).message.split('\n')[0]}`);
      return false;
    }
  }
  return true;
}

/**
 * Each run's folder and logs/ are replaced whole: only in a root this command made (its mark, or the
 * runs.json of an earlier version), or a new or empty one; never a user's folder. Marks it.
 */
export function claimReportsRoot(reportsRoot: string): boolean {
  const entries = existsSync(reportsRoot) ? readdirSync(reportsRoot) : [];
  if (entries.length > 0 && !entries.includes(UPSTREAM_MARK) && !entries.includes('runs.json')) {
    fail(
      `--reports ${reportsRoot}: holds files test:upstream did not write, and it replaces its run folders there; choose a new or empty folder (nothing was deleted)`,
    );
    return false;
  }
  mkdirSync(reportsRoot, { recursive: true });
  writeFileSync(
    path.join(reportsRoot, UPSTREAM_MARK),
    'Written by svc-conformance test:upstream: its run folders here are replaced by its next run.\n',
  );
  return true;
}
