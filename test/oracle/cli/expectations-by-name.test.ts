// `--expectations NAME`: the expectations files shipped in the package, found from any folder; a file
// given as a path (even one named like a built-in) is read as before; an unknown name is a usage error.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseExpectations } from '../../../reports/expectations.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');
const elsewhere = mkdtempSync(path.join(tmpdir(), 'svc-expectations-by-name-'));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: elsewhere,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, KUBECONFIG: '' },
  });
const SHIPPED = ['upstream-kube-apiserver', 'upstream-kube-controller-manager', 'upstream-kubelet'];

describe('built-in expectations by name', () => {
  it('list-expectations: every shipped file with its path in the package, its entry count and a description', () => {
    const r = cli('list-expectations', '-o', 'json');
    expect(r.status, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as { name: string; path: string; description: string; entries: number }[];
    expect(list.map((e) => e.name)).toEqual(SHIPPED);
    for (const e of list) {
      expect(e.path).toBe(path.join(root, 'expectations', `${e.name}.yaml`));
      expect(e.entries).toBe(parseExpectations(readFileSync(e.path, 'utf8'), e.path).knownFailures.length);
      expect(e.entries).toBeGreaterThan(0);
      expect(e.description).toMatch(/^Known departures of .* from the spec$/);
    }
    const text = cli('list-expectations');
    expect(text.stdout).toMatch(/^upstream-kube-apiserver\s+\d+ entries\s+Known departures/m);
  });

  it('a run from another folder reads the shipped file by name (its entries are in summary.json), and .yaml may be added', () => {
    for (const name of SHIPPED) expect(cli('run', '--dry-run', '--expectations', name).status).toBe(0);
    expect(cli('run', '--dry-run', '--expectations', 'upstream-kubelet.yaml').status).toBe(0);
    const run = cli(
      'run',
      '--check',
      'health-endpoints',
      '--runs',
      '3',
      '--profile',
      'k8s',
      '--expectations',
      'upstream-kube-apiserver',
      '--reports',
      path.join(elsewhere, 'out'),
    );
    expect(run.status, run.stderr).toBe(0);
    // The shipped entries are in the report: each listed clause carries its expectation.
    const summary = JSON.parse(readFileSync(path.join(elsewhere, 'out', 'summary.json'), 'utf8')) as {
      clauses: { id: string; expectation?: { entries: unknown[] } }[];
    };
    expect(summary.clauses.find((c) => c.id === 'rest:4.6.1')?.expectation?.entries).toHaveLength(1);
  });

  it('an unknown name: exit 2, one line with the nearest shipped name', () => {
    const r = cli('run', '--dry-run', '--expectations', 'upstream-kubelt');
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'svc-conformance: --expectations upstream-kubelt: no such file, and no built-in expectations of that name; did you mean upstream-kubelet? (see `svc-conformance list-expectations`)',
    );
  });

  it('a path wins over a name: a file called upstream-kubelet in the current folder is the one read', () => {
    writeFileSync(
      path.join(elsewhere, 'upstream-kubelet'),
      'knownFailures:\n  - clause: node:2.2/maxPodz\n    reason: mine\n    observed: {class: invalid-accepted}\n',
    );
    const r = cli('run', '--dry-run', '--expectations', 'upstream-kubelet');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--expectations upstream-kubelet:2: knownFailures\[0\]\.clause: unknown clause id node:2\.2\/maxPodz; did you mean node:2\.2\/maxPods/,
    );
  });
});
