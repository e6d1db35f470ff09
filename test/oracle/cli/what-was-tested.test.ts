// Why, through the command line as a user meets it: the reports of an
// embedded run say "embedded reference server" and a clean run's index.html stays small; a known
// failure (a planted fault the expectations file excuses) is never shown as FAIL or failed, while the
// same fault without the file still fails; against an external server with no loader and no daemon,
// each is one line; with KUBECONFIG set and no target option, one line says what is tested.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SummaryJson } from '../../../reports/summary-json.ts';
import type { Matrix } from '../../../reports/matrix.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const upstream = path.join(root, 'expectations', 'upstream-kube-apiserver.yaml');
const scratch = mkdtempSync(path.join(tmpdir(), 'what-was-tested-'));
/** No kubeconfig of the machine's in reach unless a test gives one. */
const quiet = { ...process.env, KUBECONFIG: '', HOME: scratch };

/**
 * An upper limit for a hang, not a speed claim: a default run is ~15 CPU-s, and at a load of 30 on two
 * cores its share of them is a fifteenth (a run killed at 240 s there wrote no reports).
 */
const HANG_MS = 600_000;

function cli(args: string[], env: NodeJS.ProcessEnv = quiet) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: HANG_MS, cwd: root, env });
  // Killed at the limit: say so, not only "status null".
  if (r.error !== undefined) return { ...r, stderr: `${r.error.message}\n${r.stderr}` };
  return r;
}
const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
const summaryOf = (dir: string) => JSON.parse(read(dir, 'summary.json')) as SummaryJson;
/** The lines of a text that name a clause. */
const linesNaming = (text: string, id: string) => text.split('\n').filter((l) => l.includes(id));

