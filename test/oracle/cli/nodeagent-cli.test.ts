// `svc-conformance nodeagent validate|match-image` and `run --nodeagent-*`: the loader protocol's exit
// codes, errors with file, line, column and field path, malformed YAML and wrong kinds explained in one
// line each, never a stack trace; a run against a faulty loader saves the shrunk file.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 90_000, env: { ...process.env, KUBECONFIG: '' } });
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-nodeagent-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const header = 'apiVersion: nodeagent.config.svc.io/v1beta1\nkind: NodeagentConfiguration\n';
const noTrace = (s: string) => expect(s).not.toMatch(/\n\s+at /);

describe('nodeagent validate', () => {
  it('accepts a valid file (exit 0) and prints the effective configuration', () => {
    const r = cli(
      'nodeagent',
      'validate',
      '--effective',
      file('ok.yaml', `${header}reservedSystemCPUs: ""\nnodeStatusUpdateFrequency: 20s\n`),
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      maxPods: 110,
      nodeStatusReportFrequency: '20s',
      authentication: { webhook: { cacheTTL: '2m0s' } },
    });
  });

  it('rejects (exit 1) with file, line, column, field path and clause; JSON errors on request', () => {
    const f = file('bad.yaml', `${header}logging:\n  verbosity: -1\nmaxPods: -3\n`);
    const r = cli('nodeagent', 'validate', f);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${f}:4:14: logging.verbosity: -1 does not fit in uint32 (node:2.4/LoggingConfiguration.verbosity)`);
    expect(r.stderr).toContain(`${f}:5:10: maxPods: -3 is negative (node:2.2/maxPods)`);
    noTrace(r.stderr);
    const j = cli('nodeagent', 'validate', '--output', 'json', f);
    expect(j.status).toBe(1);
    expect((JSON.parse(j.stdout) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['logging.verbosity', 'maxPods']);
  });

  it('malformed YAML: exit 2, one line with line and column; a wrong kind is named; a missing file is exit 2', () => {
    const m = cli('nodeagent', 'validate', file('broken.yaml', `${header}maxPods: [1,\nport: 3\n`));
    expect(m.status).toBe(2);
    expect(m.stderr.trim().split('\n')).toHaveLength(1);
    expect(m.stderr).toMatch(/broken\.yaml:\d+:\d+: malformed YAML/);
    noTrace(m.stderr);
    const k = cli('nodeagent', 'validate', file('pod.yaml', 'apiVersion: v1\nkind: Pod\n'));
    expect(k.status).toBe(1);
    expect(k.stderr).toMatch(/pod\.yaml:2:7: kind: kind "Pod": expected NodeagentConfiguration or CredentialProviderConfig/);
    const n = cli('nodeagent', 'validate', path.join(dir, 'nope.yaml'));
    expect(n.status).toBe(2);
    expect(n.stderr).toMatch(/nope\.yaml: no such file/);
  });

  it('match-image explains a decision', () => {
    const y = cli('nodeagent', 'match-image', '*.registry.io', 'eu.registry.io/app:1');
    expect([y.status, y.stdout.split(':')[0]]).toEqual([0, 'match']);
    const n = cli('nodeagent', 'match-image', '*.registry.io', 'a.b.registry.io/app');
    expect(n.status).toBe(1);
    expect(n.stdout).toMatch(/^no match: .*segment/);
  });
});

describe('run against a faulty node-agent loader', () => {
  it('exits 1, names the loader in summary.json and saves the shrunk file', () => {
    const reports = path.join(dir, 'results');
    const r = cli(
      'run',
      '--suite',
      'nodeagent-config',
      '--check',
      'nodeagent-invalid-configs',
      '--runs',
      '150',
      '--seed',
      '11',
      '--nodeagent-fault',
      'port-zero',
      '--reports',
      reports,
    );
    expect(r.status, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as {
      target: { nodeagentLoader: string };
      clauses: { id: string; status: string }[];
    };
    expect(summary.target.nodeagentLoader).toBe('embedded reference loader with faults port-zero');
    expect(summary.clauses.find((c) => c.id === 'node:2.2/port')?.status).toBe('failed');
    expect(existsSync(path.join(reports, 'nodeagent'))).toBe(true);
    const saved = readdirSync(path.join(reports, 'nodeagent'));
    expect(saved[0]).toMatch(/^nodeagent-invalid-configs-1\.yaml$/);
    expect(readFileSync(path.join(reports, 'nodeagent', saved[0]!), 'utf8')).toMatch(/^port: (0|65536)$/m);
  }, 120_000);

  it('an unknown fault or an empty loader command is a usage error', () => {
    const r = cli('run', '--nodeagent-fault', 'no-such-fault');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown node-agent fault no-such-fault/);
  });
});
