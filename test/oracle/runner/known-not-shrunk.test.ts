// Why: against a real server a known failure (listed by the expectations file) was shrunk like a new
// one: thousands of requests and up to a minute per check for a counterexample nobody asked for. A
// known failure is now reported with its first counterexample; a failure not listed is still shrunk.
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../helpers/reference-server.ts';
import { profiles } from '../../../reference/profile.ts';
import { defaultTargetSettings, openEnv } from '../../../runner/env.ts';
import { runCheck } from '../../../runner/run-check.ts';
import { checkById } from '../../../suites/checks/index.ts';
import { emptyFootprint } from '../../../harness/case/footprint.ts';
import type { Judgement } from '../../../reference/judgement.ts';

async function listKindFailure(known?: (f: Judgement) => boolean) {
  const server = await referenceServer({ faults: ['wrong-list-kind'] });
  const opened = openEnv(
    { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' },
    { profile: profiles.svc, runId: known ? 'known1' : 'plain1', settings: defaultTargetSettings, signals: false },
  );
  const footprint = emptyFootprint('crud-sequences');
  const told: string[] = [];
  try {
    const records = await runCheck(checkById('crud-sequences')!, opened.env, { seed: 12, runs: 10, onFailureFound: (l) => told.push(l), ...(known ? { known } : {}) }, footprint);
    const failed = records.filter((r) => r.verdict === 'fail');
    return { failed, told, requests: Object.values(footprint.requests).reduce((a, b) => a + b, 0) };
  } finally {
    await opened.close().catch(() => undefined);
    await server.close();
  }
}

describe('a known failure', () => {
  it('is reported with its first counterexample, unshrunk, for fewer requests; one not listed is shrunk', async () => {
    const listKind = (f: Judgement) => f.clause === 'rest:2.4.1' || f.clause === 'rest:2.4.3';
    const plain = await listKindFailure();
    const known = await listKindFailure(listKind);
    expect(plain.failed.map((r) => r.clause)).toEqual(expect.arrayContaining(['rest:2.4.1']));
    expect(known.failed.map((r) => r.clause).sort()).toEqual(plain.failed.map((r) => r.clause).sort());
    expect(plain.told[0]).toMatch(/: failure found \(.*\); shrinking it$/);
    expect(known.told[0]).toMatch(/: known failure found \(.*\); not shrunk$/);
    const size = (r: { failed: { counterexample?: { requestCount: number } }[] }) => Math.max(...r.failed.map((f) => f.counterexample!.requestCount));
    expect(size(known)).toBeGreaterThan(size(plain));
    expect(known.requests).toBeLessThan(plain.requests);
  }, 120_000);
});
