// The identities of a run: a --restricted-kubeconfig user is named by a TokenReview and
// judged only on what the case grants it; a target that refuses impersonation skips the rules check
// instead of failing it; requests as nobody go out with no credentials although the run has some.
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { defaultTargetSettings, openEnv } from '../../../runner/env.ts';
import { runCheck } from '../../../runner/run-check.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { Target } from '../../../harness/transport/exchange.ts';
import { SUPERUSER_GROUP } from '../../../reference/rbac.ts';

const tokens = new Map([
  ['admin-t', { user: 'admin', groups: [SUPERUSER_GROUP] }],
  ['alice-t', { user: 'alice', groups: [] }],
]);
const cfg = (url: string, token: string) => ({ server: url, tls: { insecureSkipTlsVerify: false }, headers: { Authorization: `Bearer ${token}` }, source: 'test' });

describe('identities of a run', () => {
  it('a restricted kubeconfig: its user is learned and bound; no failure on a conforming server', async () => {
    const server = await referenceServer({ tokens });
    const opened = openEnv(cfg(server.url, 'admin-t'), {
      profile: profiles.svc,
      runId: 'rk',
      settings: { ...defaultTargetSettings, eventualWindowMs: 1000 },
      signals: false,
      restricted: cfg(server.url, 'alice-t'),
    });
    try {
      const restricted = opened.env.identities?.restricted;
      expect(restricted !== 'impersonation' && (await restricted!.user())).toBe('alice');
      const sent: import('../../../harness/transport/exchange.ts').TargetRequest[] = [];
      const watching: Target = { server: opened.env.target.server, close: () => opened.env.target.close(), send: (req) => (sent.push(req), opened.env.target.send(req)) };
      const records = await runCheck(checkById('authz-rules')!, { ...opened.env, target: watching }, { seed: 5, runs: 6 });
      expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error')).toEqual([]);
      expect(records.some((r) => r.clause === 'rest:4.1/subjectaccessreviews' && r.verdict === 'pass')).toBe(true);
      // The binding names the learned user; the user's requests go out as the restricted identity, never impersonated.
      expect(sent.filter((r) => r.path.endsWith('/rolebindings')).map((r) => (r.body as { subjects: { name: string }[] }).subjects[0]!.name)).toContain('alice');
      expect(sent.some((r) => r.identity === 'restricted')).toBe(true);
      expect(sent.some((r) => r.headers?.['Impersonate-User'] !== undefined)).toBe(false);
    } finally {
      await opened.close();
      await server.close();
    }
  }, 60_000);

  it('a target that refuses impersonation: the rules check is skipped, never failed', async () => {
    const server = await referenceServer({ tokens });
    const opened = openEnv(cfg(server.url, 'admin-t'), { profile: profiles.svc, runId: 'ni', settings: defaultTargetSettings, signals: false });
    const refusing: Target = {
      server: opened.env.target.server,
      close: () => opened.env.target.close(),
      send: async (req) => (req.headers?.['Impersonate-User'] !== undefined ? { status: 403, headers: {}, bodyText: '{}', json: {} } : opened.env.target.send(req)),
    };
    try {
      const records = await runCheck(checkById('authz-rules')!, { ...opened.env, target: refusing }, { seed: 5, runs: 2 });
      expect(records.map((r) => r.verdict)).not.toContain('fail');
      expect(records.find((r) => r.verdict === 'skipped')?.note).toMatch(/may not impersonate/);
    } finally {
      await opened.close();
      await server.close();
    }
  }, 60_000);
});
