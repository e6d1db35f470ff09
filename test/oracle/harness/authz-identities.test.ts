// The identities of a run: a --restricted-kubeconfig user is named by a TokenReview and judged only on
// what the case grants it; a target that refuses impersonation skips the rules check instead of
// failing it; requests as nobody go out with no credentials although the run has some.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { credentialFiles, runPlanned } from '../../helpers/planned-run.ts';
import type { Target, TargetRequest } from '../../../harness/transport/exchange.ts';
import { SUPERUSER_GROUP } from '../../../reference/rbac.ts';

const tokens = new Map([
  ['admin-t', { user: 'admin', groups: [SUPERUSER_GROUP] }],
  ['alice-t', { user: 'alice', groups: [] }],
]);

describe('identities of a run', () => {
  it('a restricted kubeconfig: its user is learned and bound; no failure on a conforming server', async () => {
    const files = credentialFiles();
    const sent: TargetRequest[] = [];
    const watching = (t: Target): Target => ({ server: t.server, close: () => t.close(), send: (req) => (sent.push(req), t.send(req)) });
    const { records } = await withReferenceServer({ tokens }, (server) =>
      runPlanned({
        options: {
          server: server.url,
          tokenFile: files.tokenFile('admin-t'),
          restrictedKubeconfig: files.kubeconfig(server.url, 'alice-t'),
          eventualWindow: 1000,
          check: ['authz-rules'],
          runs: 6,
        },
        seed: 5,
        runId: 'rk',
        inProcess: { checksTarget: watching },
      }),
    );
    expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error')).toEqual([]);
    expect(records.some((r) => r.clause === 'rest:4.1/subjectaccessreviews' && r.verdict === 'pass')).toBe(true);
    // The binding names the learned user; the user's requests go out as the restricted identity, never impersonated.
    expect(
      sent.filter((r) => r.path.endsWith('/rolebindings')).map((r) => (r.body as { subjects: { name: string }[] }).subjects[0]!.name),
    ).toContain('alice');
    expect(sent.some((r) => r.identity === 'restricted')).toBe(true);
    expect(sent.some((r) => r.headers?.['Impersonate-User'] !== undefined)).toBe(false);
  }, 60_000);

  it('a target that refuses impersonation: the rules check is skipped, never failed', async () => {
    const files = credentialFiles();
    const refusing = (t: Target): Target => ({
      server: t.server,
      close: () => t.close(),
      send: async (req) =>
        req.headers?.['Impersonate-User'] !== undefined ? { status: 403, headers: {}, bodyText: '{}', json: {} } : t.send(req),
    });
    const { records } = await withReferenceServer({ tokens }, (server) =>
      runPlanned({
        options: { server: server.url, tokenFile: files.tokenFile('admin-t'), check: ['authz-rules'], runs: 2 },
        seed: 5,
        runId: 'ni',
        inProcess: { checksTarget: refusing },
      }),
    );
    expect(records.map((r) => r.verdict)).not.toContain('fail');
    expect(records.find((r) => r.verdict === 'skipped')?.note).toMatch(/may not impersonate/);
  }, 60_000);
});
