/**
 * The reference daemon as one ESM file (and its parts), for runs that start it dozens of times: through the
 * tsx loader each start costs about 0.33 s of CPU (loader registration and transpiling 30 modules), bundled
 * about 0.13 s. On a 2-core machine the daemon checks are CPU-bound, so this is most of their time.
 *
 * The compiled CLI starts the bundle `npm run build` wrote beside it (dist/controller-daemon/), so an
 * installed package needs neither esbuild nor tsx. The sources (a clone's tsx fallback, the self-tests)
 * bundle it per run instead, from the sources as they are now, into node_modules/.cache.
 *
 * yaml is bundled in: resolving and reading its many small files from node_modules was most of what
 * remained of a start. The daemon sends its few requests with node's own http (api-client.ts), so
 * undici is not in it at all. @kubernetes/client-node stays external (a kubeconfig of a server and a
 * token never imports it; harness/transport/kubeconfig.ts), so the bundle lives where that package resolves.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `import.meta.url` in the generated code, spelled so the CLI's build (scripts/build.ts) leaves it alone. */
const META_URL = ['import', 'meta', 'url'].join('.');

/** Where `npm run build` writes the daemon's bundle: its entry is `main.mjs` there. */
export const BUILT_DAEMON_DIR = path.join(root, 'dist', 'controller-daemon');

/**
 * True in the compiled CLI only: scripts/build.ts replaces this expression with a literal; the sources
 * (tsx, vitest) read an environment variable nobody sets.
 */
const runningTheBuild = (): boolean => process.env.SVC_CONFORMANCE_BUILD === 'dist';

export interface BundledDaemon {
  readonly entry: string;
  readonly remove: () => void;
}

/** esbuild's options for the daemon's bundle into `outdir`: one set for the build and the per-run bundle. */
export function daemonBundleOptions(outdir: string): BuildOptions {
  return {
    entryPoints: [path.join(root, 'targets', 'controller-daemon', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['@kubernetes/client-node'],
    // yaml's CommonJS parts require node's own modules.
    banner: { js: `import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(${META_URL});` },
    // In parts: a start that is refused never loads what only a running daemon needs (serving.ts).
    splitting: true,
    outdir,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
  };
}

/** The entry of the build's bundle when this code is the compiled CLI and the bundle is there. */
export function builtReferenceDaemon(): string | undefined {
  const entry = path.join(BUILT_DAEMON_DIR, 'main.mjs');
  return runningTheBuild() && existsSync(entry) ? entry : undefined;
}

/**
 * The bundle a run starts: the build's (kept), or from the sources one of the run's own (removed after
 * it). Undefined when esbuild cannot build it (the caller falls back to the tsx loader).
 */
export async function bundleReferenceDaemon(): Promise<BundledDaemon | undefined> {
  const built = builtReferenceDaemon();
  if (built !== undefined) return { entry: built, remove: () => undefined };
  const dir = path.join(root, 'node_modules', '.cache', 'svc-conformance');
  const out = path.join(dir, `controller-daemon-${process.pid}-${Date.now().toString(36)}`);
  const entry = path.join(out, 'main.mjs');
  const remove = () => rmSync(out, { recursive: true, force: true });
  try {
    const { build } = await import('esbuild');
    mkdirSync(out, { recursive: true });
    await build(daemonBundleOptions(out));
    return { entry, remove };
  } catch {
    remove();
    return undefined;
  }
}
