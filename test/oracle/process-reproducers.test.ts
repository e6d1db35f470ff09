// Why: a loader or daemon failure's counterexamples/*.sh is a regression test
// too. For a planted loader fault (both ways: an invalid file accepted, a valid one refused) and a
// planted daemon flag fault, the generated script exits 1 against the faulty command and 0 against the
// clean one, run from a directory of its own with nothing of this repository but the command under test.
import { describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNodeagentChecks } from '../../scripts/dev/nodeagent-in-process.ts';
import { runDaemonChecks } from '../../scripts/dev/daemon-in-process.ts';
import { referenceServer } from '../helpers/reference-server.ts';
import type { Counterexample } from '../../runner/results.ts';

const BIN = fileURLToPath(new URL('../../bin/svc-conformance.mjs', import.meta.url));
/** How the target is run: this repository's bin, the thing under test (the script itself needs none of it). */
const cli = (args: string) => `${process.execPath} ${BIN} ${args}`;

const curlDir = (() => {
  try {
    return path.dirname(execFileSync('bash', ['-c', 'command -v curl'], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
})();

function runScript(file: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const bin = [path.dirname(process.execPath), ...(curlDir ? [curlDir] : []), '/usr/bin', '/bin'].join(':');
  return new Promise((resolve) => {
    execFile(
      'bash',
      [file],
      { encoding: 'utf8', cwd: path.dirname(file), env: { PATH: bin, HOME: path.dirname(file), ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

function saved(cx: Counterexample | undefined): { dir: string; file: string } {
  expect(cx).toBeDefined();
  const dir = mkdtempSync(path.join(tmpdir(), 'cx-process-'));
  const file = path.join(dir, 'repro.sh');
  writeFileSync(file, cx!.curl);
  return { dir, file };
}

describe("a node-agent loader failure's script", () => {
  it.each([
    ['an invalid file accepted', 'negative-max-pods', 'nodeagent-edges-maxPods', 'node:2.2/maxPods'],
    ['a valid file refused', 'burst-needs-qps', 'nodeagent-valid-configs', 'node:2.2/registryBurst'],
  ] as const)(
    '%s (%s): exit 1 with the fault, 0 without',
    async (_what, fault, check, clause) => {
      const records = await runNodeagentChecks({ checks: [check], runs: 300, seed: 20261126, faults: [fault] });
      const cx = records.find((r) => r.verdict === 'fail' && r.clause === clause)?.counterexample;
      const { dir, file } = saved(cx);
      try {
        expect(cx!.curl).toContain('LOADER=');
        // The answer needed is data in the report too, and no node test pretends to cover a loader.
        expect(cx!.needs?.map((n) => [n.test.kind, n.met])).toEqual([['exit', false]]);
        expect(cx!.nodeTest).toBeUndefined();
        const bad = await runScript(file, { LOADER: cli(`nodeagent validate --fault ${fault}`) });
        expect(bad.code, bad.out).toBe(1);
        expect(bad.out).toContain('the failure is present');
        // The file is written next to the script and left there to read.
        expect(existsSync(path.join(dir, 'nodeagent-config.yaml'))).toBe(true);
        expect(readFileSync(path.join(dir, 'nodeagent-config.yaml'), 'utf8')).toContain('kind:');
        const good = await runScript(file, { LOADER: cli('nodeagent validate') });
        expect(good.code, good.out).toBe(0);
        // A loader that cannot run decides nothing.
        const missing = await runScript(file, { LOADER: '/nonexistent/loader' });
        expect(missing.code, missing.out).toBe(2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});

describe.skipIf(curlDir === undefined)("a controller daemon failure's script (skipped: no curl on PATH)", () => {
  it('any-tls-min-version: the command line that must be refused; exit 1 with the fault, 0 without', async () => {
    const records = await runDaemonChecks({
      checks: ['daemon-invalid-flags/tls-min-version'],
      faults: ['any-tls-min-version'],
      runs: 2,
      seed: 11,
    });
    const cx = records.find((r) => r.verdict === 'fail' && r.clause === 'node:2.6/tls-min-version')?.counterexample;
    const { dir, file } = saved(cx);
    const server = await referenceServer();
    try {
      expect(cx!.curl).toMatch(/--tls-min-version=/);
      const bad = await runScript(file, {
        SERVER: server.url,
        DAEMON: cli('controller-daemon run --profile=svc --fault=any-tls-min-version'),
      });
      expect(bad.code, bad.out).toBe(1);
      expect(bad.out).toContain('the failure is present');
      const good = await runScript(file, { SERVER: server.url, DAEMON: cli('controller-daemon run --profile=svc') });
      expect(good.code, good.out).toBe(0);
      // Without an API server for the daemon the script says it cannot run rather than guess.
      const noServer = await runScript(file, { DAEMON: cli('controller-daemon run --profile=svc') });
      expect(noServer.code, noServer.out).toBe(2);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
