// Infrastructure trouble is an error, never a nonconformance (docs/architecture.md "Oracle rules"):
// a target whose writes sometimes answer 503 must not be reported as failing any clause.
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { defaultTargetSettings, openEnv } from '../../../runner/env.ts';
import { runCheck } from '../../../runner/run-check.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

describe('verdicts under infrastructure trouble', () => {
  it('a 503 on a write makes the check an error, with no failed clause', async () => {
    const server = await referenceServer();
    const opened = openEnv(
      { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' },
      { profile: profiles.svc, runId: 'infra', settings: defaultTargetSettings, signals: false },
    );
    let writes = 0;
    const flaky: Target = {
      server: opened.env.target.server,
      close: () => opened.env.target.close(),
      send: async (req) => {
        if (req.method !== 'GET' && req.path.includes('/configmaps') && ++writes % 5 === 0) {
          return { status: 503, headers: {}, bodyText: 'overloaded', json: undefined };
        }
        return opened.env.target.send(req);
      },
    };
    try {
      const records = await runCheck(checkById('crud-sequences')!, { ...opened.env, target: flaky }, { seed: 7, runs: 30 });
      expect(records.filter((r) => r.verdict === 'fail')).toEqual([]);
      const errors = records.filter((r) => r.verdict === 'error');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors[0]!.note).toMatch(/^infrastructure: .*503/);
    } finally {
      await opened.close();
      await server.close();
    }
  });
});
