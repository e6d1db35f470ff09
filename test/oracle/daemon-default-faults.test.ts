// A planted fault for each controller-daemon option with a default (targets/controller-daemon/default-faults.ts):
// the reference daemon printing and using another default for one option is caught under that option's
// clause. The faults of faults.ts keep their own file (daemon-faults.test.ts).
import { describe, expect, it } from 'vitest';
import { daemonDefaultFaults } from '../../targets/controller-daemon/default-faults.ts';
import { daemonFaultByName } from '../../targets/controller-daemon/faults.ts';
import { daemonCheckFor, runDaemonChecks } from '../../scripts/dev/daemon-in-process.ts';
import { clauseById } from '../../reference/catalog/index.ts';

describe('per-option controller-daemon default faults', () => {
  it('name catalogued clauses, and the daemon finds each by name', () => {
    expect(daemonDefaultFaults.length).toBeGreaterThan(60);
    for (const f of daemonDefaultFaults) {
      expect(clauseById(f.clause)?.id, f.name).toBe(f.clause);
      expect(daemonFaultByName(f.name)).toBe(f);
    }
  });

  describe.concurrent('each is caught under its option', () => {
    it.each(daemonDefaultFaults.map((f) => [f.name, f] as const))(
      '%s',
      async (_name, fault) => {
        const records = await runDaemonChecks({ checks: [daemonCheckFor(fault)], faults: [fault.name], runs: 3, seed: 13 });
        expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
        const fails = records.filter((r) => r.verdict === 'fail');
        expect(
          fails.some((f) => f.clause === fault.clause),
          `reported ${fails.map((f) => f.clause).join(', ')}`,
        ).toBe(true);
      },
      60_000,
    );
  });
});
