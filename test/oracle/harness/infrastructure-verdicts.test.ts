// Infrastructure trouble is an error, never a nonconformance (docs/verdict-rules.md): a target whose writes
// sometimes answer 503 must not be reported as failing any clause.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

describe('verdicts under infrastructure trouble', () => {
  it('a 503 on a write makes the check an error, with no failed clause', async () => {
    let writes = 0;
    const flaky = (t: Target): Target => ({
      server: t.server,
      close: () => t.close(),
      send: async (req) => {
        if (req.method !== 'GET' && req.path.includes('/configmaps') && ++writes % 5 === 0) {
          return { status: 503, headers: {}, bodyText: 'overloaded', json: undefined };
        }
        return t.send(req);
      },
    });
    const { records } = await withReferenceServer({}, (server) =>
      runPlanned({
        options: { server: server.url, check: ['crud-sequences'], runs: 30 },
        seed: 7,
        runId: 'infra',
        inProcess: { checksTarget: flaky },
      }),
    );
    expect(records.filter((r) => r.verdict === 'fail')).toEqual([]);
    const errors = records.filter((r) => r.verdict === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.note).toMatch(/^infrastructure: .*503/);
  });
});
