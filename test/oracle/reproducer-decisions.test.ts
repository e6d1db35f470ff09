// Why: a reproducer is a regression test a target's developers keep, so it must decide and decide
// right: exit 1 against the server with the planted fault, 0 against a clean one, and never 1 against
// a clean one. A representative subset of the measurement `npm run reproducers:decide` makes for every
// planted fault (docs/reproducer-decisions.md): a read of a generated name (learned from the script's
// own dry-run answer), paging whose later pages the fault changes (the remainingItemCount need is a
// relation between this run's pages; a continuation the clean server ends sooner is another path),
// a concurrent workload whose rule rests on the history (undecided, never wrong), and two watches whose
// failure needs a timing the script must recreate: a resumed watch from a version the history still
// holds (watch-exact-inclusive; a script that took 1 s per stream let a 1.5 s history drop it and said
// "gone" against the fault) and a watch from a version the case compacted away
// (watch-too-old-served-from-oldest; the script watched before the version left the history).
import { describe, expect, it } from 'vitest';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { measureFault } from '../../scripts/dev/reproducer-outcomes.ts';
import { hasCurl } from './harness/curl.ts';

const SEED = 20261122;
const fault = (name: string) => faults.find((f) => f.name === name) as Fault;

describe.skipIf(!hasCurl)('reproducers decide right (skipped: no curl binary)', () => {
  it.concurrent(
    'dry-run-persists: the read of the generated name is learned, and decides',
    async () => {
      const m = await measureFault(fault('dry-run-persists'), { runs: 25, seed: SEED });
      expect(m.found, 'the planted fault is caught').toBe(true);
      expect(m.rows.map((r) => [r.clause, r.faulty, r.clean])).toContainEqual(['rest:4.6.2', 1, 0]);
      expect(m.rows.filter((r) => r.outcome === 'wrong')).toEqual([]);
      for (const r of m.rows) if (r.nodeTest) expect(r.nodeTest.agrees, `${r.clause}: the node test agrees with its script`).toBe(true);
    },
    600_000,
  );

  it.concurrent(
    'continuation-sees-new-writes: the page-snapshot reproducers decide, and none says the clean server fails',
    async () => {
      const m = await measureFault(fault('continuation-sees-new-writes'), { runs: 25, seed: SEED });
      expect(m.found).toBe(true);
      expect(m.rows.some((r) => r.clause === 'rest:4.4.3' && r.outcome === 'right')).toBe(true);
      expect(m.rows.filter((r) => r.clean === 1)).toEqual([]);
      expect(m.rows.filter((r) => r.faulty === 0)).toEqual([]);
    },
    600_000,
  );

  it.concurrent(
    'list-watch-disagree: a history rule the script cannot judge is undecided against both, never 1 against the clean server',
    async () => {
      const m = await measureFault(fault('list-watch-disagree'), { runs: 25, seed: SEED });
      expect(m.found).toBe(true);
      expect(m.rows.filter((r) => r.clean === 1 || r.faulty === 0)).toEqual([]);
    },
    600_000,
  );

  it.concurrent(
    'watch-exact-inclusive: the resumed watch starts while the history holds its version, decides, and the node test agrees',
    async () => {
      const m = await measureFault(fault('watch-exact-inclusive'), { runs: 25, seed: SEED });
      expect(m.found).toBe(true);
      const resumed = m.rows.filter((r) => r.clause === 'rest:6.1.1');
      expect(resumed.length, 'a rest:6.1.1 reproducer is written').toBeGreaterThan(0);
      // Against the fault: the failure shown (1) or, when this run was too slow to rule on it, undecided (3); never "gone".
      for (const r of resumed) expect([1, 3], `${r.clause} against the fault: ${r.tail.faulty}`).toContain(r.faulty);
      expect(m.rows.filter((r) => r.clean === 1 || r.faulty === 0)).toEqual([]);
      for (const r of m.rows) if (r.nodeTest) expect(r.nodeTest.agrees, `${r.clause}: the node test agrees with its script`).toBe(true);
    },
    600_000,
  );

  it.concurrent(
    'watch-too-old-served-from-oldest: the watch waits for its version to leave the history, shows the gap against the fault, and a 410 from the clean server is never a failure',
    async () => {
      const m = await measureFault(fault('watch-too-old-served-from-oldest'), { runs: 25, seed: SEED });
      expect(m.found).toBe(true);
      expect(m.rows.map((r) => [r.clause, r.faulty])).toContainEqual(['rest:6.1.1', 1]);
      expect(m.rows.filter((r) => r.clean === 1 || r.faulty === 0)).toEqual([]);
      for (const r of m.rows) if (r.nodeTest) expect(r.nodeTest.agrees, `${r.clause}: the node test agrees with its script`).toBe(true);
    },
    600_000,
  );
});
