// `svc-conformance rejudge DIR` (docs/rejudge.md): a saved run judged again from its record alone.
// The same model gives the run's summary.json byte for byte (exit 0); a planted model bug (a judge of
// the registry replaced) flips verdicts, and rejudge exits 1 naming each flipped clause, both ways: a
// pass the wrong model now fails, and a planted fault's failure a lenient model lets pass. A record of
// another schema is refused in one line (exit 2).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rejudgeDir } from '../../../reports/rejudge-dir.ts';
import { judges } from '../../../reference/judges.ts';
import type { Judgement } from '../../../reference/judgement.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, KUBECONFIG: '' } });

function runInto(...args: string[]): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'svc-rejudge-')), 'r');
  const r = cli(
    'run',
    '--seed',
    '4242',
    '--suite',
    'rest-crud',
    '--suite',
    'rest-paging',
    '--runs',
    '20',
    '--no-confirm',
    '--reports',
    dir,
    ...args,
  );
  expect([0, 1], r.stderr).toContain(r.status);
  return dir;
}

/**
 * The run's report files that rejudged/ lacks or holds otherwise. Not reports, so left out: the
 * record itself and the folder's manifest (which lists the files of its own folder).
 */
function reportsUnlike(dir: string): string[] {
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]));
  const mine = files(dir).filter(
    (f) => !f.startsWith(path.join(dir, 'rejudged') + path.sep) && !/(record\.jsonl\.gz|\.svc-conformance-reports\.json)$/.test(f),
  );
  expect(mine.length).toBeGreaterThan(4);
  return mine.filter((f) => {
    const again = path.join(dir, 'rejudged', path.relative(dir, f));
    return !existsSync(again) || !readFileSync(again).equals(readFileSync(f));
  });
}

const statuses = (file: string) =>
  Object.fromEntries(
    (JSON.parse(readFileSync(file, 'utf8')) as { clauses: { id: string; status: string }[] }).clauses.map((c) => [c.id, c.status]),
  );

describe('rejudge', () => {
  it('a conformant run: the same summary.json, exit 0; a model that wants 500 for a create fails rest:4.1/post, exit 1', async () => {
    const dir = runInto();
    const r = cli('rejudge', dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/no verdict changed/);
    // Not one call judged otherwise than at run time: the record holds every input as the judge saw it.
    expect(r.stdout).toMatch(/\(0 with other verdicts than recorded\)/);
    expect(readFileSync(path.join(dir, 'rejudged', 'summary.json'), 'utf8')).toBe(readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    // Every report the run wrote is made again from the record, byte for byte.
    expect(reportsUnlike(dir)).toEqual([]);

    const planted = {
      ...judges,
      judgeCreate: (o: Parameters<typeof judges.judgeCreate>[0]) => judges.judgeCreate({ ...o, status: o.status === 201 ? 500 : o.status }),
    };
    const o = await rejudgeDir(dir, planted);
    expect(o.exitCode).toBe(1);
    expect(o.changes.map((c) => [c.clause, c.before.status, c.after.status])).toContainEqual(['rest:4.1/post', 'passed', 'failed']);
    expect(o.changes.find((c) => c.clause === 'rest:4.1/post')!.after.why).toMatch(/succeeds \(2xx\); observed status 500/);
    expect(statuses(path.join(dir, 'rejudged', 'summary.json'))['rest:4.1/post']).toBe('failed');
    expect(readFileSync(path.join(dir, 'rejudged', 'diff.md'), 'utf8')).toMatch(/\| rest:4\.1\/post \| passed \| failed \|/);
    // The reports are made from the new judgement, not copied: they now show the failure.
    expect(reportsUnlike(dir)).toEqual(
      expect.arrayContaining(['summary.json', 'summary.md', 'index.html', 'junit.xml'].map((f) => path.join(dir, f))),
    );
    expect(readdirSync(path.join(dir, 'rejudged', 'failures'))).toContainEqual(expect.stringMatching(/^rest_4\.1_post-1\.html$/));
    expect(o.counts.derivedClauses).toBeGreaterThan(o.counts.carriedClauses);
  });

  it("a planted fault's failure: kept by the model (same summary.json), gone with a model that lets a page overflow (exit 1)", async () => {
    const dir = runInto('--fault', 'page-overflow');
    expect(statuses(path.join(dir, 'summary.json'))['rest:4.4.1']).toBe('failed');
    expect(cli('rejudge', dir).status).toBe(0);
    expect(readFileSync(path.join(dir, 'rejudged', 'summary.json'), 'utf8')).toBe(readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    // The failure's page and reproducer too, and the Allure results with its attachments.
    expect(existsSync(path.join(dir, 'rejudged', 'failures'))).toBe(true);
    expect(existsSync(path.join(dir, 'rejudged', 'counterexamples'))).toBe(true);
    expect(reportsUnlike(dir)).toEqual([]);

    const lenient = {
      ...judges,
      judgePagesIn: (...args: Parameters<typeof judges.judgePagesIn>) => {
        const r = judges.judgePagesIn(...args);
        return {
          ...r,
          judgements: r.judgements.map(
            (j): Judgement =>
              j.clause === 'rest:4.4.1' && j.verdict === 'fail'
                ? { clause: j.clause, verdict: 'pass', expected: j.expected, observed: 'as expected' }
                : j,
          ),
        };
      },
    };
    const o = await rejudgeDir(dir, lenient);
    expect(o.exitCode).toBe(1);
    expect(o.changes.map((c) => [c.clause, c.before.status, c.after.status])).toContainEqual(['rest:4.4.1', 'failed', 'passed']);
    expect(o.changes.find((c) => c.clause === 'rest:4.4.1')!.before.why).toMatch(/at most limit=/);
  });

  it('a record of another schema, or none: exit 2, one line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-rejudge-bad-'));
    const none = cli('rejudge', dir);
    expect(none.status).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/record\.jsonl\.gz: no record/);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'record.jsonl.gz'),
      gzipSync(`${JSON.stringify({ format: 'svc-conformance/record', schema: 99, version: '9.9.9' })}\n{"run":{}}\n`),
    );
    const r = cli('rejudge', dir);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/record schema 99 \(written by 9\.9\.9\); this version reads schema 1, 2/);
  });
});
