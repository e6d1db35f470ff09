/**
 * The reference daemon as one ESM file, for runs that start it dozens of times: through the tsx loader
 * each start costs about 0.33 s of CPU (loader registration and transpiling 30 modules), bundled about
 * 0.13 s. On a 2-core machine the daemon checks are CPU-bound, so this is most of their time.
 *
 * yaml is bundled in: resolving and reading its many small files from node_modules was most of what
 * remained of a start. The daemon sends its few requests with node's own http (api-client.ts), so
 * undici is not in it at all. @kubernetes/client-node stays external (a kubeconfig of a server and a
 * token never imports it; harness/kubeconfig.ts), so the file lives under node_modules/.cache, where
 * it resolves.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** `import.meta.url` in the generated code, spelled so the CLI's build (scripts/build.ts) leaves it alone. */
const META_URL = ['import', 'meta', 'url'].join('.');

export interface BundledDaemon {
  readonly entry: string;
  readonly remove: () => void;
}

/** Undefined when esbuild cannot build it (the caller falls back to the tsx loader). */
export async function bundleReferenceDaemon(): Promise<BundledDaemon | undefined> {
  const dir = path.join(root, 'node_modules', '.cache', 'svc-conformance');
  const out = path.join(dir, `controller-daemon-${process.pid}-${Date.now().toString(36)}`);
  const entry = path.join(out, 'main.mjs');
  const remove = () => rmSync(out, { recursive: true, force: true });
  try {
    const { build } = await import('esbuild');
    mkdirSync(out, { recursive: true });
    await build({
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
      outdir: out,
      entryNames: '[name]',
      outExtension: { '.js': '.mjs' },
      logLevel: 'silent',
    });
    return { entry, remove };
  } catch {
    remove();
    return undefined;
  }
}
