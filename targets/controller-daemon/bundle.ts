/**
 * The reference daemon as one ESM file, for runs that start it dozens of times: through the tsx loader
 * each start costs about 0.33 s of CPU (loader registration and transpiling 30 modules), bundled about
 * 0.13 s. On a 2-core machine the daemon checks are CPU-bound, so this is most of their time.
 *
 * yaml is bundled in, and undici beside it as one CommonJS file that the daemon still loads only when
 * it first sends a request (harness/lazy-undici.ts): resolving and reading their hundreds of small
 * files from node_modules was most of what remained of a start (yaml about 0.06 s, undici about 0.18 s
 * against 0.11 s bundled). @kubernetes/client-node stays external (imported only for exec plugins), so
 * the files live under node_modules/.cache, where it resolves.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `import.meta.url` in the generated code, spelled so the CLI's build (scripts/build.ts) leaves it alone. */
const META_URL = ['import', 'meta', 'url'].join('.');

export interface BundledDaemon {
  readonly entry: string;
  readonly remove: () => void;
}

/** harness/lazy-undici.ts, requiring the bundled undici beside the entry instead of the package. */
function bundledUndici(file: string): Plugin {
  return {
    name: 'bundled-undici',
    setup(b) {
      b.onLoad({ filter: /[/\\]harness[/\\]lazy-undici\.ts$/ }, () => ({
        loader: 'ts',
        contents: [
          "import { createRequire } from 'node:module';",
          'let loaded: unknown;',
          `export function undici(): any { loaded ??= createRequire(${META_URL})(${JSON.stringify(`./${path.basename(file)}`)}); return loaded; }`,
        ].join('\n'),
      }));
    },
  };
}

/** Undefined when esbuild cannot build it (the caller falls back to the tsx loader). */
export async function bundleReferenceDaemon(): Promise<BundledDaemon | undefined> {
  const dir = path.join(root, 'node_modules', '.cache', 'svc-conformance');
  const stem = path.join(dir, `controller-daemon-${process.pid}-${Date.now().toString(36)}`);
  const entry = `${stem}.mjs`;
  const undiciFile = `${stem}-undici.cjs`;
  const remove = () => {
    rmSync(entry, { force: true });
    rmSync(undiciFile, { force: true });
  };
  try {
    const { build } = await import('esbuild');
    mkdirSync(dir, { recursive: true });
    await build({
      stdin: { contents: "module.exports = require('undici');", resolveDir: root, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: undiciFile,
      logLevel: 'silent',
    });
    await build({
      entryPoints: [path.join(root, 'targets', 'controller-daemon', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['@kubernetes/client-node'],
      // yaml's CommonJS parts require node's own modules.
      banner: { js: `import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(${META_URL});` },
      plugins: [bundledUndici(undiciFile)],
      outfile: entry,
      logLevel: 'silent',
    });
    return { entry, remove };
  } catch {
    remove();
    return undefined;
  }
}
