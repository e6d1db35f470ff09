// The loader protocol against real commands: exit codes read as accept/reject, JSON error paths and
// printed configurations judged, a hanging or missing command an error (never a verdict).
import { describe, expect, it } from 'vitest';
import { commandLoader } from '../../../harness/processes/nodeagent-loader.ts';
import { runNodeagentChecks } from '../../../scripts/dev/nodeagent-in-process.ts';
import { InfrastructureError } from '../../../harness/transport/exchange.ts';

describe('command loader', () => {
  it('passes the file path and its content, and returns exit code and output', async () => {
    const l = commandLoader('cat');
    try {
      const out = await l.run('x.yaml', 'maxPods: 3\n');
      expect(out).toEqual({ exitCode: 0, stdout: 'maxPods: 3\n', stderr: '' });
      expect(l.replay('/tmp/a b.yaml')).toBe(`cat '/tmp/a b.yaml'`);
    } finally {
      l.close();
    }
  });

  it('a loader accepting everything fails the invalid-file check; one rejecting everything the valid-file check', async () => {
    const yes = commandLoader('true');
    const no = commandLoader('false');
    try {
      const a = await runNodeagentChecks({ checks: ['nodeagent-invalid-configs'], runs: 3, seed: 1, loader: yes });
      expect(a.some((r) => r.verdict === 'fail')).toBe(true);
      const b = await runNodeagentChecks({ checks: ['nodeagent-valid-configs'], runs: 3, seed: 1, loader: no });
      // The check goes on past its first failure (docs/verdict-rules.md): each later case fails the clause of
      // its own file, every one for the same reason, a valid file rejected.
      const failed = b.filter((r) => r.verdict === 'fail');
      expect(failed.length).toBeGreaterThanOrEqual(1);
      expect(new Set(failed.map((r) => r.clause)).size).toBe(failed.length);
      for (const r of failed)
        expect([r.counterexample!.expected, r.counterexample!.observed]).toEqual([
          'accepted: the model finds nothing wrong with the file',
          'rejected (exit 1)',
        ]);
    } finally {
      yes.close();
      no.close();
    }
  }, 30_000);

  it('a command that hangs is killed at the timeout and is an error, not a failure', async () => {
    const l = commandLoader('sleep 30; true', { timeoutMs: 300 });
    try {
      await expect(l.run('x.yaml', '')).rejects.toBeInstanceOf(InfrastructureError);
      const records = await runNodeagentChecks({ checks: ['nodeagent-valid-configs'], runs: 2, seed: 1, loader: l });
      expect(records.some((r) => r.verdict === 'error')).toBe(true);
      expect(records.some((r) => r.verdict === 'fail')).toBe(false);
    } finally {
      l.close();
    }
  });

  it('a command that does not exist is an error', async () => {
    const l = commandLoader('/nonexistent/loader');
    try {
      await expect(l.run('x.yaml', '')).rejects.toThrow(/cannot run/);
    } finally {
      l.close();
    }
  });

  it('no loader: the checks are not checked (a run against an external API server names none)', async () => {
    const { startEmbeddedTarget } = await import('../../../runner/embedded.ts');
    const { profiles } = await import('../../../reference/profile.ts');
    const api = await startEmbeddedTarget({}, profiles.svc, { access: 'open' });
    try {
      const records = await runNodeagentChecks({ checks: ['nodeagent-valid-configs'], runs: 1, seed: 1, server: api.server.url });
      expect(records.length).toBeGreaterThan(0);
      expect(new Set(records.map((r) => r.verdict))).toEqual(new Set(['notChecked']));
    } finally {
      await api.close();
    }
  }, 30_000);
});

describe('what a loader prints', () => {
  it('defaults are judged only when stdout is a configuration', async () => {
    const { judgeConfigAnswer } = await import('../../../reference/nodeagent/loader-oracle.ts');
    const { profiles } = await import('../../../reference/profile.ts');
    const doc = { apiVersion: 'nodeagent.config.svc.io/v1beta1', kind: 'NodeagentConfiguration', reservedSystemCPUs: '' };
    const verdicts = (stdout: string) =>
      judgeConfigAnswer(doc, { exitCode: 0, stdout }, profiles.svc)
        .filter((j) => j.verdict === 'fail')
        .map((j) => j.clause);
    expect(verdicts('{"ok": true}\n')).toEqual([]);
    expect(verdicts('loaded\n')).toEqual([]);
    expect(verdicts('kind: NodeagentConfiguration\nmaxPods: 100\n')).toContain('node:2.2/maxPods');
    expect(verdicts(JSON.stringify({ kind: 'NodeagentConfiguration', maxPods: 110 }))).not.toContain('node:2.2/maxPods');
  });
});

describe('reported field paths', () => {
  it('map keys in brackets or after a dot are the same path; list indexes stay', async () => {
    const { reportedFields } = await import('../../../reference/nodeagent/loader-oracle.ts');
    const out = reportedFields(
      JSON.stringify({
        errors: [
          { field: 'featureGates[CPUManager]', message: 'x' },
          { field: 'a.b[0].c', message: 'y' },
          { field: 'evictionHard[memory.available]', message: 'z' },
        ],
      }),
    );
    expect(out).toEqual(['featureGates.CPUManager', 'a.b[0].c', 'evictionHard.memory.available']);
    expect(reportedFields('not json')).toBeUndefined();
  });
});
