#!/usr/bin/env node
// `npm test`: the type check and the self-tests at once. vitest's oracle files spend much of their time
// waiting on servers' timers, so the type check beside them costs no wall time of its own. tsc's output
// is held and printed after vitest's, so neither report is cut into the other; the exit code is
// vitest's, or tsc's when vitest passed.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bin = (pkg, name) => {
  const manifest = require(`${pkg}/package.json`);
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  return join(dirname(require.resolve(`${pkg}/package.json`)), rel);
};

const tscOutput = [];
// The native compiler (TypeScript 7, package alias typescript-7): a fresh clone's check took 19-29
// CPU-seconds with TypeScript 5.9 and 4-5 with 7, for the same diagnostics (5.9 stays only as the parser
// the architecture test walks: 7 has no stable JS API). Incremental, with its state beside vitest's
// module cache (.vitest-cache/, ignored by git): an unchanged tree checks in about a second.
const tscArgs = ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', '.vitest-cache/tsc7.tsbuildinfo'];
const tsc = spawn(process.execPath, [bin('typescript-7', 'tsc'), ...tscArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
tsc.stdout.on('data', (b) => tscOutput.push(b));
tsc.stderr.on('data', (b) => tscOutput.push(b));
const tscDone = new Promise((resolve) => tsc.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));

const vitest = spawn(process.execPath, [bin('vitest', 'vitest'), 'run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const vitestDone = new Promise((resolve) => vitest.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));

// Ctrl-C reaches both children through the terminal; a SIGTERM sent to this process alone is passed on.
process.on('SIGTERM', () => {
  tsc.kill('SIGTERM');
  vitest.kill('SIGTERM');
});

const [vitestCode, tscCode] = await Promise.all([vitestDone, tscDone]);
if (tscCode !== 0) {
  process.stdout.write(Buffer.concat(tscOutput));
  process.stdout.write(`\ntsc: the type check failed (exit ${tscCode})\n`);
}
process.exitCode = vitestCode !== 0 ? vitestCode : tscCode;
