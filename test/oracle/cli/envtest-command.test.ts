// `svc-conformance envtest` with bad input: one line and exit 2, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');

describe('svc-conformance envtest with bad input', () => {
  it('a missing assets folder, or none named: exit 2, one line', () => {
    const env = { ...process.env };
    delete env.KUBEBUILDER_ASSETS;
    const missing = spawnSync(process.execPath, [bin, 'envtest', '--assets', '/nonexistent/assets'], {
      encoding: 'utf8',
      timeout: 60_000,
      env,
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('svc-conformance: no upstream binaries: the assets folder /nonexistent/assets does not exist\n');
    const none = spawnSync(process.execPath, [bin, 'envtest'], { encoding: 'utf8', timeout: 60_000, env });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /^svc-conformance: no upstream binaries: set KUBEBUILDER_ASSETS to a folder with etcd, kube-apiserver \(e\.g\. from setup-envtest\) or name one with --assets\n$/,
    );
  });

  it('an --apiserver-flag that is no flag: exit 2, one line, before anything starts', () => {
    const r = spawnSync(
      process.execPath,
      [bin, 'envtest', '--assets', '/nonexistent/assets', '--apiserver-flag', 'etcd-compaction-interval=5s'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('a kube-apiserver flag such as --etcd-compaction-interval=10s');
  });
});
