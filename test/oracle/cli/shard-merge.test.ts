// Why: a nightly run split across CI machines and merged must report what one run with the
// same seed reports, failures included; and -o json must leave stdout parseable.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-shard-'));
const cli = (args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { encoding: 'utf8', timeout: 240_000, env: { ...process.env, KUBECONFIG: '', GITHUB_STEP_SUMMARY: '' } },
      (e, out, err) => {
        resolve({ code: e === null ? 0 : typeof e.code === 'number' ? e.code : null, out, err });
      },
    );
  });
const statuses = (d: string) =>
  (JSON.parse(readFileSync(path.join(d, 'summary.json'), 'utf8')) as { clauses: { id: string; status: string }[] }).clauses.map(
    (c) => `${c.id} ${c.status}`,
  );

describe('run --shard and merge-reports', () => {
  it('shards 1/2 and 2/2 merged give the clause verdicts of one run with the same seed (a planted fault included)', async () => {
    const base = [
      'run',
      '--seed',
      '11',
      '--runs',
      '3',
      '--suite',
      'rest-paging',
      '--suite',
      'rest-health',
      '--suite',
      'rest-crud',
      '--fault',
      'health-exclude-ignored',
    ];
    const [whole, s1, s2] = await Promise.all([
      cli([...base, '--reports', path.join(dir, 'whole')]),
      cli([...base, '--shard', '1/2', '--reports', path.join(dir, 's1')]),
      cli([...base, '--shard', '2/2', '--reports', path.join(dir, 's2')]),
    ]);
    expect(whole.code, whole.err).toBe(1);
    expect([s1.code, s2.code].sort()).toEqual([0, 1]);
    const merged = await cli(['merge-reports', path.join(dir, 's1'), path.join(dir, 's2'), '--reports', path.join(dir, 'merged')]);
    expect(merged.code, merged.err).toBe(1);
    expect(statuses(path.join(dir, 'merged'))).toEqual(statuses(path.join(dir, 'whole')));
    expect(readFileSync(path.join(dir, 'merged', 'summary.md'), 'utf8')).toMatch(/rest:4\.2\/exclude/);
  });

  it('-o json writes summary.json alone to stdout', async () => {
    const r = await cli([
      'run',
      '--seed',
      '3',
      '--runs',
      '2',
      '--check',
      'health-endpoints',
      '-o',
      'json',
      '--reports',
      path.join(dir, 'json'),
    ]);
    expect(r.code, r.err).toBe(0);
    const parsed = JSON.parse(r.out) as { tool: string; verdict: string };
    expect(parsed).toMatchObject({ tool: 'svc-conformance', verdict: 'conformant' });
  });

  it('merge-reports of a folder that holds no report: exit 2, one line', async () => {
    const r = await cli(['merge-reports', path.join(dir, 'nothing-here')]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/summary\.json: no such file/);
  });
});

describe('list-checks -o json', () => {
  it('lists every check with its suite and clauses', async () => {
    const r = await cli(['list-checks', '-o', 'json']);
    const list = JSON.parse(r.out) as { id: string; suite: string; clauses: string[] }[];
    expect(list.length).toBeGreaterThan(100);
    expect(list.every((c) => c.id !== '' && c.suite !== '' && c.clauses.length > 0)).toBe(true);
  });
});
