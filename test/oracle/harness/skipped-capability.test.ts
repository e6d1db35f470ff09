// A target may lack an optional capability ("against targets without CRDs it falls back to
// built-in kinds and reports the rest as skipped"): the fixture checks are skipped, never failed, and
// the ConfigMap apply checks still run.
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { defaultTargetSettings, openEnv } from '../../../runner/env.ts';
import { runCheck } from '../../../runner/run-check.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

describe('a target without CustomResourceDefinitions', () => {
  it('skips the CRD fixture checks and still judges apply on ConfigMaps', async () => {
    const server = await referenceServer();
    const opened = openEnv(
      { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' },
      { profile: profiles.svc, runId: 'nocrd', settings: defaultTargetSettings, signals: false },
    );
    const noCrds: Target = {
      server: opened.env.target.server,
      close: () => opened.env.target.close(),
      send: async (req) => (req.path.includes('/customresourcedefinitions') ? { status: 404, headers: {}, bodyText: 'not found', json: undefined } : opened.env.target.send(req)),
    };
    try {
      const env = { ...opened.env, target: noCrds };
      for (const id of ['apply-sequences', 'apply-schema-change']) {
        const records = await runCheck(checkById(id)!, env, { seed: 3, runs: 2 });
        expect(records.map((r) => r.verdict)).not.toContain('fail');
        expect(records.filter((r) => r.verdict === 'skipped').length).toBe(checkById(id)!.clauses.length);
        expect(records.find((r) => r.verdict === 'skipped')!.note).toMatch(/customresourcedefinitions/);
      }
      const cm = await runCheck(checkById('apply-sequences-configmaps')!, env, { seed: 3, runs: 2 });
      expect(cm.some((r) => r.verdict === 'pass')).toBe(true);
      expect(cm.map((r) => r.verdict)).not.toContain('fail');
    } finally {
      await opened.close();
      await server.close();
    }
  });
});
