/**
 * A CLI run against the embedded server with a hostile fault (targets/api-server/hostile-faults.ts),
 * as the three hostile-* self-test files start it: their runs mostly wait out budgets and request
 * bounds, so they are separate files, spread over vitest's workers, rather than three blocks of one
 * file that ran one after another (about 230 s in one worker, the longest file of `npm test`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');

export interface Summary {
  verdict: string;
  errors: string[];
  leftovers?: { kind: string; name: string }[];
  clauses: { id: string; status: string; notes: string[] }[];
}

export interface CliRun {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** A folder of its own for one file's reports. */
export const reportsFolder = (): string => mkdtempSync(path.join(tmpdir(), 'svc-conformance-hostile-'));

/** `svc-conformance run ARGS`, with no kubeconfig of the machine's in reach. */
export function runCli(args: readonly string[]): CliRun {
  const child = spawn(process.execPath, [bin, 'run', ...args], {
    env: { ...process.env, KUBECONFIG: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return { child, stderr: () => stderr, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

export const summaryOf = (reports: string): Summary => JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;
