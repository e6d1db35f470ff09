// Whether dist/ (the CLI compiled by scripts/build.ts) may run in place of the TypeScript sources.
// Plain JavaScript because bin/svc-conformance.mjs reads it before any loader exists; the check
// stats every source the bundle was built from (about 250 files, a few milliseconds).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = path.join(packageRoot, 'dist');
export const distEntry = path.join(distDir, 'cli.js');
export const manifestFile = path.join(distDir, 'build.json');

/**
 * 'fresh', 'missing', or 'stale' (a source changed after the build began). Times, not hashes: a clone
 * builds after its checkout. An installed package is always fresh (see below).
 */
export function distState() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return 'missing';
  }
  if (typeof manifest?.startedAtMs !== 'number' || !Array.isArray(manifest.inputs)) return 'missing';
  // An installed package (`npm i svc-conformance`): its dist/ is the program that was shipped. npm
  // gives extracted files the time of extraction, so times say nothing there, and nobody edits them.
  if (packageRoot.split(path.sep).includes('node_modules')) return 'fresh';
  // The package without its sources (unpacked anywhere else): nothing to be stale against, nor to run instead.
  if (!existsSync(path.join(packageRoot, 'scripts', 'cli.ts'))) return 'fresh';
  for (const f of manifest.inputs) {
    let mtimeMs;
    try {
      mtimeMs = statSync(path.join(packageRoot, f)).mtimeMs;
    } catch {
      return 'stale';
    }
    if (mtimeMs > manifest.startedAtMs) return 'stale';
  }
  return 'fresh';
}
