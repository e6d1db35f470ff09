// `run --dry-run` prints the plan and sends nothing: an external target gets no request,
// the embedded one is not started, no reports folder is made.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from '../../../suites/checks/index.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
// Its HOME too: a ~/.kube/config of the machine would add the embedded-target notice (docs/what-a-run-says.md).
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-dry-'));

function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, KUBECONFIG: '', HOME: dir } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The check ids of the plan's table: its lines that name a registered check in their second column. */
const plannedIds = (stdout: string) =>
  stdout
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[1])
    .filter((id): id is string => id !== undefined && checks.some((c) => c.id === id));

describe('run --dry-run', () => {
  it('--focus watch --skip bookmark against an external target: only matching checks, and the target gets no request', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await cli(['run', '--dry-run', '--focus', 'watch', '--skip', 'bookmark', '--server', url, '--reports', 'out']);
      expect(r.status, r.stderr).toBe(0);
      const ids = plannedIds(r.stdout);
      expect(ids.length).toBeGreaterThan(3);
      for (const id of ids) {
        const c = checks.find((k) => k.id === id)!;
        const texts = [c.id, c.suite, c.title, ...c.clauses].join('\n');
        expect(texts, id).toMatch(/watch/i);
        expect(texts, id).not.toMatch(/bookmark/i);
      }
      expect(ids).not.toContain('watch-bookmarks');
      expect(r.stdout).toContain(`target:  ${url}`);
      expect(r.stdout).toMatch(/budget: +25 examples per property/);
      expect(r.stdout).toMatch(/^clauses:\n {2}rest:/m);
      expect(requests).toBe(0);
      expect(existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      server.close();
    }
  });

  it('on the embedded target nothing starts: no server line, nothing on stderr; -o json is the plan as data', async () => {
    const r = await cli(['run', '--dry-run', '--suite', 'rest-paging', '-o', 'json', '--seed', '7']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const plan = JSON.parse(r.stdout) as { seed: number; checks: { id: string; suite: string }[]; clauses: string[] };
    expect(plan.seed).toBe(7);
    expect(plan.checks.map((c) => c.id)).toEqual(checks.filter((c) => c.suite === 'rest-paging').map((c) => c.id));
    expect(plan.clauses.length).toBeGreaterThan(0);
  });
});
