// The other half of the oracle's strength: correct behaviour passes. The unfaulted reference server
// and every legal variation (behaviour the spec allows) must not be flagged by any check.
//
// A variation changes the server only where it passes that variation's decision point (`varies` in
// targets/api-server/state.ts, the codec's formats, the request loop's latency and throttling): a check
// whose requests never pass it is served the same bytes as by the unvaried server, so it cannot flag
// it. Every check first runs once against the unvaried server with the same seed and runs (so the same
// cases), noting which checks pass which points (once per vitest run, shared by the share files), and
// then each variation is run against only the checks that reach it: mutation testing's coverage
// analysis (Stryker's perTest), applied to legal variations. A variation no check reaches is a finding,
// unless the catalogue below says why.
//
// The cases are spread over several test files (variations-N-of-M.test.ts, each a call of
// `describeVariations`): vitest spreads files, not cases, over its workers, and this is the costliest
// oracle file by far; in one file it kept one core busy while the other had nothing left to do.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/dev/in-process-run.ts';
import { variations, type VariationName } from '../../targets/api-server/variations.ts';
import { checks } from '../../suites/checks/index.ts';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { shareOf } from './shares.ts';

const SEED = 20261122;
const RUNS = 12;

/** Variations no check may reach, and why: their runs would pass every check by construction. */
const REACHED_BY_NONE: Partial<Record<VariationName, string>> = {
  'crd-protected-groups': "the suite's own definitions live in a group of their own, never in the product's",
};

/** Which variations each check's requests reach, from an unvaried run of every check with the variation runs' seed and runs. */
async function learnedReach(all: readonly string[]): Promise<Map<string, ReadonlySet<VariationName>>> {
  const file = join(inject('oracleScratch'), `variation-reach-${SEED}-${RUNS}.json`);
  if (existsSync(file)) return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, VariationName[]>).map(([c, vs]) => [c, new Set(vs)]));
  const byCheck = new Map<string, Set<VariationName>>();
  const records = await runAgainst({ checks: all, runs: RUNS, seed: SEED, variationReach: byCheck });
  // The unvaried run is a run of the reference server too: it passes, or no reach learned from it counts.
  expect(errorsOf(records)).toEqual([]);
  expect(failuresOf(records)).toEqual([]);
  // Whole or not at all: another share may read it the moment it appears.
  const part = `${file}.${process.pid}`;
  writeFileSync(part, JSON.stringify(Object.fromEntries([...byCheck].map(([c, vs]) => [c, [...vs]]))));
  renameSync(part, file);
  return byCheck;
}

/** The variations of share `part` (1-based) of `parts`; share 1 also runs the reference server. */
export function describeVariations(part: number, parts: number): void {
  // Independent servers per case, mostly idle waiting: run concurrently (see fault-cases.ts).
  describe.concurrent(`correct behaviour passes (share ${part} of ${parts})`, () => {
    // The variations are the API server's; node-agent loader and controller daemon checks have their own
    // oracle files (nodeagent-faults, daemon-faults) with their own reference targets.
    const all = checks.filter((c) => c.suite.startsWith('rest-')).map((c) => c.id);
    // Learned before the file's cases start, so their time limits count only their own runs; once per
    // vitest run: the first share to learn it leaves it for the others (the same seed and runs give the
    // same cases), and only after its unvaried run passed.
    const byCheck = new Map<string, ReadonlySet<VariationName>>();
    beforeAll(async () => {
      for (const [check, reached] of await learnedReach(all)) byCheck.set(check, reached);
    }, 600_000);

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
      }, 600_000);
    }

    // Ten minutes per variation: the cases run concurrently, so each one's clock also counts the others'
    // CPU, and the deletion-lingers run waits out its lingering deletions (300 s was hit on two busy cores).
    it.each(shareOf(variations, part, parts).map((v) => [v.name]))(
      'legal variation %s is not flagged',
      async (name) => {
        const variation = name as VariationName;
        const reaching = all.filter((c) => byCheck.get(c)?.has(variation));
        const why = REACHED_BY_NONE[variation];
        expect(reaching.length > 0 || why !== undefined, `no check's requests reach ${variation}: its run would show nothing`).toBe(true);
        expect(why === undefined || reaching.length === 0, `${variation} is listed as reached by none, but ${reaching.join(', ')} reach it`).toBe(true);
        if (reaching.length === 0) return;
        // Latency only slows the run down; the others get enough cases to reach their odd corners.
        const records = await runAgainst({ checks: reaching, variations: [variation], runs: variation === 'latency' ? 4 : RUNS, seed: SEED });
        expect(errorsOf(records)).toEqual([]);
        expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
      },
      600_000,
    );
  });
}
