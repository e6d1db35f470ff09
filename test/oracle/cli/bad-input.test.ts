// Bad input gets one clear line and the exit code of docs/verdict-rules.md, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: '' } });
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-cli-'));

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('svc-conformance run with bad input', () => {
  it('malformed kubeconfig: exit 2, one line naming file, line and column', () => {
    const file = path.join(dir, 'broken.yaml');
    writeFileSync(file, 'apiVersion: v1\nclusters:\n  - cluster: {server: "https://x\n  users: [\n');
    const r = cli('run', '--kubeconfig', file);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*line \\d+`));
  });

  it('--restricted-kubeconfig: only with an external target, and a missing file is named (exit 2, one line)', () => {
    const embedded = cli('run', '--restricted-kubeconfig', path.join(dir, 'r.yaml'));
    expect(embedded.status).toBe(2);
    expectOneLine(embedded.stderr, /--restricted-kubeconfig applies to an external target/);
    const missing = cli('run', '--server', 'http://127.0.0.1:9', '--restricted-kubeconfig', path.join(dir, 'nope-restricted.yaml'));
    expect(missing.status).toBe(2);
    expectOneLine(missing.stderr, /--restricted-kubeconfig: .*nope-restricted\.yaml.*no such file/);
  });

  it('serve --token-auth-file with a malformed line: exit 2, one line naming file and line', () => {
    const file = path.join(dir, 'tokens.csv');
    writeFileSync(file, 'only-a-token\n');
    const r = cli('serve', '--token-auth-file', file);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /tokens\.csv: line 1/);
  });

  it('an unknown scale profile: exit 2, one line naming the known ones, before any request', () => {
    const r = cli('run', '--scale', 'huge', '--server', 'http://127.0.0.1:9');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--scale.*huge.*known: nightly/);
  });

  it('missing kubeconfig file: exit 2', () => {
    const r = cli('run', '--kubeconfig', path.join(dir, 'nope.yaml'));
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /nope\.yaml.*no such file/);
  });

  it('unreachable target: exit 3, one line naming the server', () => {
    const r = cli('run', '--server', 'http://127.0.0.1:9');
    expect(r.status).toBe(3);
    expectOneLine(r.stderr, /127\.0\.0\.1:9/);
  });

  it('malformed expectations file (one of several): exit 2, one line naming file and line', () => {
    const file = path.join(dir, 'expectations.yaml');
    writeFileSync(file, 'knownFailures: [\n');
    const r = cli(
      'run',
      '--server',
      'http://127.0.0.1:9',
      '--expectations',
      path.resolve(path.dirname(bin), '../expectations/upstream-kube-apiserver.yaml'),
      '--expectations',
      file,
    );
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not valid JSON or YAML`));
  });

  it('unknown option and unknown suite: exit 2', () => {
    expect(cli('run', '--no-such-flag').status).toBe(2);
    const r = cli('run', '--suite', 'nonsense');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /unknown suite nonsense/);
  });

  it('malformed --expectations YAML: exit 2, one line naming the file and line', () => {
    const file = path.join(dir, 'expect.yaml');
    writeFileSync(file, 'knownFailures: [\n  - clause: x\n');
    const r = cli('run', '--expectations', file);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /expect\.yaml:\d+: not valid JSON or YAML/);
  });

  it('a malformed signature or an unknown --target-capability: exit 2, one line', () => {
    const file = path.join(dir, 'signed.yaml');
    writeFileSync(file, 'knownFailures:\n  - clause: rest:4.6.1\n    observed: { class: dryrun-refused }\n    reason: r\n');
    const r = cli('run', '--expectations', file);
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /signed\.yaml:3: knownFailures\[0\]\.observed\.class: unknown observation class "dryrun-refused"/);
    const c = cli('run', '--target-capability', 'etcd');
    expect(c.status).toBe(2);
    expectOneLine(c.stderr, /unknown capability; known: watch-cache, no-watch-cache/);
  });

  it('--runs 0 checks nothing: a usage error, exit 2', () => {
    const r = cli('run', '--runs', '0');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--runs must be a positive integer/);
  });

  it('--path without --seed and --check replays nothing: a usage error, exit 2', () => {
    const r = cli('run', '--path', '1:2');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--path replays one counterexample/);
  });

  it('an unwritable --reports folder fails at once, before any request: exit 2', () => {
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const r = cli('run', '--reports', path.join(file, 'sub'));
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--reports .*cannot write there/);
  });
});

describe('svc-conformance serve with bad input', () => {
  it('a port out of range: exit 2, one line', () => {
    const r = cli('serve', '--port', '99999');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--port must be an integer from 0 to 65535/);
  });

  it('a port in use: exit 2, one line naming the port', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as { port: number }).port;
    try {
      const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        // Async spawn: the holder must keep accepting while the CLI tries the port.
        import('node:child_process').then(({ execFile }) => {
          execFile(process.execPath, [bin, 'serve', '--port', String(port)], { encoding: 'utf8', timeout: 60_000 }, (err, _out, stderr) => {
            resolve({ status: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stderr });
          });
        });
      });
      expect(r.status).toBe(2);
      expectOneLine(r.stderr, new RegExp(`port ${port} is already in use`));
    } finally {
      holder.close();
    }
  });
});

describe('svc-conformance run against a server of the other profile', () => {
  it('names the profile discovery calls for: exit 2, one line', async () => {
    const { referenceServer } = await import('../../helpers/reference-server.ts');
    const server = await referenceServer({ profile: 'k8s' });
    try {
      const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        import('node:child_process').then(({ execFile }) => {
          execFile(
            process.execPath,
            [bin, 'run', '--server', server.url, '--reports', path.join(dir, 'mismatch')],
            { encoding: 'utf8', timeout: 60_000 },
            (err, _out, stderr) => {
              resolve({ status: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stderr });
            },
          );
        });
      });
      expect(r.status).toBe(2);
      expectOneLine(r.stderr, /serves k8s\.io groups and no svc\.io group: run with --profile k8s/);
    } finally {
      await server.close();
    }
  });

  // Both hung: a killed child has status null, so a hang fails here instead of passing late.
  it('--reports under /proc: exit 2, one line, instead of spinning in mkdir', () => {
    const r = cli('run', '--reports', '/proc/x');
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--reports \/proc\/x: cannot write there/);
  });

  it('--hook on the embedded target: exit 2, one line, and the process ends', () => {
    const r = cli('run', '--hook', 'foo=bar', '--reports', path.join(dir, 'hook'));
    expect(r.status).toBe(2);
    expectOneLine(r.stderr, /--hook applies to an external target/);
  });
});
