// The other half of the oracle's strength: correct behaviour passes. The unfaulted reference server
// and every legal variation (behaviour the spec allows) must not be flagged by any check.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/in-process-run.ts';
import { variations } from '../../targets/api-server/variations.ts';
import { checks } from '../../suites/checks/index.ts';

const SEED = 20261122;

describe('correct behaviour passes', () => {
  // The controller daemon checks judge a daemon, not the API server: test/oracle/daemon-faults.test.ts runs them.
  const apiChecks = checks.filter((c) => c.suite !== 'controller-daemon');
  const all = apiChecks.map((c) => c.id);

  it('the reference server passes every check, and every check exercises its clauses', async () => {
    const records = await runAgainst({ checks: all, runs: 15, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records)).toEqual([]);
    const passed = new Set(records.filter((r) => r.verdict === 'pass').map((r) => r.clause));
    const neverPassed = apiChecks.flatMap((c) => c.clauses.filter((clause) => !passed.has(clause)).map((clause) => `${c.id}: ${clause}`));
    expect(neverPassed).toEqual([]);
  }, 300_000);

  it.each(variations.map((v) => [v.name]))('legal variation %s is not flagged', async (variation) => {
    // Latency only slows the run down; the others get enough cases to reach their odd corners.
    const records = await runAgainst({ checks: all, variations: [variation as never], runs: variation === 'latency' ? 4 : 12, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
  }, 300_000);
});

