// Bad input gets one clear line and the exit code of DESIGN.md, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/svc-conformance.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: '' } });
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-cli-'));

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('svc-conformance run with bad input', () => {
  it('malformed kubeconfig: exit 2, one line naming file, line and column', () => {
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(file, 'apiVersion: v1\nclusters:\n  - cluster: {server: "https://x\n  users: [\n');
    const r = cli('run', '--kubeconfig', file);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*line \\d+`));
  });

  it('missing kubeconfig file: exit 2', () => {
    const r = cli('run', '--kubeconfig', path.join(dir, 'nope.yaml'));
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /nope\.yaml.*no such file/);
  });

  it('unreachable target: exit 3, one line naming the server', () => {
    const r = cli('run', '--server', 'http://127.0.0.1:9');
    expect(r.status).toBe(3);
    expectOneLine(r.stderr, /127\.0\.0\.1:9/);
  });

  it('unknown option and unknown suite: exit 2', () => {
    expect(cli('run', '--no-such-flag').status).toBe(2);
    const r = cli('run', '--suite', 'nonsense');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /unknown suite nonsense/);
  });
});
