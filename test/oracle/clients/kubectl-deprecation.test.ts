// kubectl parses the Warning header itself (RFC 7234, code 299) and prints it: a real client reading
// the reference server's deprecation signals, and discovery of the served versions by release.
import { afterEach, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
let server: ReferenceServer | undefined;
const kubectl = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'kubectl',
      [`--server=${server!.url}`, ...args],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, KUBECONFIG: '/dev/null', HOME: '/nonexistent' } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!hasKubectl)('kubectl and deprecated versions', () => {
  it("v1.24: listing batch/v1beta1 cronjobs prints the server's deprecation warning", async () => {
    server = await referenceServer({ profile: 'k8s' });
    const r = await kubectl('get', 'cronjobs.v1beta1.batch', '-A');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob');
    const v1 = await kubectl('get', 'cronjobs.v1.batch', '-A');
    expect(v1.stderr).not.toContain('Warning');
  });

  it('v1.25: api-versions no longer lists batch/v1beta1', async () => {
    server = await referenceServer({ profile: 'k8s', release: '1.25' });
    const r = await kubectl('api-versions');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toContain('batch/v1');
    expect(r.stdout.split('\n')).not.toContain('batch/v1beta1');
  });
});
