// The other half of the oracle's strength: correct behaviour passes. The unfaulted reference server
// and every legal variation (behaviour the spec allows) must not be flagged by any check.
//
// The cases are spread over several test files (variations-N-of-M.test.ts, each a call of
// `describeVariations`): vitest spreads files, not cases, over its workers, and this is the costliest
// oracle file by far; in one file it kept one core busy while the other had nothing left to do.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/dev/in-process-run.ts';
import { variations } from '../../targets/api-server/variations.ts';
import { checks } from '../../suites/checks/index.ts';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { shareOf } from './shares.ts';

const SEED = 20261122;

/** The variations of share `part` (1-based) of `parts`; share 1 also runs the reference server. */
export function describeVariations(part: number, parts: number): void {
  // Independent servers per case, mostly idle waiting: run concurrently (see fault-cases.ts).
  describe.concurrent(`correct behaviour passes (share ${part} of ${parts})`, () => {
    // The variations are the API server's; node-agent loader and controller daemon checks have their own
    // oracle files (nodeagent-faults, daemon-faults) with their own reference targets.
    const all = checks.filter((c) => c.suite.startsWith('rest-')).map((c) => c.id);

    if (part === 1) {
      it('the reference server passes every check, and every check exercises its clauses', async () => {
        const records = await runAgainst({ checks: all, runs: 15, seed: SEED });
        // Some clauses are reachable only with other server options (rest:7.3 needs release 1.21, the last
        // where a webhook can declare side effects): where a fault's catching run needs them, the correct
        // server passes there too.
        for (const f of faults as readonly Fault[]) {
          if (f.target !== undefined) records.push(...(await runAgainst({ checks: f.checks.filter((c) => all.includes(c)), runs: 15, seed: SEED, ...f.target })));
        }
        expect(errorsOf(records)).toEqual([]);
        expect(failuresOf(records)).toEqual([]);
        const passed = new Set(records.filter((r) => r.verdict === 'pass').map((r) => r.clause));
        const neverPassed = checks.filter((c) => all.includes(c.id)).flatMap((c) => c.clauses.filter((clause) => !passed.has(clause)).map((clause) => `${c.id}: ${clause}`));
        expect(neverPassed).toEqual([]);
      }, 300_000);
    }

    // Ten minutes per variation: the cases run concurrently, so each one's clock also counts the others'
    // CPU, and the deletion-lingers run waits out its lingering deletions (300 s was hit on two busy cores).
    it.each(shareOf(variations, part, parts).map((v) => [v.name]))(
      'legal variation %s is not flagged',
      async (variation) => {
        // Latency only slows the run down; the others get enough cases to reach their odd corners.
        const records = await runAgainst({ checks: all, variations: [variation as never], runs: variation === 'latency' ? 4 : 12, seed: SEED });
        expect(errorsOf(records)).toEqual([]);
        expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
      },
      600_000,
    );
  });
}
