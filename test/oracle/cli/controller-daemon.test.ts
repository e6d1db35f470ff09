// `svc-conformance controller-daemon lint`: errors name the option, the rule and the clause; exit 0
// clean, 1 errors, 2 usage, never a stack trace. Kept to a few process starts (each costs a tsx boot).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-lint-'));

describe('controller-daemon lint', () => {
  it('errors and warnings: exit 1, each line with option, rule and clause', () => {
    const r = cli('controller-daemon', 'lint', '--', '--leader-elect-renew-deadline=20s', '--tls-cipher-suites=TLS_RSA_WITH_RC4_128_SHA');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'error: --leader-elect-renew-deadline: the renew deadline exceeds the lease duration [at most --leader-elect-lease-duration; node:2.6/leader-elect-renew-deadline]',
    );
    expect(r.stderr).toContain('warning: --tls-cipher-suites: TLS_RSA_WITH_RC4_128_SHA is insecure');
  });

  it('a manifest: the container command and args are read; a clean one exits 0 with --effective JSON', () => {
    const file = path.join(dir, 'pod.yaml');
    writeFileSync(
      file,
      'apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: kcm\n    command: [kube-controller-manager, --secure-port=0]\n    args: ["--kube-api-qps", "5"]\n',
    );
    const r = cli('controller-daemon', 'lint', '--profile', 'k8s', '--effective', '--file', file);
    expect(r.stderr).toMatch(/^ok: 3 arguments/);
    expect(r.status).toBe(0);
    const eff = JSON.parse(r.stdout) as { httpsEnabled: boolean; values: Record<string, unknown> };
    expect(eff.httpsEnabled).toBe(false);
    expect(eff.values['leader-elect-resource-namespace']).toBe('kube-system');
  });

  it('a manifest without containers: exit 2, one line with file and line', () => {
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, 'kind: Pod\nspec:\n  volumes: []\n');
    const r = cli('controller-daemon', 'lint', '--file', file);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/bad\.yaml: line \d+: no spec\.containers/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
