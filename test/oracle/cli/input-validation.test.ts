// Every input is validated before anything is sent, by `run` and by `run --dry-run` alike (a CI lint
// step): unknown ids are usage errors with the nearest known ones, expectations entries name their
// file and line, durations are positive, a kubeconfig's context must exist. One line, exit 2.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { json, startHttps, TLS_DIR } from '../harness/servers.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-inputs-'));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: '' } });

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

const typo = path.join(dir, 'typo.yaml');
writeFileSync(
  typo,
  [
    'knownFailures:',
    '  - clause: rest:4.4.3',
    '    reason: a real gap',
    '    observed: {status: 500}',
    '  - clause: rest:4.4.99',
    '    reason: a typo',
    '    observed: {status: 500}',
    '',
  ].join('\n'),
);

describe('input validation before anything is sent', () => {
  for (const dry of [false, true]) {
    it(`an expectations entry with an unknown clause id: exit 2 from run${dry ? ' --dry-run' : ''}, naming file:line and the nearest ids`, () => {
      const out = path.join(dir, dry ? 'dry-out' : 'run-out');
      const r = cli('run', ...(dry ? ['--dry-run'] : []), '--check', 'health-endpoints', '--expectations', typo, '--reports', out);
      expect(r.status).toBe(2);
      expectOneLine(
        r.stderr,
        new RegExp(
          `${typo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: knownFailures\\[1\\]\\.clause: unknown clause id rest:4\\.4\\.99; did you mean rest:4\\.4\\.\\d`,
        ),
      );
      expect(r.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    });
  }

  it('the shipped expectations files name only known clauses (dry run passes)', () => {
    for (const name of ['upstream-kube-apiserver', 'upstream-kubelet', 'upstream-kube-controller-manager']) {
      const r = cli('run', '--dry-run', '--expectations', path.resolve(bin, '../../expectations', `${name}.yaml`));
      expect(r.status, r.stderr).toBe(0);
    }
  });

  it('--timeout 0 and every other zero duration: exit 2', () => {
    for (const option of [
      '--timeout',
      '--confirm-time',
      '--shrink-time',
      '--continue-ttl',
      '--history-window',
      '--eventual-window',
      '--daemon-start-timeout',
    ]) {
      const r = cli('run', '--dry-run', option, '0');
      expect(r.status, option).toBe(2);
      expect(r.stderr, option).toMatch(new RegExp(`${option} <duration>' argument '0' is invalid\\. must be a positive duration`));
    }
    expect(cli('run', '--dry-run', '--timeout', '0s').status).toBe(2);
    expect(cli('run', '--dry-run', '--timeout', '1ms').status).toBe(0);
  });

  it('unknown check, suite and fault ids: exit 2 with the nearest known ones', () => {
    expectOneLine(
      cli('run', '--dry-run', '--check', 'health-endpoint').stderr,
      /unknown check health-endpoint; did you mean health-endpoints/,
    );
    expectOneLine(cli('run', '--dry-run', '--suite', 'rest-wach').stderr, /unknown suite rest-wach; did you mean rest-watch/);
    expectOneLine(
      cli('run', '--dry-run', '--fault', 'health-exclude-ignore').stderr,
      /unknown fault health-exclude-ignore; did you mean health-exclude-ignored/,
    );
    expectOneLine(
      cli('run', '--dry-run', '--nodeagent-fault', 'port-zer').stderr,
      /unknown node-agent fault port-zer; did you mean port-zero/,
    );
  });

  it('run --dry-run reads the kubeconfig: an unknown context is exit 2; a good one sends nothing and starts no credential plugin', () => {
    const marker = path.join(dir, 'plugin-ran');
    const plugin = path.join(dir, 'plugin.mjs');
    writeFileSync(plugin, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const kubeconfig = path.join(dir, 'kubeconfig.yaml');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]',
        `users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(plugin)}]}}}]`,
        'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
        'current-context: ctx',
        '',
      ].join('\n'),
    );
    expectOneLine(
      cli('run', '--dry-run', '--kubeconfig', kubeconfig, '--context', 'nope').stderr,
      /context "nope" not found \(available: ctx\)/,
    );
    expect(cli('run', '--dry-run', '--kubeconfig', kubeconfig, '--context', 'nope').status).toBe(2);
    const ok = cli('run', '--dry-run', '--kubeconfig', kubeconfig);
    expect(ok.status, ok.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('run --dry-run refuses what a run would: a missing CA file, a bad hook, a reports folder below a file or holding a user file', () => {
    expectOneLine(
      cli('run', '--dry-run', '--server', 'https://127.0.0.1:9', '--certificate-authority', path.join(dir, 'none.crt')).stderr,
      /--certificate-authority .*none\.crt: no such file/,
    );
    expectOneLine(cli('run', '--dry-run', '--certificate-authority', typo).stderr, /--certificate-authority applies to --server/);
    expectOneLine(
      cli('run', '--dry-run', '--server', 'https://127.0.0.1:9', '--hook', 'reboot').stderr,
      /--hook reboot: expected restart=CMD or compact=CMD/,
    );
    const under = cli('run', '--dry-run', '--reports', path.join(typo, 'out'));
    expect(under.status).toBe(2);
    expectOneLine(under.stderr, /--reports .*typo\.yaml\/out: cannot write there \(.*typo\.yaml is not a directory\)/);
    const reports = path.join(dir, 'mine');
    mkdirSync(path.join(reports, 'histories'), { recursive: true });
    writeFileSync(path.join(reports, 'histories', 'notes.json'), '{}');
    const r = cli('run', '--dry-run', '--reports', reports);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /histories\/notes\.json was not written by svc-conformance/);
  });

  it('--server https://... --certificate-authority FILE: the run trusts the server through that CA, and not without it', async () => {
    const server = await startHttps((_req, res) => json(res, 404, { kind: 'Status', status: 'Failure', code: 404 }));
    try {
      const run = (...extra: string[]) =>
        cliAsync(
          'run',
          '--check',
          'health-endpoints',
          '--runs',
          '1',
          '--no-preflight',
          '--server',
          server.url,
          ...extra,
          '--reports',
          path.join(dir, 'ca-out'),
        );
      const without = await run();
      expect(without.status).toBe(3);
      expect(without.stderr).toMatch(/server certificate not trusted/);
      // No handshake, no request: the server saw nothing.
      expect(server.seen).toHaveLength(0);
      const trusted = await run('--certificate-authority', path.join(TLS_DIR, 'ca.crt'));
      expect(trusted.stderr).not.toMatch(/not trusted/);
      expect(server.seen.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

function cliAsync(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, KUBECONFIG: '' } });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (status) => resolve({ status, stderr }));
  });
}
