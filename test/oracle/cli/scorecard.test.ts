// Why: a run says how hard it pushed the target, not only which clauses held, and a
// nightly job can require minimums so it fails when the run stopped testing (exit 3, notTested).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { summaryJsonSchema } from '../../../reports/summary-schema.ts';
import type { Scorecard } from '../../../harness/case/reach.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-scorecard-'));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, KUBECONFIG: '' } });
// Checks that walk a continue chain and resume a dropped watch in every case, whatever the seed.
const SELECTION = ['--check', 'rv-cell-list-unset-limit-continue-unset', '--check', 'watch-resume', '--runs', '2'];

interface Summary {
  verdict: string;
  notTested?: string[];
  scorecard: Scorecard;
}
const summaryOf = (reports: string) => JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as Summary;

describe('the exercised scorecard and --require', () => {
  it('a run above its minimums passes, and its scorecard (summary.json, summary.md, HTML) shows what it reached', () => {
    const reports = path.join(dir, 'above');
    const r = cli(
      'run',
      ...SELECTION,
      '--reports',
      reports,
      '--require',
      'pages>=2,chain>=2',
      '--require',
      'watches.opened>=1,watches.resumed>=1,cells.rest:4.5>=2',
    );
    expect(r.status, r.stderr + r.stdout).toBe(0);
    const s = summaryOf(reports);
    const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true })
      .addFormat('date-time', true)
      .compile(summaryJsonSchema);
    expect(validate(s), JSON.stringify(validate.errors)).toBe(true);
    expect(s.verdict).toBe('conformant');
    const card = s.scorecard;
    expect(card.answers['2xx']).toBeGreaterThan(0);
    expect(card.pages.walked).toBeGreaterThanOrEqual(2);
    expect(card.watches.opened).toBeGreaterThan(0);
    expect(card.cells['rest:4.5']!.hit + card.cells['rest:4.5']!.missed.length).toBe(card.cells['rest:4.5']!.of);
    expect(card.exercised).toMatchObject({ selectedChecks: 2, checksWithVerdict: 2, notTested: false });
    expect(card.require?.map((q) => q.met)).toEqual([true, true, true, true, true]);
    expect(readFileSync(path.join(reports, 'summary.md'), 'utf8')).toMatch(/### Exercised\n\n- answers: 2xx \d+/);
    expect(readFileSync(path.join(reports, 'index.html'), 'utf8')).toMatch(/<h2 id="exercised">Exercised<\/h2>/);
    expect(r.stdout).toMatch(/Exercised:\n {2}answers: 2xx/);
  });

  it('a run below a minimum is notTested (exit 3) and says which minimum and what it reached', () => {
    const reports = path.join(dir, 'below');
    const r = cli('run', ...SELECTION, '--reports', reports, '--require', 'pages>=2,compactions>=1000');
    expect(r.status, r.stderr + r.stdout).toBe(3);
    const s = summaryOf(reports);
    expect(s.verdict).toBe('notTested');
    expect(s.notTested).toEqual([expect.stringMatching(/^not tested: the run fell below --require: compactions \d+ < 1000$/)]);
    expect(s.scorecard.require?.map((q) => q.met)).toEqual([true, false]);
    expect(r.stdout).toMatch(/Verdict: not tested/);
  });

  it('bad --require syntax or an unknown key: exit 2, one line naming the option, before any request', () => {
    for (const [arg, why] of [
      ['pages>5', /"pages>5" is not KEY>=N/],
      ['pagez>=5', /unknown key pagez; known: answers\.2xx/],
    ] as const) {
      const r = cli('run', '--server', 'http://127.0.0.1:9', '--require', arg);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/--require/);
      expect(lines[0]).toMatch(why);
    }
  });
});
