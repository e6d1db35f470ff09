// The progress of a real small run rendered into a pseudo-terminal (util-linux `script`), as a person
// at a terminal sees it: the target and its version first, elapsed time and an estimate,
// nothing of vitest's (no hidden cursor, no "JUNIT report written"), and where the report is. And
// the same run with its stderr on a pipe: plain lines only.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
// Its HOME too: a ~/.kube/config of the machine would add the embedded-target notice (docs/what-a-run-says.md).
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-tty-'));
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// Two checks: the estimate shows once one ended and one is left.
const runArgs = (reports: string) => [
  'run',
  '--check',
  'health-endpoints',
  '--check',
  'generated-names',
  '--runs',
  '2',
  '--reports',
  reports,
];

describe('run progress', () => {
  it.skipIf(!hasScript)(
    'in a pseudo-terminal: target line with version, elapsed and estimate on the live line, nothing of vitest, the report path last',
    { timeout: 240_000 },
    () => {
      const log = path.join(dir, 'typescript');
      const command = `stty cols 100 rows 30 && ${[process.execPath, bin, ...runArgs(path.join(dir, 'tty'))].map(quote).join(' ')}`;
      const r = spawnSync('script', ['-qefc', command, log], {
        encoding: 'utf8',
        timeout: 200_000,
        env: { ...process.env, KUBECONFIG: '', HOME: dir },
      });
      expect(r.status, r.stderr).toBe(0);
      const screen = readFileSync(log, 'utf8');
      const firstRunLine = screen.split(/\r?\n/).find((l) => l.startsWith('svc-conformance:'));
      expect(firstRunLine).toMatch(
        /^svc-conformance: target http:\/\/127\.0\.0\.1:\d+, version v\d+\.\d+\.\d+ \(embedded reference server\)/,
      );
      // The live line, redrawn in place: done/total, elapsed, and once a check ended, the time left.
      expect(screen).toMatch(/\r\u001b\[K\[0\/2 \d+:\d\d\]/);
      expect(screen).toMatch(/\[1\/2 \d+:\d\d ~\d+:\d\d left\] rest-\S+ \S+: ok/);
      expect(screen).not.toMatch(/JUNIT|\u001b\[\?25l/);
      expect(screen).toMatch(/svc-conformance: open \S*tty\/index\.html/);
    },
  );

  it('stderr on a pipe: plain lines with elapsed time, no control characters', { timeout: 240_000 }, () => {
    const r = spawnSync(process.execPath, [bin, ...runArgs(path.join(dir, 'pipe'))], {
      encoding: 'utf8',
      timeout: 200_000,
      env: { ...process.env, KUBECONFIG: '', HOME: dir },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(/^svc-conformance: target http:\/\/127\.0\.0\.1:\d+, version v/);
    expect(r.stderr).toMatch(/^\[1\/2 \d+:\d\d ~\d+:\d\d left\] /m);
    expect(r.stderr).toMatch(/^\[2\/2 \d+:\d\d\] /m);
    expect(r.stderr).not.toMatch(/[\r\u001b]/);
  });
});
