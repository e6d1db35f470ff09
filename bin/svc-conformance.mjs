#!/usr/bin/env node
// `--version` alone is answered before anything loads: even the compiled CLI evaluates its check
// registry at import, and on a busy machine one line should not wait for that.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The CLI runs from dist/ (built by `npm ci` through `prepare`, or `npm run build`; the package ships
  // only dist/). In a clone without a dist/ as new as the sources it runs the TypeScript through tsx (a
  // development dependency, which a clone has), slower but the same program, and says so in one line:
  // building here instead would have every concurrent start (the suites start the CLI per case) write
  // one folder at once.
  const { distEntry, distState } = await import('../scripts/dist-state.mjs');
  const state = distState();
  if (state === 'fresh') {
    await import(pathToFileURL(distEntry).href);
  } else {
    process.stderr.write(
      `svc-conformance: dist/ is ${state === 'missing' ? 'missing' : 'older than the sources'}; running the sources through tsx (slower start; \`npm run build\` compiles it)\n`,
    );
    const { register } = await import('tsx/esm/api');
    register();
    await import('../scripts/cli.ts');
  }
}
