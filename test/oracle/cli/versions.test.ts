// `svc-conformance versions`: the migration report from the model, and one clear line for a bad release.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/svc-conformance.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('svc-conformance versions', () => {
  it('--release 1.25 --profile k8s: what to migrate, to what, since when', () => {
    const r = cli('versions', '--release', '1.25', '--profile', 'k8s');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Must migrate now: no longer served in v1.25');
    expect(r.stdout).toContain('batch/v1beta1 CronJob: use batch/v1 (served since v1.21)');
    expect(r.stdout).toMatch(/deprecated: migrate before removal \(4\)/);
    expect(r.stdout).toContain('autoscaling/v2beta2 HorizontalPodAutoscaler');
  });

  it('a bad release: exit 2 and one line naming it', () => {
    const r = cli('versions', '--release', 'one.25');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/"one\.25" is not a release/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
