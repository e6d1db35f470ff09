// The nodeagent-field-types check (suites/checks/nodeagent.ts) against the reference loader, in-process:
// on every seed it judges every field's type rule (so no clause's verdict hangs on the draw), and a
// loader that takes any value in the fields 2.5 shows no values for (the planted fault
// unshown-fields-any-type) is caught on every seed, shrunk to the one file it got wrong, replayable.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runNodeagentChecks } from '../../../scripts/dev/nodeagent-in-process.ts';
import { nodeagentFault } from '../../../targets/nodeagent-loader/faults.ts';
import { wrongTypeCases } from '../../../generators/nodeagent-field-types.ts';
import { validateNodeagentConfig } from '../../../reference/nodeagent/config.ts';
import { profiles } from '../../../reference/profile.ts';
import type { CheckRecord } from '../../../runner/results.ts';

const CHECK = 'nodeagent-field-types';
const SEEDS = [1, 7, 4242] as const;
/** The default budget caps this check at its one case; a larger --runs changes nothing. */
const RUNS = 25;

const verdicts = (records: readonly CheckRecord[]) =>
  Object.fromEntries([...records].sort((a, b) => (a.clause < b.clause ? -1 : 1)).map((r) => [r.clause, `${r.verdict} ${r.count}`]));

describe('against the intact reference loader', () => {
  it.each(['svc', 'k8s'] as const)('every field clause passes, with the same records on every seed (%s)', async (profile) => {
    const runs = await Promise.all(SEEDS.map((seed) => runNodeagentChecks({ checks: [CHECK], runs: RUNS, seed, profile })));
    for (const records of runs) expect(records.filter((r) => r.verdict !== 'pass')).toEqual([]);
    const passed = new Set(runs[0]!.map((r) => r.clause));
    expect([...new Set(wrongTypeCases(profiles[profile]).map((c) => c.violation!.clause))].filter((c) => !passed.has(c))).toEqual([]);
    expect(passed.has('node:2.2/hairpinMode')).toBe(true);
    expect(verdicts(runs[1]!)).toEqual(verdicts(runs[0]!));
    expect(verdicts(runs[2]!)).toEqual(verdicts(runs[0]!));
  });
});

describe('the planted fault unshown-fields-any-type', () => {
  const fault = nodeagentFault('unshown-fields-any-type')!;

  it.each(SEEDS)('is caught on seed %i, shrunk to the single file the loader accepted', async (seed) => {
    const records = await runNodeagentChecks({ checks: [CHECK], runs: RUNS, seed, faults: ['unshown-fields-any-type'] });
    expect(records.filter((r) => r.verdict === 'error')).toEqual([]);
    const fails = records.filter((r) => r.verdict === 'fail');
    expect(fails.length).toBe(1);
    const c = fails[0]!.counterexample!;
    expect(fault.clauses).toContain(c.clause);
    expect(c.observed).toMatch(/^accepted/);
    // The steps are the file: a comment, the document header, the one required field and the offending value.
    const doc = parse(c.steps.join('\n'), { version: '1.1' }) as Record<string, unknown>;
    expect(Object.keys(doc).sort()).toEqual(['apiVersion', 'kind', 'reservedSystemCPUs', 'hairpinMode'].sort());
    expect(validateNodeagentConfig(doc, profiles.svc).errors.map((e) => e.clause)).toEqual([c.clause]);
    expect(c.replay).toBe(
      `npx svc-conformance run --nodeagent-fault unshown-fields-any-type --check ${CHECK} --seed ${seed} --path ${c.path}`,
    );
    expect(c.curl).toContain('hairpinMode: 5');
  });

  it('replays from its seed and path to the same file', async () => {
    const first = (await runNodeagentChecks({ checks: [CHECK], runs: RUNS, seed: 99, faults: ['unshown-fields-any-type'] })).find(
      (r) => r.verdict === 'fail',
    )!.counterexample!;
    const again = (
      await runNodeagentChecks({ checks: [CHECK], runs: RUNS, seed: first.seed, path: first.path!, faults: ['unshown-fields-any-type'] })
    ).find((r) => r.verdict === 'fail')!.counterexample!;
    expect(again.steps).toEqual(first.steps);
  });
});
