// Why: `--reproduce N` on a replay runs the counterexample N times and says how
// often it failed, and the report's confirmation label comes from those replays; without the
// replay's seed, check and path it is one clear line and exit 2.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failuresOf, runAgainst } from '../../../scripts/dev/in-process-run.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (args: readonly string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, KUBECONFIG: '' } });

describe('--reproduce N', () => {
  it('counts the replays that fail, against the fault and against a clean server', async () => {
    const cx = failuresOf(await runAgainst({ checks: ['paging-snapshot'], faults: ['page-overflow'], runs: 40, seed: 7 }))[0]!
      .counterexample!;
    const replay = ['run', '--check', 'paging-snapshot', '--seed', String(cx.seed), '--path', cx.path!, '--reproduce', '2'];
    const dir = mkdtempSync(path.join(tmpdir(), 'cx-reproduce-'));
    const faulty = cli([...replay, '--fault', 'page-overflow', '--reports', path.join(dir, 'f')]);
    expect(faulty.status, faulty.stderr).toBe(1);
    expect(faulty.stderr).toContain(`reproduced 2 of 2 replays (failed: ${cx.clause})`);
    const summary = JSON.parse(readFileSync(path.join(dir, 'f', 'summary.json'), 'utf8')) as {
      clauses: { id: string; counterexamples: { confirmation?: { label: string; runs: number; reproduced: number } }[] }[];
    };
    expect(summary.clauses.find((c) => c.id === cx.clause)?.counterexamples[0]?.confirmation).toEqual({
      label: 'reproduces alone',
      runs: 2,
      reproduced: 2,
    });
    const clean = cli([...replay, '--reports', path.join(dir, 'c')]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stderr).toContain('reproduced 0 of 2 replays');
  }, 300_000);

  it('needs the replay it repeats', () => {
    const r = cli(['run', '--check', 'paging-snapshot', '--reproduce', '2']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'svc-conformance: --reproduce N replays one counterexample: give it with the --seed, --check and --path it was printed with',
    ]);
  });
});
