// Why: cleanup on an external target checks itself. What the run created and could
// not remove within the bound (a namespace held by a finalizer, a fixture) is named with the command
// that removes it; what another run created is neither deleted nor reported.
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { SUPERUSER_GROUP } from '../../../reference/rbac.ts';
import { createTargetClient } from '../../../harness/transport/client.ts';
import { fixtureCrd } from '../../../reference/apply/fixture-type.ts';
import { leftoverLines, sweepRun } from '../../../runner/sweep.ts';

const profile = profiles.svc;
const tokens = new Map([['admin-t', { user: 'admin', groups: [SUPERUSER_GROUP] }]]);

describe('sweepRun', () => {
  it("deletes the run's objects and names those still there after its bounded wait, with their removal commands", async () => {
    // No namespace controller: a deleted namespace stays Terminating, as on a cluster whose controller is stuck.
    const server = await referenceServer({ profile, tokens, builtInNamespaceController: false });
    const cfg = { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: { Authorization: 'Bearer admin-t' }, source: 'test' };
    const client = createTargetClient(cfg);
    const run = 'r1a2b3';
    const label = { [profile.runLabel]: run };
    try {
      const ns = (name: string, labels: Record<string, string>) =>
        client.send({
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } },
        });
      expect((await ns(`svc-conformance-${run}-held`, label)).status).toBe(201);
      // Another run's namespace: not ours to delete or report.
      expect((await ns('svc-conformance-other-x', { [profile.runLabel]: 'other' })).status).toBe(201);
      const crd = fixtureCrd(profile, label) as { apiVersion: string; metadata: { name: string } };
      expect((await client.send({ method: 'POST', path: `/apis/${crd.apiVersion}/customresourcedefinitions`, body: crd })).status).toBe(
        201,
      );

      const logged: string[] = [];
      const swept = await sweepRun(cfg, profile, run, (l) => logged.push(l), { waitMs: 200, pollMs: 50 });
      expect(swept.unverified).toBeUndefined();
      expect(swept.leftovers).toEqual([
        {
          kind: 'Namespace',
          name: `svc-conformance-${run}-held`,
          state: 'terminating',
          command: expect.stringContaining(`/api/v1/namespaces/svc-conformance-${run}-held/finalize`),
        },
      ]);
      expect(leftoverLines(swept, profile.runLabel, run).join('\n')).toContain(`Namespace svc-conformance-${run}-held (terminating)`);
      expect((await client.send({ method: 'GET', path: '/api/v1/namespaces/svc-conformance-other-x' })).status).toBe(200);
      expect(
        (await client.send({ method: 'GET', path: `/apis/${crd.apiVersion}/customresourcedefinitions/${crd.metadata.name}` })).status,
      ).toBe(404);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
