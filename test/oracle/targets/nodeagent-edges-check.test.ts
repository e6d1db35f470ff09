// The nodeagent-edges-* checks (suites/checks/nodeagent.ts) against the reference loader, in-process: on
// every seed they judge every file on either side of each range, cross-field, boundary and matchImages
// rule, with the same records; a loader that breaks one of those rules the way upstream's kubelet does
// (equal iptables bits accepted, a glob in a matchImages path accepted, a 300ms shutdownGracePeriod
// refused) is caught on every seed, shrunk to the one file it got wrong, replayable.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runNodeagentChecks } from '../../../scripts/dev/nodeagent-in-process.ts';
import { nodeagentFault, nodeagentFaults } from '../../../targets/nodeagent-loader/faults.ts';
import { nodeagentChecks, nodeagentEdgeCheckId, nodeagentEdgeChecks } from '../../../suites/checks/nodeagent.ts';
import { edgeClauses } from '../../../generators/nodeagent-edges.ts';
import { validateNodeagentConfig } from '../../../reference/nodeagent/config.ts';
import { validateCredentialProviderConfig } from '../../../reference/nodeagent/credential-provider.ts';
import { profiles } from '../../../reference/profile.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const SEEDS = [1, 7, 4242] as const;
/** The default budget: each check is capped at its one case. */
const RUNS = 25;
const ALL = nodeagentEdgeChecks.map((c) => c.id);

const verdicts = (records: readonly CheckRecord[]) => [...records].map((r) => `${r.check} ${r.clause} ${r.verdict} ${r.count}`).sort();

describe('against the intact reference loader', () => {
  it.each(['svc', 'k8s'] as const)('every edge clause is reached, nothing fails, the same records on every seed (%s)', async (profile) => {
    const runs = await Promise.all(SEEDS.map((seed) => runNodeagentChecks({ checks: ALL, runs: RUNS, seed, profile })));
    for (const records of runs)
      expect(records.filter((r) => r.verdict === 'fail' || r.verdict === 'error' || r.verdict === 'notChecked')).toEqual([]);
    const reached = new Set(runs[0]!.filter((r) => r.verdict === 'pass' || r.verdict === 'unspecified').map((r) => r.clause));
    expect(edgeClauses().filter((c) => !reached.has(c))).toEqual([]);
    expect(verdicts(runs[1]!)).toEqual(verdicts(runs[0]!));
    expect(verdicts(runs[2]!)).toEqual(verdicts(runs[0]!));
  });
});

describe('check ids', () => {
  it('one per clause, unique, and every check a loader fault names exists', () => {
    expect(new Set(ALL).size).toBe(edgeClauses().length);
    expect(ALL).toEqual(edgeClauses().map(nodeagentEdgeCheckId));
    const ids = new Set(nodeagentChecks.map((c) => c.id));
    for (const f of nodeagentFaults) for (const c of f.checks) expect(ids.has(c), `${f.name}: ${c}`).toBe(true);
  });
});

describe.each([
  ['iptables-bits-shared', 'node:2.2/iptablesMasqueradeBit', /^accepted/],
  ['path-globs-allowed', 'node:2.1/matchImages', /^accepted/],
  ['sub-second-shutdown-refused', 'node:2.2/shutdownGracePeriod', /^rejected/],
] as const)('the planted fault %s', (fault, clause, observed) => {
  it.each(SEEDS)('is caught on seed %i under its clause, shrunk to the single file the loader got wrong', async (seed) => {
    const check = nodeagentEdgeCheckId(clause);
    expect(nodeagentFault(fault)!.checks).toContain(check);
    const records = await runNodeagentChecks({ checks: ALL, runs: RUNS, seed, faults: [fault] });
    expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
    const fails = records.filter((r) => r.verdict === 'fail');
    expect(fails.map((r) => [r.check, r.clause])).toEqual([[check, clause]]);
    const c = fails[0]!.counterexample!;
    expect(c.observed).toMatch(observed);
    // The steps are the one file: a comment line, then the document; the model says what the loader got wrong.
    expect(c.steps.filter((l) => l.startsWith('# ')).length).toBe(1);
    const doc = parse(c.steps.join('\n'), { version: '1.1' }) as Record<string, unknown>;
    const model = clause.startsWith('node:2.1/')
      ? validateCredentialProviderConfig(doc, profiles.svc)
      : validateNodeagentConfig(doc, profiles.svc);
    if (observed.source === '^accepted') expect(model.errors.map((e) => e.clause)).toContain(clause);
    else expect(model.errors).toEqual([]);
    expect(c.replay).toBe(`npx svc-conformance run --nodeagent-fault ${fault} --check ${check} --seed ${seed} --path ${c.path}`);
    expect(c.curl).toContain('LOADER=');
  });

  it('replays from its seed and path to the same file', async () => {
    const check = nodeagentEdgeCheckId(clause);
    const first = (await runNodeagentChecks({ checks: [check], runs: RUNS, seed: 99, faults: [fault] })).find(
      (r) => r.verdict === 'fail',
    )!.counterexample!;
    const again = (await runNodeagentChecks({ checks: [check], runs: RUNS, seed: first.seed, path: first.path!, faults: [fault] })).find(
      (r) => r.verdict === 'fail',
    )!.counterexample!;
    expect(again.steps).toEqual(first.steps);
  });
});
