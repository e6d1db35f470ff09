// The other half of the oracle's strength: correct behaviour passes. The unfaulted reference server
// and every legal variation (behaviour the spec allows) must not be flagged by any check.
//
// A variation changes the server only where it passes that variation's decision point (`varies` in
// targets/api-server/state.ts, the codec's formats, the request loop's latency and throttling): a check
// whose requests never pass it is served the same bytes as by the unvaried server, so it cannot flag
// it. Every check first runs once against the unvaried server with the same seed and at least as many
// runs (so the same cases and more), noting which checks pass which points (once per vitest run, shared
// by the share files), and
// then each variation is run against only the checks that reach it: mutation testing's coverage
// analysis (Stryker's perTest), applied to legal variations. A variation no check reaches is a finding,
// unless the catalogue below says why.
//
// Variations that change only how answers are written (RUN_TOGETHER) are run together, as a real
// server differs from the reference in many such ways at once, provided no check judges less against
// them than against the unvaried server (test/helpers/judgments.ts); `npm run mutation` still runs
// every variation alone for docs/oracle-strength.md.
//
// The cases are spread over several test files (variations-N-of-M.test.ts, each a call of
// `describeVariations`): vitest spreads files, not cases, over its workers, and this is the costliest
// oracle file by far; in one file it kept one core busy while the other had nothing left to do.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/dev/in-process-run.ts';
import { variations, type VariationName } from '../../targets/api-server/variations.ts';
import { checks } from '../../suites/checks/index.ts';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { shareOf } from '../helpers/shares.ts';
import { oncePerRun } from '../helpers/once-per-run.ts';
import { narrowedJudgments, passCounts, type PassCounts } from '../helpers/judgments.ts';
import type { CheckRecord } from '../../runner/results.ts';

const SEED = 20261122;
const RUNS = 12;

/** Variations no check may reach, and why: their runs would pass every check by construction. */
const REACHED_BY_NONE: Partial<Record<VariationName, string>> = {
  'crd-protected-groups': "the suite's own definitions live in a group of their own, never in the product's",
};

/**
 * Variations whose runs mostly wait, and over how many servers at once their checks are spread: every
 * delete of deletion-lingers waits 300 ms, and one server running its 62 checks one after another took
 * 258 s while the other variations of its share took 110-150 s; latency waits 5-30 ms on every request
 * and took 102 s, the longest case of `npm test`, while the rest of its share had ended.
 */
const WAITING_PARTS: Partial<Record<VariationName, number>> = { 'deletion-lingers': 3, latency: 3 };

/**
 * Variations that change only the bytes of an answer (indentation, unknown fields, order, the status
 * code or Content-Type parameters the spec leaves open), not which requests a case makes nor what a
 * check can judge of the answer: run together, at the reference run's seed and runs, and only while
 * every judgment the unvaried run passed is passed at least as often (narrowedJudgments). Left out,
 * measured on 2026-11-27: opaque-rv (the "too large" and future resourceVersion cases cannot be made
 * from opaque versions), no-remaining-count (its clause goes unjudged), and every variation that
 * changes what happens (timing, retries, snapshots, watches, deletions), which moved counts when added.
 */
const RUN_TOGETHER: readonly VariationName[] = [
  'shuffled-order',
  'pretty-json',
  'extra-fields',
  'items-with-kind',
  'status-200-on-create',
  'delete-returns-object',
  'omit-empty-collections',
  'invalid-as-400',
  'associative-lists-reversed',
  'table-plain-content-type',
  'opaque-continue',
  'conflict-as-422',
];

/** Runs of the reference run: more than the variations' RUNS, so its reach covers theirs. */
const REFERENCE_RUNS = 15;

/** What the reference run of every check taught: the variations each check's requests reached, and the clauses that passed. */
interface Learned {
  reach: Record<string, VariationName[]>;
  passed: string[];
  /** The judgments it passed and how often (the guard of the variations run together). */
  passCounts: PassCounts;
  /** The clauses it recorded as unspecified. */
  recorded: string[];
}

