#!/usr/bin/env node
// The CLI runs from dist/ (built by `npm ci` through `prepare`, or `npm run build`). Without a dist/ as
// new as the sources it runs the TypeScript through tsx, slower but the same program, and says so in
// one line: building here instead would have every concurrent start (the suites start the CLI per
// case) write one folder at once, and fail in a read-only install.
import { pathToFileURL } from 'node:url';
import { distEntry, distState } from '../scripts/dist-state.mjs';

const state = distState();
if (state === 'fresh') {
  await import(pathToFileURL(distEntry).href);
} else {
  process.stderr.write(`svc-conformance: dist/ is ${state === 'missing' ? 'missing' : 'older than the sources'}; running the sources through tsx (slower start; \`npm run build\` compiles it)\n`);
  const { register } = await import('tsx/esm/api');
  register();
  await import('../scripts/cli.ts');
}
