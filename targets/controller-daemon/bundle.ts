/**
 * The reference daemon as one ESM file, for runs that start it dozens of times: through the tsx loader
 * each start costs about 0.33 s of CPU (loader registration and transpiling 30 modules), bundled about
 * 0.13 s. On a 2-core machine the daemon checks are CPU-bound, so this is most of their time.
 * Packages stay external, so the file lives under node_modules/.cache, where they resolve.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface BundledDaemon {
  readonly entry: string;
  readonly remove: () => void;
}

/** Undefined when esbuild cannot build it (the caller falls back to the tsx loader). */
export async function bundleReferenceDaemon(): Promise<BundledDaemon | undefined> {
  const dir = path.join(root, 'node_modules', '.cache', 'svc-conformance');
  const entry = path.join(dir, `controller-daemon-${process.pid}-${Date.now().toString(36)}.mjs`);
  try {
    const { build } = await import('esbuild');
    mkdirSync(dir, { recursive: true });
    await build({ entryPoints: [path.join(root, 'targets', 'controller-daemon', 'main.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: entry, logLevel: 'silent' });
    return { entry, remove: () => rmSync(entry, { force: true }) };
  } catch {
    rmSync(entry, { force: true });
    return undefined;
  }
}