/**
 * Clauses a check only records: the spec does not describe the form it sends, so the correct server's
 * answer is `unspecified`, never a pass. Each must be recorded by the reference run instead.
 */
const RECORDED_ONLY: Readonly<Record<string, string>> = {
  'rest:4.3': 'a parameter given twice is a form the table does not describe (query-repeated-limit)',
};

/**
 * The unvaried reference server run against every check, once per vitest run (the first share to ask
 * runs it, the others wait for it: test/helpers/once-per-run.ts), noting which variations each check's
 * requests reach. It runs REFERENCE_RUNS cases; fast-check's runs are a prefix-stable sequence, so its
 * cases include the RUNS cases a variation is run with, and the reach it learns includes theirs (a check
 * it lists that the shorter run would not reach costs time, never a missed variation). It is also share
 * 1's first test: a run of the reference server passes, or no reach learned from it counts.
 */
async function referenceRun(all: readonly string[]): Promise<Learned> {
  return oncePerRun(inject('oracleScratch'), `reference-run-${SEED}-${REFERENCE_RUNS}`, async () => {
    const byCheck = new Map<string, Set<VariationName>>();
    const records = await runAgainst({ checks: all, runs: REFERENCE_RUNS, seed: SEED, variationReach: byCheck });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records)).toEqual([]);
    return {
      reach: Object.fromEntries([...byCheck].map(([c, vs]) => [c, [...vs]])),
      passed: [...new Set(records.filter((r) => r.verdict === 'pass').map((r) => r.clause))],
      passCounts: passCounts(records),
      recorded: [...new Set(records.filter((r) => r.verdict === 'unspecified').map((r) => r.clause))],
    };
  });
}

const TOGETHER = Symbol('run together');

