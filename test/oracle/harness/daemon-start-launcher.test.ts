// A default run starts the reference daemon's flag sets (served, refused or ignored) in its own process
// and only --help and --version as processes (runner/daemon.ts). These hold that the checks send their
// starts with flags to that start launcher: a fault planted there is found, and the process daemon
// (here a stand-in that records its arguments and exits 97) sees only the pace's --version.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shellQuote } from '../../../harness/processes/index.ts';
import { runDaemonChecks } from '../../../scripts/dev/daemon-in-process.ts';

const checks = ['daemon-invalid-flags/resource-lock', 'daemon-open-flags/cluster-cidr'];

async function withRecordingDaemon<T>(f: (command: string, starts: () => string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-start-launcher-'));
  const file = path.join(dir, 'starts');
  try {
    const command = `sh -c ${shellQuote(`echo "$*" >> ${shellQuote(file)}; exit 97`)} fake-daemon`;
    return await f(command, () => readFileSync(file, 'utf8').trim().split('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the starts with flags go to the start launcher', () => {
  it('a refusal fault planted there is found by its clause; the process daemon saw --version alone', async () => {
    await withRecordingDaemon(async (command, starts) => {
      const records = await runDaemonChecks({ command, startFaults: ['any-resource-lock'], checks, runs: 1, seed: 5 });
      // Had the refused set gone to the stand-in, its exit 97 would have passed as a refusal.
      expect(records.filter((r) => r.verdict === 'fail').map((r) => r.clause)).toEqual(['node:2.6/leader-elect-resource-lock']);
      expect(records.filter((r) => r.check === 'daemon-open-flags/cluster-cidr').map((r) => r.verdict)).not.toContain('fail');
      expect(starts()).toEqual(['--version']);
    });
  });

  it('the reference daemon there without faults passes', async () => {
    await withRecordingDaemon(async (command, starts) => {
      const records = await runDaemonChecks({ command, startFaults: [], checks, runs: 1, seed: 5 });
      expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'inconclusive')).toEqual([]);
      expect(records.some((r) => r.verdict === 'pass')).toBe(true);
      expect(starts()).toEqual(['--version']);
    });
  });

  it('is made for the profile the checks start it with: under k8s it holds the k8s lock', async () => {
    // A start launcher made for svc would hold the svc daemon's lock Lease, which a k8s run does not read.
    await withRecordingDaemon(async (command, starts) => {
      const records = await runDaemonChecks({
        command,
        profile: 'k8s',
        startFaults: [],
        checks: ['daemon-leader-lease', 'daemon-valid-flags'],
        runs: 1,
        seed: 5,
      });
      expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'inconclusive')).toEqual([]);
      expect(records.some((r) => r.verdict === 'pass')).toBe(true);
      expect(starts()).toEqual(['--version']);
    });
  });
});
