// A planted fault for each node-agent default that a clause besides the field's own states
// (targets/nodeagent-loader/default-faults.ts): a loader printing another default for one field left out
// is caught under every clause stating that default, the field's own (2.2, 2.3, 2.4) and the rows of 8
// and 5 that repeat it, which used to pass whatever the loader printed for them.
import { describe, expect, it } from 'vitest';
import { nodeagentFaultChecks, runNodeagentChecks } from '../../scripts/dev/nodeagent-in-process.ts';
import { nodeagentDefaultFaults } from '../../targets/nodeagent-loader/default-faults.ts';
import { nodeagentFault, type NodeagentFaultName } from '../../targets/nodeagent-loader/faults.ts';
import { clauseById } from '../../reference/catalog/index.ts';

const SEED = 20261123;
const RUNS = 25;

describe('per-default node-agent faults', () => {
  it('name catalogued clauses, and the loader finds each by name', () => {
    expect(nodeagentDefaultFaults.length).toBeGreaterThan(30);
    for (const f of nodeagentDefaultFaults) {
      expect(f.clauses.map((c) => clauseById(c)?.id)).toEqual(f.clauses);
      expect(nodeagentFault(f.name)).toBe(f);
    }
  });

  describe.concurrent('each is caught under every clause stating the default', () => {
    it.each(nodeagentDefaultFaults.map((f) => [f.name, f] as const))(
      '%s',
      async (_name, fault) => {
        const records = await runNodeagentChecks({
          checks: nodeagentFaultChecks(fault),
          runs: RUNS,
          seed: SEED,
          faults: [fault.name as NodeagentFaultName],
        });
        expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
        const failed = new Set(records.filter((r) => r.verdict === 'fail').map((r) => r.clause));
        expect(
          fault.clauses.filter((c) => !failed.has(c)),
          `reported ${[...failed].join(', ')}`,
        ).toEqual([]);
      },
      120_000,
    );
  });
});