/** The variations of share `part` (1-based) of `parts`; share 1 also runs the reference server. */
export function describeVariations(part: number, parts: number): void {
  // Independent servers per case, mostly idle waiting: run concurrently (see fault-cases.ts).
  describe.concurrent(`correct behaviour passes (share ${part} of ${parts})`, () => {
    // The variations are the API server's; node-agent loader and controller daemon checks have their own
    // oracle files (nodeagent-faults, daemon-faults) with their own reference targets.
    const all = checks.filter((c) => c.suite.startsWith('rest-')).map((c) => c.id);
    // Learned before the file's cases start, so their time limits count only their own runs; once per
    // vitest run, and only from a reference run that passed.
    const byCheck = new Map<string, ReadonlySet<VariationName>>();
    let referencePassed: readonly string[] = [];
    let referenceCounts: PassCounts = {};
    let referenceRecorded: readonly string[] = [];
    beforeAll(async () => {
      const learned = await referenceRun(all);
      for (const [check, reached] of Object.entries(learned.reach)) byCheck.set(check, new Set(reached));
      referencePassed = learned.passed;
      referenceCounts = learned.passCounts;
      referenceRecorded = learned.recorded;
    }, 600_000);
    /** The checks whose requests reach `variation`, after the catalogue's word on variations no check reaches. */
    const reachingChecks = (variation: VariationName): string[] => {
      const reaching = all.filter((c) => byCheck.get(c)?.has(variation));
      const why = REACHED_BY_NONE[variation];
      expect(reaching.length > 0 || why !== undefined, `no check's requests reach ${variation}: its run would show nothing`).toBe(true);
      expect(
        why === undefined || reaching.length === 0,
        `${variation} is listed as reached by none, but ${reaching.join(', ')} reach it`,
      ).toBe(true);
      return reaching;
    };

    if (part === 1) {
      it('the reference server passes every check, and every check exercises its clauses', async () => {
        // The run of every check at REFERENCE_RUNS was made before the cases (no errors, no failures); here
        // the runs that need other server options.
        const records: CheckRecord[] = [];
        // Some clauses are reachable only with other server options (rest:7.3 needs release 1.21, the last
        // where a webhook can declare side effects): where a fault's catching run needs them, the correct
        // server passes there too.
        for (const f of faults as readonly Fault[]) {
          if (f.target !== undefined)
            records.push(...(await runAgainst({ checks: f.checks.filter((c) => all.includes(c)), runs: 15, seed: SEED, ...f.target })));
        }
        expect(errorsOf(records)).toEqual([]);
        expect(failuresOf(records)).toEqual([]);
        const passed = new Set([...referencePassed, ...records.filter((r) => r.verdict === 'pass').map((r) => r.clause)]);
        const neverPassed = checks
          .filter((c) => all.includes(c.id))
          .flatMap((c) =>
            c.clauses.filter((clause) => !passed.has(clause) && RECORDED_ONLY[clause] === undefined).map((clause) => `${c.id}: ${clause}`),
          );
        expect(neverPassed).toEqual([]);
        expect(Object.keys(RECORDED_ONLY).filter((clause) => !referenceRecorded.includes(clause) || passed.has(clause))).toEqual([]);
      }, 600_000);
    }

    // Ten minutes per variation: the cases run concurrently, so each one's clock also counts the others'
    // CPU, and the deletion-lingers run waits out its lingering deletions (300 s was hit on two busy cores).
    // The group counts as one case of the shares (its run costs about one variation's).
    const cases: (VariationName | typeof TOGETHER)[] = [
      ...variations.map((v) => v.name).filter((v) => !RUN_TOGETHER.includes(v)),
      TOGETHER,
    ];
    const mine = shareOf(cases, part, parts);
    if (mine.includes(TOGETHER)) {
      it(`legal variations ${RUN_TOGETHER.join(', ')} are not flagged, run together, and narrow no judgment`, async () => {
        const reachedBy = new Map(RUN_TOGETHER.map((v) => [v, reachingChecks(v)] as const));
        const reaching = all.filter((c) => [...reachedBy.values()].some((checks) => checks.includes(c)));
        const records = await runAgainst({ checks: reaching, variations: RUN_TOGETHER, runs: REFERENCE_RUNS, seed: SEED });
        const flagged = [...errorsOf(records), ...failuresOf(records)];
        if (flagged.length > 0) {
          // Which of them a check flags alone (none: the combination itself is flagged).
          const alone: string[] = [];
          for (const v of RUN_TOGETHER) {
            const own = await runAgainst({ checks: reachedBy.get(v)!, variations: [v], runs: RUNS, seed: SEED });
            if ([...errorsOf(own), ...failuresOf(own)].length > 0) alone.push(v);
          }
          expect(
            flagged.map((f) => `${f.clause}: ${f.counterexample?.observed ?? f.note}`),
            `flagged together; alone: ${alone.length > 0 ? alone.join(', ') : 'none of them (the combination is)'}`,
          ).toEqual([]);
        }
        expect(
          narrowedJudgments(referenceCounts, passCounts(records), reaching),
          'a variation here leaves judgments unmade: run it alone',
        ).toEqual([]);
      }, 600_000);
    }

    it.each(mine.filter((c): c is VariationName => c !== TOGETHER).map((v) => [v]))(
      'legal variation %s is not flagged',
      async (name) => {
        const variation = name as VariationName;
        const reaching = reachingChecks(variation);
        if (reaching.length === 0) return;
        // Latency only slows the run down; the others get enough cases to reach their odd corners.
        // A variation that mostly waits is run as several servers at once, each with a share of the checks
        // (the same checks and cases: a check's cases come from the seed alone, as its replay line shows,
        // not from the checks that ran before it).
        const parts = WAITING_PARTS[variation] ?? 1;
        const runs = await Promise.all(
          Array.from({ length: parts }, (_, i) =>
            runAgainst({
              checks: shareOf(reaching, i + 1, parts),
              variations: [variation],
              runs: variation === 'latency' ? 4 : RUNS,
              seed: SEED,
            }),
          ),
        );
        const records = runs.flat();
        expect(errorsOf(records)).toEqual([]);
        expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
      },
      600_000,
    );
  });
}
