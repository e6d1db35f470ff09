// rejudge derives every clause (docs/rejudge.md, "Every clause re-derived"): the checks whose verdicts
// the record once carried over (the deletion model's steps, negotiation, the informer relist, a future
// watch, the concurrent workload's history) are judged again from their recorded inputs. On a target
// with planted faults the failures come out the same (every report alike, nothing carried); a model
// made lenient in one of those judges lets its fault's failure pass, and one made strict fails what
// passed: rejudge exits 1 naming the clause, so the recorded inputs are what decides.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rejudgeDir } from '../../../reports/rejudge-dir.ts';
import { judges, type RegisteredJudge } from '../../../reference/judges.ts';
import type { Judgement } from '../../../reference/judgement.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, KUBECONFIG: '' } });

const CHECKS = [
  'deletion-finalizers',
  'negotiation-accept-lists',
  'watch-future-version',
  'watch-informer',
  'concurrent-workload',
  'apply-points',
  'health-endpoints',
];
const FAULTS = ['finalizers-ignored-on-delete', '406-replaced-by-json', 'watch-future-as-now'];

const statuses = (file: string) =>
  Object.fromEntries(
    (JSON.parse(readFileSync(file, 'utf8')) as { clauses: { id: string; status: string }[] }).clauses.map((c) => [c.id, c.status]),
  );

/** `judge` with every verdict `from` turned into `to` (a planted model bug in that one judge). */
function turned(name: keyof typeof judges, from: Judgement['verdict'], to: Judgement['verdict']): Record<string, RegisteredJudge> {
  const real = judges[name] as RegisteredJudge;
  const turn = (j: Judgement): Judgement => (j.verdict === from ? { ...j, verdict: to } : j);
  const planted: RegisteredJudge = (...args) => {
    const r = real(...args);
    if (r === undefined) return r;
    if (Array.isArray(r)) return (r as Judgement[]).map(turn);
    if ('judgements' in r) return { ...r, judgements: r.judgements.map(turn) };
    return turn(r as Judgement);
  };
  return { ...judges, [name]: planted };
}

const flips = async (dir: string, registry: Record<string, RegisteredJudge>) => {
  const o = await rejudgeDir(dir, registry);
  expect(o.exitCode).toBe(1);
  return o.changes.map((c) => `${c.clause} ${c.before.status} -> ${c.after.status}`);
};

describe('rejudge of the checks it once carried over', () => {
  it('derives every call and clause of their record, the same reports; a model bug in each of their judges flips a clause', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'svc-rejudge-derived-')), 'r');
    const run = cli(
      'run',
      '--seed',
      '4242',
      '--runs',
      '2',
      '--no-confirm',
      '--reports',
      dir,
      ...CHECKS.flatMap((c) => ['--check', c]),
      ...FAULTS.flatMap((f) => ['--fault', f]),
    );
    expect(run.status, run.stderr).toBe(1);
    const before = statuses(path.join(dir, 'summary.json'));
    expect([before['rest:3.1/live-to-terminating'], before['rest:4.8/unsupported'], before['rest:6.1.1']]).toEqual([
      'failed',
      'failed',
      'failed',
    ]);

    const again = cli('rejudge', dir);
    expect(again.status, again.stderr).toBe(0);
    const counts =
      /rejudge: (\d+) of (\d+) judge calls derived again .*\(0 with other verdicts than recorded\); of (\d+) clauses judged, (\d+) re-derived, 0 carried over/.exec(
        again.stdout,
      );
    expect(counts, again.stdout).not.toBeNull();
    expect(counts![1]).toBe(counts![2]);
    expect(counts![3]).toBe(counts![4]);
    for (const f of ['summary.json', 'summary.md', 'index.html', 'junit.xml'])
      expect(readFileSync(path.join(dir, 'rejudged', f), 'utf8'), f).toBe(readFileSync(path.join(dir, f), 'utf8'));
    const pages = readdirSync(path.join(dir, 'failures'));
    expect(pages.length).toBeGreaterThan(2);
    for (const p of pages) expect(existsSync(path.join(dir, 'rejudged', 'failures', p)), p).toBe(true);

    // Lenient: the planted faults' failures pass once the judge that found them lets them.
    expect(await flips(dir, turned('stepDeletion', 'fail', 'pass'))).toContain('rest:3.1/live-to-terminating failed -> passed');
    expect(await flips(dir, turned('judgeNegotiation', 'fail', 'pass'))).toContain('rest:4.8/unsupported failed -> passed');
    expect(await flips(dir, turned('judgeFutureWatchIn', 'fail', 'pass'))).toContain('rest:6.1.1 failed -> passed');
    // Strict: what passed fails, found when the record is judged again.
    expect(await flips(dir, turned('judgeConcurrentHistory', 'pass', 'fail'))).toContain('rest:6.1/BOOKMARK passed -> failed');
    expect(await flips(dir, turned('judgeRelistedWatchIn', 'pass', 'fail'))).toContain('rest:4.5/meaning/start-exact passed -> failed');
    expect(await flips(dir, turned('judgeManagedFieldsInBodyOf', 'pass', 'fail'))).toContain('rest:4.7.2 passed -> failed');
  });
});
