// The daemon launcher: real process starts are bounded, stopped with SIGTERM and reaped; a daemon
// that neither exits nor serves is reported as hung (its clauses inconclusive), never as a pass. Few starts: each
// costs a node + tsx boot.
import { describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../../harness/transport/exchange.ts';
import {
  freePort,
  observeStart,
  processLauncher,
  runToExit,
  shellQuote,
  splitCommand,
} from '../../../harness/processes/controller-daemon.ts';
import { referenceDaemonCommand } from '../../../runner/daemon.ts';
import { runDaemonChecks } from '../../../scripts/dev/daemon-in-process.ts';

const reference = processLauncher(referenceDaemonCommand('svc'));
const idle = `${shellQuote(process.execPath)} -e 'setInterval(() => {}, 1000)' --`;

describe('command words', () => {
  it('splits with quotes and quotes back for the shell', () => {
    expect(splitCommand(`a 'b c' "d \\"e\\"" f'g h'`)).toEqual(['a', 'b c', 'd "e"', 'fg h']);
    expect(shellQuote('--x=1')).toBe('--x=1');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('process launcher', () => {
  it('a valid start serves /healthz and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const dp = reference.launch(['--bind-address=127.0.0.1', `--secure-port=${port}`, '--leader-elect=false']);
    const obs = await observeStart(dp, port, { startTimeoutMs: 20_000 });
    expect(obs.kind, dp.output()).toBe('serving');
    await dp.stop();
    expect(await dp.exited).toEqual({ code: 0 });
  });

  it('an invalid start exits 1 naming the option', async () => {
    const port = await freePort();
    const obs = await observeStart(reference.launch([`--secure-port=${port}`, '--leader-elect-resource-lock=endpoints']), port, {
      startTimeoutMs: 20_000,
    });
    expect(obs).toMatchObject({ kind: 'exited', code: 1 });
    expect(obs.kind === 'exited' && obs.output).toContain('--leader-elect-resource-lock');
  });

  it('a daemon that neither exits nor serves is hung and gets reaped', async () => {
    const dp = processLauncher(idle).launch([]);
    const obs = await observeStart(dp, await freePort(), { startTimeoutMs: 600 });
    expect(obs.kind).toBe('hung');
    expect((await dp.exited).signal).toBe('SIGTERM');
    await expect(runToExit(processLauncher(idle), ['--help'], 300)).rejects.toBeInstanceOf(InfrastructureError);
  });

  it('--version is started once: the calibration run is the one the daemon-version check judges (and fails)', async () => {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-version-once-'));
    const starts = path.join(dir, 'starts');
    try {
      // Every start is counted, and --version exits 3: a version printed with a non-zero exit fails node:2.6/version.
      const command = `sh -c ${shellQuote(`echo "$*" >> ${shellQuote(starts)}; echo v9.9; exit 3`)} fake-daemon`;
      const records = await runDaemonChecks({ command, checks: ['daemon-version'], runs: 1, seed: 5 });
      expect(records.map((r) => [r.clause, r.verdict])).toEqual([['node:2.6/version', 'fail']]);
      expect(readFileSync(starts, 'utf8').trim().split('\n')).toEqual(['--version']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the suite through real processes: the lease and one refused command line', async () => {
    const records = await runDaemonChecks({
      command: referenceDaemonCommand('svc'),
      checks: ['daemon-leader-lease', 'daemon-invalid-flags/resource-lock'],
      runs: 1,
      seed: 5,
    });
    expect(records.filter((r) => r.verdict !== 'pass')).toEqual([]);
    expect(records.map((r) => r.clause)).toContain('node:2.6/leader-elect-resource-name');
  });
});

describe('the bundled reference daemon (what a run starts)', () => {
  it('refuses a bad flag as the tsx-loaded one does, serves a valid start, and is removed with the run', async () => {
    const { bundleReferenceDaemon } = await import('../../../targets/controller-daemon/bundle.ts');
    const { existsSync } = await import('node:fs');
    const bundled = await bundleReferenceDaemon();
    expect(bundled, 'esbuild could not bundle the daemon').toBeDefined();
    try {
      const launcher = processLauncher(`${shellQuote(process.execPath)} ${shellQuote(bundled!.entry)} --profile=svc`);
      const [viaBundle, viaTsx] = await Promise.all([
        runToExit(launcher, ['--bogus-flag'], 20_000),
        runToExit(reference, ['--bogus-flag'], 20_000),
      ]);
      expect(viaBundle.code).toBe(1);
      expect(viaBundle.output.trim()).toBe(viaTsx.output.trim());
      const port = await freePort();
      const dp = launcher.launch(['--bind-address=127.0.0.1', `--secure-port=${port}`, '--leader-elect=false']);
      expect((await observeStart(dp, port, { startTimeoutMs: 20_000 })).kind, dp.output()).toBe('serving');
      await dp.stop();
    } finally {
      bundled?.remove();
    }
    expect(existsSync(bundled!.entry)).toBe(false);
    // Nothing of it stays behind: the bundle is a folder of its own (the entry and its parts).
    const path = await import('node:path');
    expect(existsSync(path.dirname(bundled!.entry))).toBe(false);
  });
});
