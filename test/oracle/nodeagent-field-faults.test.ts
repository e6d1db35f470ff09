// A planted fault for each node-agent field (targets/nodeagent-loader/field-faults.ts): the reference
// loader that stops checking one field's type, or one field's own rule, is caught under that field's
// clause. The faults of faults.ts keep their own file (nodeagent-faults.test.ts).
import { describe, expect, it } from 'vitest';
import { nodeagentFaultChecks, runNodeagentChecks } from '../../scripts/dev/nodeagent-in-process.ts';
import { nodeagentFieldFaults } from '../../targets/nodeagent-loader/field-faults.ts';
import { nodeagentFault, type NodeagentFaultName } from '../../targets/nodeagent-loader/faults.ts';
import { checkById } from '../../suites/checks/index.ts';
import { clauseById } from '../../reference/catalog/index.ts';

const SEED = 20261123;
const RUNS = 25;

describe('per-field node-agent faults', () => {
  it('name catalogued clauses and checks that exist, and the loader finds each by name', () => {
    expect(nodeagentFieldFaults.length).toBeGreaterThan(100);
    for (const f of nodeagentFieldFaults) {
      expect(f.clauses.map((c) => clauseById(c)?.id)).toEqual(f.clauses);
      expect(
        nodeagentFaultChecks(f).filter((c) => !checkById(c)),
        f.name,
      ).toEqual([]);
      expect(nodeagentFault(f.name)).toBe(f);
    }
  });

  describe.concurrent('each is caught under its field', () => {
    it.each(nodeagentFieldFaults.map((f) => [f.name, f] as const))(
      '%s',
      async (_name, fault) => {
        const records = await runNodeagentChecks({
          checks: nodeagentFaultChecks(fault),
          runs: RUNS,
          seed: SEED,
          faults: [fault.name as NodeagentFaultName],
        });
        expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
        const fails = records.filter((r) => r.verdict === 'fail');
        expect(
          fails.some((f) => fault.clauses.includes(f.clause)),
          `reported ${fails.map((f) => f.clause).join(', ')}`,
        ).toBe(true);
      },
      120_000,
    );
  });
});
