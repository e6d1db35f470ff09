// Why: a reproducer is a regression test a target's developers keep, so it must decide and decide
// right: exit 1 against the server with the planted fault, 0 against a clean one, and never 1 against
// a clean one. A representative subset of the measurement `npm run reproducers:decide` makes for every
// planted fault (docs/reproducer-decisions.md): a read of a generated name (learned from the script's
// own dry-run answer), paging whose later pages the fault changes (the remainingItemCount need is a
// relation between this run's pages; a continuation the clean server ends sooner is another path),
// and a concurrent workload whose rule rests on the history (undecided, never wrong).
import { describe, expect, it } from 'vitest';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { measureFault } from '../../scripts/dev/reproducer-outcomes.ts';
import { hasCurl } from '../harness/curl.ts';

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
});
