// Why: a repeatable 5xx is an answer, not an outage. A request whose answer the spec
// defines and that gets the same 5xx every time it is replayed fails that request's clause, with the
// answer shown; a 5xx that does not repeat is infrastructure (error) or, when a retry is answered, passes.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../../scripts/dev/in-process-run.ts';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import type { CheckRecord } from '../../../runner/results.ts';
import type { Target, TargetRequest } from '../../../harness/transport/exchange.ts';

const SEED = 24;
const internalError = {
  status: 503,
  headers: { 'content-type': 'application/json' },
  bodyText: '{"kind":"Status","code":503}',
  json: { kind: 'Status', code: 503 },
};

/** A reference server behind a stand-in that answers some of the checks' requests itself. */
async function withTarget(
  answer: (req: TargetRequest) => typeof internalError | undefined,
  body: (run: (check: string, runs: number) => Promise<CheckRecord[]>) => Promise<void>,
): Promise<void> {
  const answering = (t: Target): Target => ({ server: t.server, close: () => t.close(), send: async (req) => answer(req) ?? t.send(req) });
  await withReferenceServer({}, (server) =>
    body(
      async (check, runs) =>
        (
          await runPlanned({
            options: { server: server.url, check: [check], runs },
            seed: SEED,
            runId: 'r5xx',
            inProcess: { checksTarget: answering },
          })
        ).records,
    ),
  );
}

describe('a repeatable 5xx is an answer', () => {
  it('a PUT answered 500 every time fails rest:4.1/put, with the 500 shown', async () => {
    const records = await runAgainst({ checks: ['crud-sequences'], faults: ['update-answers-500'], runs: 30, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    const put = failuresOf(records).find((r) => r.clause === 'rest:4.1/put');
    expect(put, JSON.stringify(failuresOf(records).map((r) => r.clause))).toBeDefined();
    expect(put!.counterexample!.observed).toMatch(/^status 500 .*InternalError/);
  }, 120_000);

  it('a paged list answered 500 on every retry fails its rest:4.5 cell', async () => {
    const records = await runAgainst({
      checks: ['rv-cell-list-unset-limit-unset'],
      faults: ['paged-list-answers-500'],
      runs: 10,
      seed: SEED,
    });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records).map((r) => r.clause)).toContain('rest:4.5/list/unset/limit/unset');
  }, 120_000);
});

describe('an unrepeatable 5xx is not a failure', () => {
  it('a list answered 503 once is retried and passes', async () => {
    let answered = 0;
    await withTarget(
      (req) => (req.method === 'GET' && req.query?.some(([k]) => k === 'limit') && answered++ === 0 ? internalError : undefined),
      async (run) => {
        const records = await run('rv-cell-list-unset-limit-unset', 5);
        expect(answered).toBeGreaterThan(1);
        expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error')).toEqual([]);
        expect(records.some((r) => r.verdict === 'pass' && r.clause === 'rest:4.5/list/unset/limit/unset')).toBe(true);
      },
    );
  }, 120_000);

  it('a PUT answered 503 (a Status body) once makes the check an error after its case is replayed, never a failure', async () => {
    let answered = 0;
    await withTarget(
      (req) => (req.method === 'PUT' && req.path.includes('/configmaps/') && answered++ === 0 ? internalError : undefined),
      async (run) => {
        const records = await run('crud-sequences', 30);
        expect(answered).toBeGreaterThan(0);
        expect(records.filter((r) => r.verdict === 'fail')).toEqual([]);
        const errors = records.filter((r) => r.verdict === 'error');
        expect(errors.map((r) => r.clause)).toContain('rest:4.1/put');
        expect(errors[0]!.note).toMatch(/^infrastructure: PUT .* answered 503 .*did not fail so again/);
      },
    );
  }, 120_000);
});
