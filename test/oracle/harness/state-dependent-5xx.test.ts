// Why: a write answered with a well-formed 500 in one namespace, and never in a fresh one, is the
// target's answer for that state (a namespace it broke), yet replays in other namespaces did not see
// it and the failure became an infrastructure error. The failing write is now sent once more in the
// state that answered it; the same 500 again is judged.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

const internalError = {
  status: 500,
  headers: { 'content-type': 'application/json' },
  bodyText: '{"kind":"Status","code":500,"reason":"InternalError"}',
  json: { kind: 'Status', code: 500, reason: 'InternalError' },
};

describe('a 5xx that depends on the state of one namespace', () => {
  it('fails rest:4.1/put, not an infrastructure error, though replays elsewhere do not meet it', async () => {
    // The state: which case's label a namespace carries (set when a case creates or reuses it). Updates
    // answer 500 in the namespace of the first case that updates a ConfigMap, while that case holds it:
    // a replay relabels it (or gets another) and never meets the 500.
    const caseOf = new Map<string, string>();
    let broken: string | undefined;
    let answered = 0;
    const brokenNamespace = (t: Target): Target => ({
      server: t.server,
      close: () => t.close(),
      send: async (req) => {
        const named = /^\/api\/v1\/namespaces(?:\/([^/]+))?$/.exec(req.path);
        if (named !== null && (req.method === 'POST' || req.method === 'PATCH')) {
          const body = (typeof req.body === 'string' ? JSON.parse(req.body) : req.body) as {
            metadata?: { name?: string; labels?: Record<string, string> };
          };
          const ns = named[1] ?? body.metadata?.name;
          const label = body.metadata?.labels?.['svc-conformance/case'];
          if (ns !== undefined && label !== undefined) caseOf.set(ns, label);
        }
        const ns = /\/namespaces\/([^/]+)\/configmaps\/[^/]+$/.exec(req.path)?.[1];
        if (req.method === 'PUT' && ns !== undefined) {
          broken ??= caseOf.get(ns);
          if (caseOf.get(ns) === broken) {
            answered++;
            return internalError;
          }
        }
        return t.send(req);
      },
    });
    const { records } = await withReferenceServer({}, (server) =>
      runPlanned({
        options: { server: server.url, check: ['crud-sequences'], runs: 30 },
        seed: 24,
        runId: 'state5xx',
        inProcess: { checksTarget: brokenNamespace },
      }),
    );
    expect(answered).toBeGreaterThan(1);
    expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
    const put = records.find((r) => r.verdict === 'fail' && r.clause === 'rest:4.1/put');
    expect(put?.counterexample?.observed).toMatch(/^status 500/);
  }, 120_000);
});
