/**
 * `npm run build` (and `prepare`, so `npm ci` runs it): the CLI as JavaScript in dist/ (git-ignored), so
 * `bin/svc-conformance.mjs` starts without the tsx loader transpiling ~250 modules on every start
 * (about 2 CPU-seconds for `--version`).
 *
 * One ESM bundle of the repository's own code and the packages it imports, but for the few left to
 * node_modules (EXTERNAL); the checks run in the CLI's own process, from the bundle. Beside it, the
 * reference controller daemon as a bundle of its own (dist/controller-daemon/), which the daemon checks
 * start as a process: an installed package runs no TypeScript and needs neither tsx nor esbuild.
 *
 *   npm run build            # rebuild dist/
 *   tsx scripts/build.ts --if-stale
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { distDir, distState, manifestFile, packageRoot } from './dist-state.mjs';
import { BUILT_DAEMON_DIR, daemonBundleOptions } from '../targets/controller-daemon/bundle.ts';

const ENTRY = 'scripts/cli.ts';
/**
 * Left to node_modules: vitest (the self-tests' runner; nothing shipped imports it), esbuild and tsx
 * (development dependencies: the sources' fallbacks for the daemon, never reached by the build), and
 * @kubernetes/client-node (large, and imported only to read a kubeconfig that needs an exec plugin).
 * undici is required at its first request (harness/transport/lazy-undici.ts), so it stays a package too. The rest
 * is bundled: resolving and loading a package's hundred small files is most of a start (yaml, protobufjs),
 * and so the package's runtime dependencies are only these two.
 */
const EXTERNAL = ['vitest', 'vitest/*', 'esbuild', 'tsx', 'tsx/*', '@kubernetes/client-node'];

/**
 * Bundled, every module would share the bundle's `import.meta.url`, and the paths the sources build
 * from it (package.json, docs/, the daemon's main.ts) would point into dist/. Each module keeps its
 * own: its source file's URL, computed from the bundle's at run time so the package can move.
 */
function sourceLocationPlugin(outDir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        const rel = path.relative(packageRoot, args.path);
        if (/\bimport\.meta\.(dirname|filename)\b/.test(text)) {
          return {
            errors: [
              { text: `${rel}: use import.meta.url (the build rewrites it to the source's location; dirname and filename it does not)` },
            ],
          };
        }
        const fromOut = path.relative(outDir, args.path).split(path.sep).join('/');
        return {
          contents: text.replace(/\bimport\.meta\.url\b/g, `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`),
          loader: 'ts',
        };
      });
    },
  };
}

/**
 * Moves into `next` the chunks the build in `previous` made itself and `next` lacks. A run started from
 * the previous build imports some chunks only when it gets there (the confirmation replays, the
 * reports): a rebuild meanwhile (`npm test` beside a long `test:upstream`) removed them, and the run
 * ended in an internal error, ERR_MODULE_NOT_FOUND. Chunk names carry their content's hash, so none
 * collides with a chunk of `next`. One build back only: what the previous build had itself carried
 * over is not in its own list and goes, so dist/ does not grow with every build.
 */
export function carryPreviousChunks(previous: string, next: string): string[] {
  let own: unknown;
  try {
    own = (JSON.parse(readFileSync(path.join(previous, path.basename(manifestFile)), 'utf8')) as { chunks?: unknown }).chunks;
  } catch {
    return [];
  }
  if (!Array.isArray(own)) return [];
  const carried: string[] = [];
  for (const name of own) {
    if (
      typeof name !== 'string' ||
      name !== path.basename(name) ||
      existsSync(path.join(next, name)) ||
      !existsSync(path.join(previous, name))
    )
      continue;
    renameSync(path.join(previous, name), path.join(next, name));
    carried.push(name);
  }
  return carried;
}

/** Builds into a scratch folder, then swaps it in: a CLI started meanwhile sees the old dist/ or none. */
export async function buildDist(): Promise<{ inputs: number; ms: number }> {
  const startedAtMs = Date.now();
  const scratch = `${distDir}.${process.pid}.tmp`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const result = await build({
      absWorkingDir: packageRoot,
      entryPoints: { cli: ENTRY },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      // The bundled CommonJS packages (undici, commander, protobufjs) require node's own modules.
      banner: {
        js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);",
      },
      // Chunks beside cli.js: the rewritten import.meta.url of every module is relative to dist/.
      outdir: scratch,
      chunkNames: '[name]-[hash]',
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'warning',
      plugins: [sourceLocationPlugin(distDir)],
      // How targets/controller-daemon/bundle.ts knows it runs from the build.
      define: { 'process.env.SVC_CONFORMANCE_BUILD': '"dist"' },
    });
    const daemon = await build({
      ...daemonBundleOptions(path.join(scratch, path.relative(distDir, BUILT_DAEMON_DIR))),
      absWorkingDir: packageRoot,
      metafile: true,
    });
    // The daemon's sources count too: dist/ is stale when one of them changed.
    const inputs = [...new Set([...Object.keys(result.metafile.inputs), ...Object.keys(daemon.metafile.inputs)])]
      .filter((f) => !f.split('/').includes('node_modules'))
      .sort();
    // The chunks this build made (not cli.js, which a running CLI has already loaded): the next build carries them over.
    const chunks = Object.keys(result.metafile.outputs)
      .map((f) => path.basename(f))
      .filter((f) => !f.startsWith('cli.js'))
      .sort();
    writeFileSync(
      path.join(scratch, path.basename(manifestFile)),
      `${JSON.stringify({ startedAtMs, entry: ENTRY, inputs, chunks }, null, 1)}\n`,
    );
    const old = `${distDir}.${process.pid}.old`;
    rmSync(old, { recursive: true, force: true });
    try {
      renameSync(distDir, old);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    renameSync(scratch, distDir);
    carryPreviousChunks(old, distDir);
    rmSync(old, { recursive: true, force: true });
    return { inputs: inputs.length, ms: Date.now() - startedAtMs };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** For test setup: builds only when a source changed since the last build (or there was none). */
export async function ensureDist(): Promise<void> {
  if (distState() !== 'fresh') await buildDist();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(packageRoot, 'scripts', 'build.ts')) {
  if (process.argv.includes('--if-stale') && distState() === 'fresh') {
    process.stdout.write('dist/ is up to date\n');
  } else {
    const r = await buildDist();
    process.stdout.write(`dist/: the CLI from ${r.inputs} sources in ${(r.ms / 1000).toFixed(1)} s\n`);
  }
}
