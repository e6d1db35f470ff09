// Why: a server being built serves part of the API. Against the embedded server
// with whole features left out (`--without`, targets/api-server/partial-modes.ts), alone and all at
// once, a run must name exactly those features "not served", once each under the clause that speaks
// of them, block only clauses whose every judging check needs one of them, and judge the rest as the
// full server's run of the same seed does. The full run is the good target, each mode a broken one: the
// same assertions that pass on the modes fail on the full server (nothing is not served there).
// In-process runs of the suites the modes touch, few cases per check.
import { beforeAll, describe, expect, it } from 'vitest';
import { runWithMap } from '../../scripts/dev/in-process-run.ts';
import { checks } from '../../suites/checks/index.ts';
import { failsWhenNotServed, featureById } from '../../reference/features.ts';
import { partialModes, type PartialModeName } from '../../targets/api-server/partial-modes.ts';
import { clauseStatusOf, type Verdict } from '../../runner/verdicts.ts';
import { PROBE_CHECK } from '../../runner/capability-gate.ts';
import type { CapabilityEntry, CheckRecord } from '../../runner/results.ts';

const SUITES = ['rest-crud', 'rest-paging', 'rest-apply', 'rest-dry-run', 'rest-watch', 'rest-health', 'rest-events'];
const SELECTED = checks.filter((c) => SUITES.includes(c.suite)).map((c) => c.id);
const SEED = 11;
const RUNS = 3;
const JUDGED = new Set<Verdict>(['pass', 'fail', 'unspecified', 'inconclusive']);
/** With every mode on, of the clauses the full run judged that need no removed feature (the bar the partial-target work set itself). */
const MIN_JUDGED_FRACTION = 0.8;

type Run = { records: CheckRecord[]; capabilities: readonly CapabilityEntry[] };
const runOf = (without: readonly PartialModeName[]): Promise<Run> => runWithMap({ checks: SELECTED, runs: RUNS, seed: SEED, without });

/** Clause -> the checks whose records judged it. */
function judgedBy(records: readonly CheckRecord[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of records) if (JUDGED.has(r.verdict)) out.set(r.clause, (out.get(r.clause) ?? new Set()).add(r.check));
  return out;
}
const statusOf = (records: readonly CheckRecord[], clause: string) =>
  clauseStatusOf(
    records.filter((r) => r.clause === clause).map((r) => r.verdict),
    false,
  );

let full: Run;
beforeAll(async () => {
  full = await runOf([]);
}, 300_000);

/** What a partial run must show against the full run; returns the fraction judged of what needs no removed feature. */
function judgeMode(mode: Run, removed: readonly PartialModeName[]): number {
  const features = removed.map((m) => partialModes.find((p) => p.name === m)!.feature);
  const titles = features.map((f) => featureById(f).title);
  expect(
    mode.capabilities
      .filter((c) => c.state !== 'served')
      .map((c) => [c.feature, c.state])
      .sort(),
    'exactly the removed features are not served',
  ).toEqual(features.map((f) => [f, 'notServed']).sort());
  // One finding per removed feature, under its clause: failed where the spec requires it, notServed where it may be left out.
  const findings = mode.records.filter((r) => r.check === PROBE_CHECK);
  expect(findings.map((r) => [r.clause, r.verdict]).sort()).toEqual(
    features.map((f) => [featureById(f).clause, failsWhenNotServed(featureById(f)) ? 'fail' : 'notServed']).sort(),
  );
  // Nothing else fails: a check that stumbles on the missing feature but is not blocked by it is a gap of suites/checks/feature-needs.ts.
  expect(
    mode.records
      .filter((r) => (r.verdict === 'fail' || r.verdict === 'error') && r.check !== PROBE_CHECK)
      .map((r) => `${r.check} ${r.clause}: ${r.counterexample?.observed ?? r.note ?? ''}`.slice(0, 300)),
    'no check that still ran fails or errs',
  ).toEqual([]);
  // Blocked only by a removed feature.
  for (const r of mode.records.filter((x) => x.verdict === 'blocked'))
    expect(
      titles.some((t) => r.note?.startsWith(`blocked by ${t}`)),
      `${r.check} ${r.clause}: ${r.note}`,
    ).toBe(true);
  const blocked = new Set(mode.capabilities.flatMap((c) => c.blocks));
  const own = new Set<string>(features.map((f) => featureById(f).clause));
  // A clause needs a removed feature when every check that judged it on the full server is blocked now.
  const independent = [...judgedBy(full.records)]
    .filter(([clause, by]) => !own.has(clause) && [...by].some((c) => !blocked.has(c)))
    .map(([clause]) => clause);
  const changed = independent.filter((clause) => statusOf(mode.records, clause) !== statusOf(full.records, clause));
  expect(
    changed.map((c) => `${c}: ${statusOf(full.records, c)} -> ${statusOf(mode.records, c)}`),
    'clauses that need no removed feature keep their status',
  ).toEqual([]);
  const judgedNow = judgedBy(mode.records);
  return independent.length === 0 ? 1 : independent.filter((c) => judgedNow.has(c)).length / independent.length;
}

describe('a partial reference server', () => {
  it('the full server: every feature served, nothing blocked, no finding (and so no mode assertion holds there)', () => {
    expect(full.capabilities.filter((c) => c.state !== 'served')).toEqual([]);
    expect(full.records.filter((r) => r.verdict === 'blocked' || r.check === PROBE_CHECK)).toEqual([]);
    expect(() => judgeMode(full, ['put'])).toThrow();
  });

  it.each(partialModes.map((m) => [m.name] as const))(
    'without %s: named once, blocks only what needs it, the rest judged as on the full server',
    async (name) => {
      judgeMode(await runOf([name]), [name]);
    },
    300_000,
  );

  it('all modes at once: each named once, and at least 80% of what needs none of them still judged', async () => {
    const all = partialModes.map((m) => m.name);
    expect(judgeMode(await runOf(all), all)).toBeGreaterThanOrEqual(MIN_JUDGED_FRACTION);
  }, 300_000);
});
