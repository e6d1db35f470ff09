// Why: against a real server a known failure (listed by the expectations file) was shrunk like a new
// one: thousands of requests and up to a minute per check for a counterexample nobody asked for. A
// known failure is now reported with its first counterexample; a failure not listed is still shrunk.
import { describe, expect, it } from 'vitest';
import { withReferenceServer } from '../../helpers/reference-server.ts';
import { runPlanned } from '../../helpers/planned-run.ts';
import type { CheckRecord } from '../../../runner/results.ts';

async function listKindFailure(known?: (r: CheckRecord) => boolean) {
  const { records, run, lines } = await withReferenceServer({ faults: ['wrong-list-kind'] }, (server) =>
    runPlanned({
      options: { server: server.url, check: ['crud-sequences'], runs: 10 },
      seed: 12,
      runId: known ? 'known1' : 'plain1',
      ...(known ? { inProcess: { known } } : {}),
    }),
  );
  const failed = records.filter((r) => r.verdict === 'fail');
  const told = lines.filter((l) => l.startsWith('svc-conformance: crud-sequences: '));
  const footprint = run.footprint.checks.find((c) => c.check === 'crud-sequences')!;
  return { failed, told, requests: Object.values(footprint.requests).reduce((a, b) => a + b, 0) };
}

describe('a known failure', () => {
  it('is reported with its first counterexample, unshrunk, for fewer requests; one not listed is shrunk', async () => {
    const listKind = (r: CheckRecord) => r.clause === 'rest:2.4.1' || r.clause === 'rest:2.4.3';
    const plain = await listKindFailure();
    const known = await listKindFailure(listKind);
    expect(plain.failed.map((r) => r.clause)).toEqual(expect.arrayContaining(['rest:2.4.1']));
    expect(known.failed.map((r) => r.clause).sort()).toEqual(plain.failed.map((r) => r.clause).sort());
    expect(plain.told[0]).toMatch(/: failure found \(.*\); shrinking it$/);
    expect(known.told[0]).toMatch(/: known failure found \(.*\); not shrunk$/);
    const size = (r: { failed: { counterexample?: { requestCount: number } }[] }) =>
      Math.max(...r.failed.map((f) => f.counterexample!.requestCount));
    expect(size(known)).toBeGreaterThan(size(plain));
    expect(known.requests).toBeLessThan(plain.requests);
  }, 120_000);
});
