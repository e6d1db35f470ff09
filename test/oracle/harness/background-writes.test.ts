// Why: with --background-writes a check's requests are interleaved with writes in a namespace of the
// run's own, deterministically, so a failure that needed other checks' writes between two pages fails
// alone and its counterexample shows those writes in order; the writer stays inside what the run
// created, and the run's cleanup removes its namespace.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { credentialFiles, runPlanned } from '../../helpers/planned-run.ts';
import { SUPERUSER_GROUP } from '../../../reference/rbac.ts';

describe('--background-writes', () => {
  it('a drift that needs writes between pages fails with them, and they are steps and curl commands of the counterexample', async () => {
    const token = randomBytes(8).toString('hex');
    const tokenFile = credentialFiles().tokenFile(token);
    await withReferenceServer(
      { faults: ['page-rv-drift'], tokens: new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]]) },
      async (server) => {
        const run = async (backgroundWrites: boolean, path?: string) =>
          runPlanned({
            options: {
              server: server.url,
              tokenFile,
              check: ['rv-cell-list-unset-limit-unset'],
              runs: 10,
              ...(backgroundWrites ? { backgroundWrites: true } : {}),
              ...(path !== undefined ? { path } : {}),
            },
            seed: 5,
            runId: backgroundWrites ? 'bgw' : 'bga',
          });
        const withWrites = await run(true);
        const fail = withWrites.records.find((r) => r.verdict === 'fail' && r.clause === 'rest:4.4.3');
        expect(fail).toBeDefined();
        const c = fail!.counterexample!;
        // Alone (nothing else writing), the same case passes: the writes are what it needs.
        expect((await run(false, c.path)).records.filter((r) => r.verdict === 'fail')).toEqual([]);
        expect(
          c.steps.filter((s) => /^background write \d+: merge-patch configmaps svc-conformance-bgw-bg\/bg/.test(s)).length,
        ).toBeGreaterThan(1);
        // The writer's namespace and object come first, then a write before each of the check's requests.
        const curlRequests = [...c.curl.matchAll(/^ {2}-X (\w+) \\\n {2}"\$SERVER"'([^']*)'(?:"\$NS\d+"'([^']*))?/gm)].map(
          (m) => `${m[1]} ${m[2]}${m[3] ?? ''}`,
        );
        expect(curlRequests.slice(0, 2)).toEqual(['POST /api/v1/namespaces', 'POST /api/v1/namespaces//configmaps']);
        const reads = curlRequests.flatMap((r, i) => (r.startsWith('GET') ? [i] : []));
        expect(reads.length).toBeGreaterThan(1);
        for (const i of reads) expect(curlRequests[i - 1]).toBe('PATCH /api/v1/namespaces//configmaps/bg');
        // The writer's namespace was the run's: its cleanup deleted it with the others, and the sweep found nothing of the run left.
        expect(withWrites.run.swept?.leftovers).toEqual([]);
        const left = await fetch(`${server.url}/api/v1/namespaces/svc-conformance-bgw-bg`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const phase = ((await left.json()) as { status?: { phase?: string } }).status?.phase;
        expect(left.status === 404 || phase === 'Terminating', `status ${left.status} ${phase}`).toBe(true);
      },
    );
  }, 120_000);
});
