#!/usr/bin/env node
// `--version` alone is answered before anything loads: the CLI's module graph (about 240 TypeScript
// modules through the tsx loader, some building tables at import) costs about 2 s of CPU, 20 times a
// bare node start, and on a busy machine that was 5-20 s of waiting for one line (issue 24).
import { readFileSync } from 'node:fs';
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // The CLI is TypeScript run through tsx, so a clone works after `npm ci` with no build step.
  const { register } = await import('tsx/esm/api');
  register();
  await import('../scripts/cli.ts');
}
