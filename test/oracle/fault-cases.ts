// The oracle must bite (issue: "Done means"): every planted fault of the reference server is reported
// as a failure of the clause it breaks, with a short shrunk counterexample; the correct server and
// every legal variation pass. A suite that only ever passes proves nothing.
//
// The faults are spread over several test files (faults-N-of-M.test.ts, each a call of `describeFaults`):
// vitest spreads files, not cases, over its workers, and in one file they kept one core busy.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/dev/in-process-run.ts';
import { faultRun } from './fault-runs.ts';
import { faults, type Fault, type FaultName } from '../../targets/api-server/faults.ts';
import { clauseFaults } from '../../targets/api-server/clause-faults.ts';
import { checkById } from '../../suites/checks/index.ts';
import { shareOf } from '../helpers/shares.ts';

const SEED = 20261122;
const MAX_SHRUNK_REQUESTS = 30;

/** The faults of faults.ts but those of clause-faults.ts (clause-faults.test.ts runs those). */
const tableFaults: readonly Fault[] = faults.filter((f) => !clauseFaults.some((c) => c.name === f.name));

/** Faults of the table that once failed only a neighbour of their clause and now must fail it. */
const tableOwnClause: ReadonlySet<string> = new Set(['stale-not-older-than']);

/**
 * Faults whose case needs the server's windows longer than any case: with the short ones a loaded
 * machine sent the continuation or the Exact read after the window had ended, got a legal 410, and the
 * fault went unseen (page-rv-drift's rest:4.4.3 unjudged; compaction-ignored's old version gone by
 * itself, as if compacted).
 */
const needsLongWindows: ReadonlySet<string> = new Set(['page-rv-drift', 'compaction-ignored']);

/**
 * The faults of share `part` (1-based) of `parts` of `list`; share 1 of the table's own faults also
 * checks the replay of a counterexample. The faults named in `ownClause` must be reported under their
 * own clause.
 */
export function describeFaults(
  part: number,
  parts: number,
  list: readonly Fault[] = tableFaults,
  ownClause: ReadonlySet<string> = list === tableFaults ? tableOwnClause : new Set(),
): void {
  // Each case starts its own server and mostly waits on the target's timers (watch windows, token
  // expiry), so they run concurrently: wall time, not CPU, is what they cost.
  describe.concurrent(`planted faults are caught by the right clause (share ${part} of ${parts})`, () => {
    it.each(shareOf(list, part, parts).map((f) => [f.name, f] as const))(
      '%s',
      async (_name, fault) => {
        const clauses: readonly string[] = [fault.clause, ...fault.alsoReportedAs];
        // A fault may need server options besides itself (a release where the bug can show: Fault.target).
        // A run of one shrinking check is shared with the other files that make it (fault-runs.ts); a
        // concurrent workload's records hold its whole history (beyond a string's length as JSON).
        const shared = fault.checks.length === 1 && checkById(fault.checks[0]!)?.shrink !== false;
        // The checks' own judgement is what a planted fault tests here: a feature the capability probe
        // finds not served would block the check and be reported by the probe, whose findings
        // test/oracle/harness/capability-probe.test.ts holds.
        const records = await (shared ? faultRun : runAgainst)({
          checks: fault.checks,
          faults: [fault.name as FaultName],
          runs: 40,
          seed: SEED,
          capabilityProbe: false,
          ...(fault.target ?? {}),
          ...(needsLongWindows.has(fault.name) ? { longWindows: true as const } : {}),
        });
        expect(errorsOf(records)).toEqual([]);
        const fails = failuresOf(records);
        expect(fails.map((f) => f.clause)).not.toEqual([]);
        expect(
          fails.some((f) => clauses.includes(f.clause)),
          `reported ${fails.map((f) => f.clause).join(', ')}`,
        ).toBe(true);
        // A fault planted for one clause: reported under that very clause, not only a neighbour.
        if (ownClause.has(fault.name)) expect(fails.map((f) => f.clause)).toContain(fault.clause);
        for (const f of fails) {
          const c = f.counterexample!;
          expect(c.requestCount).toBeGreaterThan(0);
          // A concurrent workload is not shrunk (re-running it judges another history): its whole
          // recorded history is the reproduction, so only shrinking checks are held to the bound.
          if (checkById(f.check)?.shrink !== false) expect(c.requestCount).toBeLessThanOrEqual(MAX_SHRUNK_REQUESTS);
          expect(c.curl).toContain('curl');
          expect(c.replay).toContain(`--seed ${c.seed}`);
          expect(c.steps.length).toBeGreaterThan(0);
        }
      },
      300_000,
    );
  });

  if (part === 1 && list === tableFaults)
    describe('replay', () => {
      it('a counterexample replays from its seed and path alone, to the same clause', async () => {
        // The page-overflow case's own run (the same options): the replay is what is tested here.
        const first = failuresOf(await faultRun({ checks: ['paging-snapshot'], faults: ['page-overflow'], runs: 40, seed: SEED }))[0]!;
        const c = first.counterexample!;
        expect(c.path).toBeDefined();
        const again = failuresOf(
          await runAgainst({ checks: ['paging-snapshot'], faults: ['page-overflow'], runs: 40, seed: c.seed, path: c.path! }),
        );
        expect(again.map((f) => f.clause)).toContain(first.clause);
        expect(again[0]!.counterexample!.steps).toEqual(c.steps);
      }, 60_000);
    });
}
