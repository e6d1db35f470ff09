// Bad input to compare and matrix gets one clear line and the exit code of docs/verdict-rules.md, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: '' } });
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-compare-'));

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('compare and matrix with bad input', () => {
  it('compare with an unknown fault: exit 2, one line naming the known ones', () => {
    const r = cli('compare', '--fault', 'nope', '--reports', dir);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--fault: unknown nope; known: /);
  });

  it('compare with a missing reference kubeconfig: exit 2, one line naming it', () => {
    const r = cli('compare', '--reference-kubeconfig', path.join(dir, 'nope.yaml'), '--reports', dir);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /reference: .*nope\.yaml.*no such file/);
  });

  it('compare with an unreachable reference: exit 3, one line naming the server', () => {
    const r = cli('compare', '--reference-server', 'http://127.0.0.1:9', '--reports', dir);
    expect(r.status).toBe(3);
    expectOneLine(r.stderr, /127\.0\.0\.1:9/);
  });

  it('matrix of a folder without summary.json: exit 2, one line naming the file', () => {
    const r = cli('matrix', dir, path.join(dir, 'none'), '--reports', dir);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /summary\.json: no such file/);
  });
});
