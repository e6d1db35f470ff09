// `--reports DIR` never deletes or overwrites what the suite did not write there: a user's files where
// the reports go refuse the run (exit 2, one line, before any request); an empty path is a usage error.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, KUBECONFIG: '' } });
// A planted fault, so the run writes failures/ and counterexamples/ as well.
const FAILING = ['run', '--check', 'health-endpoints', '--runs', '5', '--fault', 'health-exclude-ignored', '--no-confirm'];

function userFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-user-reports-'));
  mkdirSync(path.join(dir, 'checks'));
  mkdirSync(path.join(dir, 'failures'));
  writeFileSync(path.join(dir, 'checks', 'x'), 'my check\n');
  writeFileSync(path.join(dir, 'failures', 'y'), 'my failure\n');
  return dir;
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('the reports folder', () => {
  it("--reports DIR holding a user's checks/x and failures/y: exit 2 naming one, both left in place, nothing written", () => {
    const dir = userFolder();
    const r = cli(tmpdir(), ...FAILING, '--reports', dir);
    expect(r.status).toBe(2);
    expectOneLine(
      r.stderr,
      /--reports: .*checks\/x was not written by svc-conformance \(and 1 more\).*move it away or choose another folder/,
    );
    expect(readFileSync(path.join(dir, 'checks', 'x'), 'utf8')).toBe('my check\n');
    expect(readFileSync(path.join(dir, 'failures', 'y'), 'utf8')).toBe('my failure\n');
    expect(existsSync(path.join(dir, 'summary.json'))).toBe(false);
  });

  it('--reports . in a folder of the user: refused the same way', () => {
    const dir = userFolder();
    const r = cli(dir, ...FAILING, '--reports', '.');
    expect(r.status).toBe(2);
    expect(readFileSync(path.join(dir, 'checks', 'x'), 'utf8')).toBe('my check\n');
  });

  it('a folder of its own is written again and again (failures of the first run replaced), and then refused once a user adds a file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-own-reports-'));
    expect(cli(tmpdir(), ...FAILING, '--reports', dir).status).toBe(1);
    expect(existsSync(path.join(dir, 'failures', 'rest_4.2_exclude-1.html'))).toBe(true);
    expect(cli(tmpdir(), 'run', '--check', 'health-endpoints', '--runs', '5', '--reports', dir).status).toBe(0);
    expect(existsSync(path.join(dir, 'failures'))).toBe(false);
    mkdirSync(path.join(dir, 'counterexamples'));
    writeFileSync(path.join(dir, 'counterexamples', 'notes.sh'), 'echo mine\n');
    const r = cli(tmpdir(), ...FAILING, '--reports', dir);
    expect(r.status).toBe(2);
    expect(readFileSync(path.join(dir, 'counterexamples', 'notes.sh'), 'utf8')).toBe('echo mine\n');
  });

  it("--reports '' is a usage error (exit 2), for run and merge-reports", () => {
    const r = cli(tmpdir(), 'run', '--reports', '');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--reports.*an empty path/);
    expect(cli(tmpdir(), 'merge-reports', 'a', 'b', '--reports', '').status).toBe(2);
  });

  it("merge-reports into a folder holding a user's failures/y: exit 2, left in place", () => {
    const shard = mkdtempSync(path.join(tmpdir(), 'svc-shard-'));
    expect(cli(tmpdir(), ...FAILING, '--shard', '1/1', '--reports', shard).status).toBe(1);
    const dir = userFolder();
    const r = cli(tmpdir(), 'merge-reports', shard, '--reports', dir);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--reports: .*was not written by svc-conformance/);
    expect(readFileSync(path.join(dir, 'failures', 'y'), 'utf8')).toBe('my failure\n');
  });
});
