#!/usr/bin/env node
// `npm test`: the type check and the self-tests at once. tsc takes one core for about half a minute and
// vitest's oracle files spend much of their time waiting on servers' timers, so side by side the two
// end sooner than one after the other. tsc's output is held and printed after vitest's, so neither
// report is cut into the other; the exit code is vitest's, or tsc's when vitest passed.
// Arguments go to vitest (`npm test -- test/oracle/faults-1-of-2.test.ts`).
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
// Incremental, with its state beside vitest's module cache (.vitest-cache/, ignored by git): a check of an
// unchanged tree costs about 10 CPU-seconds instead of 30. A fresh clone checks everything.
const tscArgs = ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', '.vitest-cache/tsc.tsbuildinfo'];
const tsc = spawn(process.execPath, [bin('typescript', 'tsc'), ...tscArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
tsc.stdout.on('data', (b) => tscOutput.push(b));
tsc.stderr.on('data', (b) => tscOutput.push(b));
const tscDone = new Promise((resolve) => tsc.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));

const vitest = spawn(process.execPath, [bin('vitest', 'vitest'), 'run', '--config', 'vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
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
