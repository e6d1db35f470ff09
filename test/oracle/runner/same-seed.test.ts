/**
 * The same seed gives the same summary before and after the runner took over from the command line:
 * test/fixtures/run-snapshots/ holds the clause statuses of two runs of the CLI taken
 * before the refactor (`run --suite rest-crud --suite rest-paging --suite rest-errors --suite
 * nodeagent-config --suite rest-recovery --runs 4 --seed 4242`, once clean and once with the faults
 * duplicate-create-overwrites and page-rv-drift). The same plan, executed in this process with the
 * runner's direct check stage instead of vitest, must give every clause the same status. The faulty
 * run shows the comparison can fail: its three failed clauses differ from the clean run's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planRun } from '../../../runner/plan.ts';
import { executeRun } from '../../../runner/executor.ts';
import { directStage } from '../../../runner/check-stage.ts';
import { buildRunResult } from '../../../reports/index.ts';
import { catalog } from '../../../reference/catalog/index.ts';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../../runner/run-stop.ts';

interface Snapshot {
  readonly seed: number;
  readonly verdict: string;
  readonly totals: Record<string, number>;
  readonly statuses: Record<string, string>;
}
/** A snapshot; the statuses added since (notServed, blocked: the capability map) count 0 there. */
const snapshot = (name: string): Snapshot => {
  const s = JSON.parse(readFileSync(new URL(`../../fixtures/run-snapshots/${name}.json`, import.meta.url), 'utf8')) as Snapshot;
  return { ...s, totals: { notServed: 0, blocked: 0, ...s.totals } };
};
const SUITES = ['rest-crud', 'rest-paging', 'rest-errors', 'nodeagent-config', 'rest-recovery'];
const FIXED_CHECKS = '^((paging|too-large)-edges-|single-resource-writes$)';
/**
 * Clauses whose reach depends on scheduling, not on the seed: rest-recovery's compaction hook compacts
 * the whole embedded store, so whether another check's Exact read of an older version is served
 * (rest:6.1.4 passed) or answered 410 (rest:7/410, which the snapshots hold from other cases too)
 * depends on which ran first. Such a clause may be reached or not; when reached it must pass.
 */
const SCHEDULE_REACHED: readonly string[] = [
  'rest:6.1.4',
  // Reached on every seed since too-large-resource-version reads a get and a list as fixed examples
  // (after the snapshots): with duplicate-create-overwrites the faulty snapshot's random cases had not.
  'rest:7/504',
];

/**
 * Clauses the same checks judge since the snapshots were taken, with the status they must have: section
 * 2's duration row (an accepted duration string, a duration written as a number refused), the two
 * defaults 2.5 does not show (the loader's value recorded) and a query parameter given twice. Taken out of the comparison like the
 * schedule-reached ones, but their status is asserted.
 */
const JUDGED_SINCE: Readonly<Record<string, string>> = {
  'node:2/durations': 'passed',
  'node:2.5/cgroupRoot': 'unspecified',
  'node:2.5/seccompDefault': 'unspecified',
  // What the server makes of a parameter given twice (query-repeated-limit), recorded.
  'rest:4.3': 'unspecified',
  // The values the server generates at persist time, judged once by generated-metadata (rest-crud).
  'rest:2.8': 'passed',
};

function withoutJudgedSince(s: Snapshot): Snapshot {
  const statuses = { ...s.statuses };
  const totals = { ...s.totals };
  for (const [id, want] of Object.entries(JUDGED_SINCE)) {
    expect(statuses[id], id).toBe(want);
    delete statuses[id];
    totals[want] = (totals[want] ?? 0) - 1;
    totals.notChecked = (totals.notChecked ?? 0) + 1;
  }
  return { ...s, statuses, totals };
}

/** The statuses and totals with the schedule-reached clauses taken out, and what they were. */
function withoutScheduleReached(s: Snapshot): { statuses: Record<string, string>; totals: Record<string, number>; scheduled: string[] } {
  const statuses = { ...s.statuses };
  const totals = { ...s.totals };
  const scheduled: string[] = [];
  for (const id of SCHEDULE_REACHED) {
    const st = statuses[id];
    if (st === undefined) continue;
    delete statuses[id];
    totals[st] = (totals[st] ?? 0) - 1;
    totals.notChecked = (totals.notChecked ?? 0) + 1;
    scheduled.push(st);
  }
  return { statuses, totals, scheduled };
}

async function statusesOf(fault: string[]): Promise<Snapshot> {
  const planned = planRun(
    // The fixed checks of these suites came after the snapshots (their cases are no seed's to compare).
    {
      profile: 'svc',
      seed: 4242,
      runs: 4,
      suite: SUITES,
      skip: [FIXED_CHECKS],
      fault,
      reports: '.',
      output: 'text',
      confirm: false,
      timeout: DEFAULT_RUN_TIMEOUT_MS,
    },
    { seed: 0, runId: 'samesd01', cwd: '/' },
  );
  if (planned.errors) throw new Error(planned.errors.join('; '));
  const { run } = await executeRun({ ...planned.plan, inProcess: { keepFailures: true } }, { log: () => undefined, stage: directStage() });
  const result = buildRunResult({
    records: [...run.records],
    catalog,
    profile: 'svc',
    seed: 4242,
    server: run.server,
    nodeagentLoader: run.nodeagentLoader,
    startedAt: '',
    durationMs: 0,
    version: '0',
    errors: [...run.errors],
  });
  // No expectations file here, so nothing is known; the snapshots predate the `known` total.
  const { known, ...totals } = result.totals;
  expect(known).toBe(0);
  return {
    seed: result.seed,
    verdict: result.verdict,
    totals,
    statuses: Object.fromEntries(result.clauses.filter((c) => c.status !== 'notChecked').map((c) => [c.id, c.status])),
  };
}

describe('same seed, same summary as the command line before the runner refactor', () => {
  it('a clean embedded target', async () => {
    const want = snapshot('clean');
    const raw = withoutJudgedSince(await statusesOf([]));
    const got = withoutScheduleReached(raw);
    const expected = withoutScheduleReached(want);
    expect(got.statuses).toEqual(expected.statuses);
    expect(got.totals).toEqual(expected.totals);
    expect(got.scheduled.every((st) => st === 'passed')).toBe(true);
    expect(raw.verdict).toBe(want.verdict);
  }, 180_000);

  it('an embedded target with two planted faults', async () => {
    const want = snapshot('faults');
    const raw = withoutJudgedSince(await statusesOf(['duplicate-create-overwrites', 'page-rv-drift']));
    const got = withoutScheduleReached(raw);
    const wanted = withoutScheduleReached(want).statuses;
    // Every status of the snapshot holds. Checks now go on past their first failure (docs/verdict-rules.md),
    // so the faulty run also judges clauses the snapshot left unreached: passes, or failures of what the
    // planted faults break (duplicate-create-overwrites: rest:2.2.2, page-rv-drift: rest:4.4.3).
    expect(Object.fromEntries(Object.keys(wanted).map((id) => [id, got.statuses[id]]))).toEqual(wanted);
    const beyond = Object.entries(got.statuses).filter(([id]) => !(id in wanted));
    for (const [id, st] of beyond)
      expect(st === 'passed' || (st === 'failed' && ['rest:2.2.2', 'rest:4.4.3'].includes(id)), `${id} ${st}`).toBe(true);
    expect(raw.verdict).toBe('nonconformant');
    // The comparison has teeth: the faults change statuses the clean snapshot holds.
    expect(Object.entries(got.statuses).filter(([id, s]) => snapshot('clean').statuses[id] !== s).length).toBeGreaterThan(0);
  }, 180_000);
});