describe('a known failure is never shown as failed', () => {
  // managed-fields-empty-list-resets departs from rest:4.7.5 as upstream does; the upstream file lists it.
  const KNOWN = ['run', '--check', 'apply-points', '--fault', 'managed-fields-empty-list-resets', '--seed', '3'];
  const reports = path.join(scratch, 'known');

  it(
    'with the expectations file: exit 0, "known failure" live and in every report, no FAIL or failed for it anywhere',
    () => {
      const r = cli([...KNOWN, '--expectations', upstream, '--reports', reports]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/\] rest-apply apply-points: known failure rest:4\.7\.5 \(expectations file\)\n/);
      for (const line of [...linesNaming(r.stderr, 'rest:4.7.5'), ...linesNaming(r.stdout, 'rest:4.7.5')])
        expect(line).not.toMatch(/FAIL|failed/);
      expect(r.stdout).toMatch(
        /\nVerdict: conformant: \d+ clauses judged, against the embedded reference server with fault managed-fields-empty-list-resets \(0 failed beyond expectations, 1 known failure, /,
      );
      expect(r.stdout).toMatch(/^rest:4\.7 server-side apply +\d+ passed {2}0 failed {2}1 known/m);

      const s = summaryOf(reports);
      expect(s.totals).toMatchObject({ failed: 0, known: 1 });
      expect(s.clauses.find((c) => c.id === 'rest:4.7.5')).toMatchObject({ status: 'failed', expectedFailure: true });
      const md = read(reports, 'summary.md');
      expect(md).not.toMatch(/### Failed/);
      expect(md).toMatch(/<summary>Known failures \(1\)[^\n]*<\/summary>\n\n- `rest:4\.7\.5`/);
      for (const line of linesNaming(md, 'rest:4.7.5')) expect(line).not.toMatch(/FAIL|failed/);
      const page = read(reports, 'index.html');
      expect(page).toMatch(/<tr class="row r-known" id="row-clause-rest_4\.7\.5">[^\n]*<td class="st">known failure<\/td>/);
      expect(page).toContain('<span class="tag s-known">1</span> known failure');
      expect(page).toContain('<h2 id="failures">Failures beyond expectations</h2>\n<p>None.</p>');
      // JUnit has no expected failure: skipped, as before.
      expect(read(reports, 'junit.xml')).toMatch(/<testcase [^>]*name="rest:4\.7\.5[^"]*"[^>]*>\s*<skipped/);
    },
    HANG_MS + 60_000,
  );

  it(
    'without it, the same planted fault FAILs: exit 1, FAIL live, failed in the totals and the matrix',
    () => {
      const dir = path.join(scratch, 'unexcused');
      const r = cli([...KNOWN, '--reports', dir]);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain('rest-apply apply-points: FAIL rest:4.7.5');
      expect(summaryOf(dir).totals).toMatchObject({ failed: 1, known: 0 });

      // Side by side in a matrix: the excused run's cell is known, this one's failed.
      const matrixDir = path.join(scratch, 'matrix');
      const m = cli(['matrix', `${reports}=known`, `${dir}=unexcused`, '--reports', matrixDir]);
      expect(m.status, m.stderr).toBe(0);
      const matrix = JSON.parse(read(matrixDir, 'matrix.json')) as Matrix;
      expect(matrix.rows.find((row) => row.id === 'rest:4.7.5')!.cells.map((c) => c.status)).toEqual(['known', 'failed']);
      expect(matrix.columns[0]!.target).toBe('embedded reference server with fault managed-fields-empty-list-resets');
      expect(read(matrixDir, 'matrix.html')).toMatch(/class="s-known" href="[^"]*#clause-rest_4\.7\.5">known/);
    },
    HANG_MS + 60_000,
  );
});

describe('a clean default run names the embedded reference server and its page stays small', () => {
  it(
    'summary.json, summary.md, index.html and JUnit say "embedded reference server"; index.html under 300 KB',
    () => {
      const reports = path.join(scratch, 'clean');
      const r = cli(['run', '--reports', reports]);
      expect(r.status, r.stderr).toBe(0);
      expect(summaryOf(reports).target).toMatchObject({
        kind: 'embedded',
        description: 'embedded reference server',
        reportedVersion: 'v1.24.0',
      });
      expect(read(reports, 'summary.md').split('\n')[0]).toMatch(
        /^## ✅ svc-conformance: conformant: \d+ clauses judged · embedded reference server$/,
      );
      expect(read(reports, 'index.html')).toContain('<span class="target t-embedded">embedded reference server</span>');
      expect(read(reports, 'junit.xml')).toContain('<property name="target" value="embedded reference server"/>');
      expect(r.stdout).toMatch(/\nVerdict: conformant: \d+ clauses judged, against the embedded reference server \(0 failed, /);
      // 325 KB before the clause rows were made lean; the details are on the check and failure pages.
      expect(statSync(path.join(reports, 'index.html')).size).toBeLessThan(300 * 1024);
    },
    HANG_MS + 60_000,
  );
});

describe('against an external server without a loader or a daemon', () => {
  let server: ReturnType<typeof spawn>;
  const kubeconfig = path.join(scratch, 'serve.kubeconfig');

  beforeAll(async () => {
    server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--kubeconfig-out', kubeconfig], {
      cwd: root,
      env: quiet,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('kubeconfig written')) resolve();
      });
      server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
  }, 120_000);
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it(
    'each component is one line live, in the terminal summary and in summary.md; the target is the server with its kubeconfig',
    () => {
      const reports = path.join(scratch, 'external');
      const checks = [
        'crud-sequences',
        'nodeagent-valid-configs',
        'nodeagent-every-field',
        'nodeagent-invalid-configs',
        'daemon-leader-lease',
        'daemon-help-table',
      ];
      const r = cli(['run', '--kubeconfig', kubeconfig, ...checks.flatMap((c) => ['--check', c]), '--runs', '3', '--reports', reports], {
        ...quiet,
        KUBECONFIG: kubeconfig,
      });
      expect(r.status, r.stderr).toBe(0);
      const md = read(reports, 'summary.md');
      for (const [name, text] of Object.entries({ live: r.stderr, terminal: r.stdout, md })) {
        expect(
          text.split('\n').filter((l) => l.includes('--nodeagent-loader')),
          name,
        ).toHaveLength(1);
        expect(
          text.split('\n').filter((l) => l.includes('--controller-daemon')),
          name,
        ).toHaveLength(1);
      }
      // A target option was given: no notice about the embedded server.
      expect(r.stderr).not.toContain('embedded');
      const s = summaryOf(reports);
      expect(s.target.kind).toBe('external');
      expect(s.target.description).toMatch(/^http:\/\/127\.0\.0\.1:\d+ \(kubeconfig .*serve\.kubeconfig, context target\)$/);
      expect(md.split('\n')[0]).toMatch(/^## ✅ svc-conformance: conformant: \d+ clauses judged · http:\/\/127\.0\.0\.1:\d+ \(kubeconfig /);
    },
    HANG_MS + 60_000,
  );
});

describe('KUBECONFIG set and no target option', () => {
  it('one line before the run says the embedded server is tested and how to test the cluster; none without a cluster config', () => {
    const kubeconfig = path.join(scratch, 'k');
    const noticed = cli(['run', '--dry-run', '--check', 'crud-sequences'], { ...quiet, KUBECONFIG: kubeconfig });
    expect(noticed.status, noticed.stderr).toBe(0);
    expect(noticed.stderr).toBe(
      'svc-conformance: no target option given: testing its own embedded reference server, not your cluster (KUBECONFIG is set); to test that cluster: --kubeconfig "$KUBECONFIG"\n',
    );
    const silent = cli(['run', '--dry-run', '--check', 'crud-sequences']);
    expect(silent.status, silent.stderr).toBe(0);
    expect(silent.stderr).toBe('');
  }, 120_000);
});
