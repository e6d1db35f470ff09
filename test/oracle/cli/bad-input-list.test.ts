// Every bad input a user was seen to give, each with a 20 s limit (two of them used to hang): the documented
// exit code, one line on stderr naming what was wrong (the option, the flag meant), no stack trace.
// `controller-daemon lint` and `nodeagent validate` judge what they were given: a refused command line
// or configuration is their exit 1 (docs/commands.md: lint "exit 0 clean, 1 errors"; validate "exit 0
// accepted, 1 rejected, 2 unreadable"); everything else here is a usage error, exit 2.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-bad-'));
const file = (name: string, text: string) => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
const LIMIT_MS = 20_000;

function cli(args: readonly string[]): Promise<{ status: number | null; timedOut: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, KUBECONFIG: '' } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, LIMIT_MS);
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, timedOut, stdout, stderr });
    });
  });
}

const cases: readonly { name: string; args: () => string[]; exit: number; line: RegExp }[] = [
  {
    name: 'run --reports /proc/x (spun at 100% CPU)',
    args: () => ['run', '--reports', '/proc/x'],
    exit: 2,
    line: /^svc-conformance: --reports \/proc\/x: cannot write there/,
  },
  {
    name: 'run --hook foo=bar on the embedded target (hung after its usage error)',
    args: () => ['run', '--hook', 'foo=bar'],
    exit: 2,
    line: /^svc-conformance: --hook applies to an external target/,
  },
  {
    name: 'run --hook foo=bar on an external target',
    args: () => ['run', '--server', 'http://127.0.0.1:9', '--hook', 'foo=bar'],
    exit: 2,
    line: /^svc-conformance: --hook foo=bar: expected restart=CMD or compact=CMD/,
  },
  {
    name: '--token-file missing',
    args: () => ['run', '--server', 'http://127.0.0.1:9', '--token-file', path.join(dir, 'no-token')],
    exit: 2,
    line: /^svc-conformance: --token-file \S*no-token: no such file$/,
  },
  {
    name: '--expectations missing',
    args: () => ['run', '--expectations', path.join(dir, 'no.yaml')],
    exit: 2,
    line: /^svc-conformance: --expectations \S*no\.yaml: no such file$/,
  },
  {
    name: '--expectations malformed',
    args: () => ['run', '--expectations', file('bad.yaml', 'knownFailures: [1, 2\n')],
    exit: 2,
    line: /^svc-conformance: --expectations \S*bad\.yaml:\d+: /,
  },
  {
    name: '--baseline missing',
    args: () => ['run', '--baseline', path.join(dir, 'no.json')],
    exit: 2,
    line: /^svc-conformance: --baseline \S*no\.json: no such file$/,
  },
  {
    name: '--baseline not JSON',
    args: () => ['run', '--baseline', file('bad.json', 'nope')],
    exit: 2,
    line: /^svc-conformance: --baseline \S*bad\.json: not JSON/,
  },
  {
    name: '--focus not a regular expression',
    args: () => ['run', '--focus', '('],
    exit: 2,
    line: /^svc-conformance: --focus \(: not a regular expression/,
  },
  {
    name: '--skip selecting nothing',
    args: () => ['run', '--dry-run', '--skip', '.'],
    exit: 2,
    line: /^svc-conformance: --skip \. selects no check/,
  },
  {
    name: 'controller-daemon lint -- --kube-api-qsp=5: did you mean, in the svc profile',
    args: () => ['controller-daemon', 'lint', '--', '--kube-api-qsp=5'],
    exit: 1,
    line: /^error: --kube-api-qsp: unknown flag: --kube-api-qsp \(did you mean --svc-api-qps\?\)/,
  },
  {
    name: 'controller-daemon lint --profile k8s -- --kube-api-qsp=5',
    args: () => ['controller-daemon', 'lint', '--profile', 'k8s', '--', '--kube-api-qsp=5'],
    exit: 1,
    line: /\(did you mean --kube-api-qps\?\)/,
  },
  {
    name: 'nodeagent validate with an unknown field: refused by default (exited 0)',
    args: () => [
      'nodeagent',
      'validate',
      file('typo.yaml', 'apiVersion: nodeagent.config.svc.io/v1beta1\nkind: NodeagentConfiguration\nreservedSystemCPUs: "0"\nmaxPodz: 5\n'),
    ],
    exit: 1,
    line: /typo\.yaml:4:\d+: maxPodz: unknown field maxPodz \(did you mean maxPods\?\)/,
  },
];

describe('bad input a user was seen to give', () => {
  it.concurrent.each(cases)('$name', { timeout: LIMIT_MS + 10_000 }, async ({ args, exit, line }) => {
    const r = await cli(args());
    expect(r.timedOut, `no answer within ${LIMIT_MS / 1000} s`).toBe(false);
    expect(r.status, r.stderr).toBe(exit);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(r.stderr + r.stdout).not.toMatch(/\n\s+at |internal error/);
  });

  it('nodeagent validate --lenient accepts the unknown field with a note (exit 0)', { timeout: LIMIT_MS + 10_000 }, async () => {
    const r = await cli([
      'nodeagent',
      'validate',
      '--lenient',
      file(
        'typo2.yaml',
        'apiVersion: nodeagent.config.svc.io/v1beta1\nkind: NodeagentConfiguration\nreservedSystemCPUs: "0"\nmaxPodz: 5\n',
      ),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note \(spec leaves this open, accepted\): maxPodz: unknown field maxPodz \(did you mean maxPods\?\)/);
  });
});
