// Why: a run that cannot finish still reports. --timeout and the CI system's SIGTERM
// both end a run with every report written, the unfinished checks' clauses notChecked with the reason
// (never passed), and the documented exit code.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-budget-'));

interface Summary {
  verdict: string;
  errors: string[];
  clauses: { id: string; status: string; notes: string[] }[];
}
const summaryOf = (reports: string) => JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;

describe('svc-conformance run that cannot finish', () => {
  it('--timeout 5s: exit 3, every report written, unfinished clauses notChecked with the reason', () => {
    const reports = path.join(dir, 'timeout');
    const r = spawnSync(process.execPath, [bin, 'run', '--timeout', '5s', '--reports', reports], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, KUBECONFIG: '' },
    });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/run timeout after \d+ s: \d+ of \d+ checks did not finish/);
    for (const f of ['summary.json', 'summary.md', 'index.html', 'junit.xml']) expect(existsSync(path.join(reports, f)), f).toBe(true);
    const s = summaryOf(reports);
    expect(s.verdict).not.toBe('conformant');
    const stopped = s.clauses.filter((c) => c.notes.some((n) => n.startsWith('run timeout: check ')));
    expect(stopped.length).toBeGreaterThan(0);
    expect(stopped.some((c) => c.status === 'notChecked')).toBe(true);
  });

  it('SIGTERM: summary.json is written before the process exits 143', async () => {
    const reports = path.join(dir, 'sigterm');
    const child = spawn(process.execPath, [bin, 'run', '--reports', reports], {
      env: { ...process.env, KUBECONFIG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The header names the run id once the run has started; the signal comes while checks run.
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/run id \w+/.test(stderr)) resolve();
      }),
    );
    child.kill('SIGTERM');
    const code = await exited;
    expect(code, stderr).toBe(143);
    const s = summaryOf(reports);
    expect(s.errors.some((e) => e.startsWith('SIGTERM after'))).toBe(true);
    expect(s.clauses.some((c) => c.status === 'notChecked' && c.notes.some((n) => n.startsWith('SIGTERM: check ')))).toBe(true);
  });
});
