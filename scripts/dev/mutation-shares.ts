/**
 * `npm run mutation` over several processes. Its runs are in-process (each starts its own target in
 * the same node process), so a single process ran the whole pool on one core: with two cores the other
 * idled, and on a shared machine the run got one process's share of the CPU. Each child runs every
 * `count`-th job of the ordered list (so the longest jobs spread over the children) and writes its
 * outcomes as JSON; the parent tabulates them as before.
 *
 *   parent: inShares(2, 3) -> spawns `mutation.ts --share 0/2 --width 3 --out F0` and `--share 1/2 ...`
 *   child:  shareOfArgv(argv) -> { index: 0, count: 2, width: 3, out: F0 }
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CheckRecord } from '../../runner/results.ts';

export interface ShareOutcome {
  /** The job's index in the parent's job list. */
  readonly job: number;
  readonly records: CheckRecord[];
  readonly ms: number;
  readonly crash?: string;
}

export interface Share {
  readonly index: number;
  readonly count: number;
  /** How many of the share's jobs run at a time. */
  readonly width: number;
  readonly out: string;
}

/** The share a child runs, from `--share I/N --width W --out FILE`; undefined in the parent. */
export function shareOfArgv(argv: readonly string[]): Share | undefined {
  const at = argv.indexOf('--share');
  if (at < 0) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(argv[at + 1] ?? '');
  const width = Number(argv[argv.indexOf('--width') + 1]);
  const out = argv[argv.indexOf('--out') + 1];
  if (!m || Number(m[1]) >= Number(m[2]) || !(width >= 1) || argv.indexOf('--out') < 0 || out === undefined)
    throw new Error(`mutation: bad share arguments ${argv.slice(at).join(' ')}`);
  return { index: Number(m[1]), count: Number(m[2]), width, out };
}

/**
 * The parent tabulates verdicts, clauses and counterexample sizes (requests, steps), not the
 * reproducers: a share's scripts, answers and watch histories outgrew what one JSON string can hold
 * (V8's ~512 MB; the concurrent-workload faults record whole histories), so they stay behind.
 */
export function writeShare(file: string, outcomes: readonly ShareOutcome[]): void {
  const slim = (r: CheckRecord): CheckRecord => {
    if (!r.counterexample) return r;
    const { curl: _curl, nodeTest: _nodeTest, history: _history, needs: _needs, answers: _answers, ...kept } = r.counterexample;
    return { ...r, counterexample: { ...kept, curl: '' } };
  };
  writeFileSync(file, JSON.stringify(outcomes.map((o) => ({ ...o, records: o.records.map(slim) }))));
}

/**
 * Runs this script once per share (same node, same loader flags) and returns every share's outcomes.
 * A child that fails to write its file contributes nothing: the caller marks those jobs crashed.
 */
export async function inShares(count: number, width: number): Promise<ShareOutcome[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-mutation-'));
  try {
    const files = Array.from({ length: count }, (_, i) => path.join(dir, `share-${i}.json`));
    await Promise.all(
      files.map(
        (out, i) =>
          new Promise<void>((resolve) => {
            const child = spawn(
              process.execPath,
              [...process.execArgv, process.argv[1]!, '--share', `${i}/${count}`, '--width', String(width), '--out', out],
              {
                stdio: ['ignore', 'ignore', 'inherit'],
              },
            );
            child.on('exit', (code, signal) => {
              if (code !== 0) process.stderr.write(`mutation: share ${i + 1}/${count} ended with ${signal ?? `exit ${code}`}\n`);
              resolve();
            });
            child.on('error', (e) => {
              process.stderr.write(`mutation: share ${i + 1}/${count} did not start: ${e.message}\n`);
              resolve();
            });
          }),
      ),
    );
    return files.flatMap((f) => {
      try {
        return JSON.parse(readFileSync(f, 'utf8')) as ShareOutcome[];
      } catch {
        return [];
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
