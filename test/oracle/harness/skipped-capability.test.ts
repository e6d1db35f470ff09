// A target may lack an optional capability ("against targets without CRDs it falls back to built-in
// kinds and reports the rest as skipped"): the fixture checks are skipped, never failed, and the
// ConfigMap apply checks still run.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import { checkById } from '../../../suites/checks/index.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

const noCrds = (t: Target): Target => ({
  server: t.server,
  close: () => t.close(),
  send: async (req) =>
    req.path.includes('/customresourcedefinitions') ? { status: 404, headers: {}, bodyText: 'not found', json: undefined } : t.send(req),
});

describe('a target without CustomResourceDefinitions', () => {
  it('skips the CRD fixture checks and still judges apply on ConfigMaps', async () => {
    const { records } = await withReferenceServer({}, (server) =>
      runPlanned({
        options: { server: server.url, check: ['apply-sequences', 'apply-schema-change', 'apply-sequences-configmaps'], runs: 2 },
        seed: 3,
        runId: 'nocrd',
        inProcess: { checksTarget: noCrds },
      }),
    );
    for (const id of ['apply-sequences', 'apply-schema-change']) {
      const own = records.filter((r) => r.check === id);
      expect(own.map((r) => r.verdict)).not.toContain('fail');
      expect(own.filter((r) => r.verdict === 'skipped').length).toBe(checkById(id)!.clauses.length);
      expect(own.find((r) => r.verdict === 'skipped')!.note).toMatch(/customresourcedefinitions/);
    }
    const cm = records.filter((r) => r.check === 'apply-sequences-configmaps');
    expect(cm.some((r) => r.verdict === 'pass')).toBe(true);
    expect(cm.map((r) => r.verdict)).not.toContain('fail');
  });
});
