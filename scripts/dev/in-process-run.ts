/**
 * Runs registered checks against a reference server started with faults or variations through the
 * CLI's own plan and executor (runner/), in this process and one check after another, so the
 * self-tests see the records the reports would show (before confirmation labels them).
 */
import type { FaultName } from '../../targets/api-server/faults.ts';
import type { VariationName } from '../../targets/api-server/variations.ts';
import type { PartialModeName } from '../../targets/api-server/partial-modes.ts';
import type { ProfileName } from '../../reference/profile.ts';
import type { RunPlan } from '../../runner/plan.ts';
import { selfTestPlan } from './self-test-plan.ts';
import { executeRun, type ExecutedRun } from '../../runner/executor.ts';
import { directStage } from '../../runner/check-stage.ts';
import { checkById } from '../../suites/checks/index.ts';
import type { CapabilityEntry, CheckRecord } from '../../runner/results.ts';
import { scaleProfiles, type ScaleProfile } from '../../harness/case/index.ts';

export const CONTINUE_TTL_MS = 400;
/** Short, so rest:6.1.3 (410 for a version older than the history) is checked in seconds. */
export const HISTORY_WINDOW_MS = 1500;

/**
 * The token lifetime and history window of the rest-scale server here: longer than any oracle case may
 * run (10 minutes at most), so a chain is never cut by a 410 for its own slowness. With the CLI's 10 s
 * (SCALE_WINDOW_MS) a chain that took longer on a loaded machine ended on a legal 410 (rest:4.4.4)
 * before the page where page-chain-drift shows, and the fault went uncaught. Nothing in the rest-scale
 * checks waits a window out, so the longer one costs no time; a 410 within it is now a failure.
 */
export const SCALE_SELFTEST_WINDOW_MS = 15 * 60_000;

/** The rest-scale checks need a scale profile: the self-tests' small one unless one is given. */
const isScaleCheck = (id: string) => checkById(id)?.suite === 'rest-scale';

/** `bookmarkIntervalMs`: how often the server sends bookmarks to watches that ask (default 400). */
type InProcessRunOptions = {
  checks: readonly string[];
  faults?: readonly FaultName[];
  variations?: readonly VariationName[];
  /** false: no capability probe, every check runs whatever the server lacks (a check's own judges against a hostile fault). */
  capabilityProbe?: false;
  /** Whole features the server leaves out (`--without`). */
  without?: readonly PartialModeName[];
  runs: number;
  seed: number;
  path?: string;
  profile?: ProfileName;
  scale?: ScaleProfile;
  release?: string;
  bookmarkIntervalMs?: number;
  /**
   * The scale server's windows (longer than any case may run) instead of the short ones: for checks
   * whose reach, not only whose verdict, must not depend on the machine's speed (a continuation or an
   * Exact read a loaded machine sent after the short window ended gets a legal 410, and the clause
   * the case exists for goes unjudged).
   */
  longWindows?: true;
  /**
   * Filled with the variations whose decision points each check's requests passed (checks run one
   * after another, so a point passed belongs to the check running then; the run's own requests before
   * the first check are filed under '').
   */
  variationReach?: Map<string, Set<VariationName>>;
};

/**
 * The rest-scale checks run against a server of their own with the windows a long chain needs, so the
 * other checks keep the short windows that make their time-bound clauses quick.
 */
export async function runAgainst(o: InProcessRunOptions): Promise<CheckRecord[]> {
  const scaled = o.checks.filter(isScaleCheck);
  if (scaled.length === 0 || scaled.length === o.checks.length)
    return runOn(o, scaled.length > 0 ? (o.scale ?? scaleProfiles.selftest) : undefined);
  const rest = await runOn({ ...o, checks: o.checks.filter((c) => !isScaleCheck(c)) }, undefined);
  return [...rest, ...(await runOn({ ...o, checks: scaled }, o.scale ?? scaleProfiles.selftest))];
}

async function runOn(o: InProcessRunOptions, scale: ScaleProfile | undefined, seen?: (run: ExecutedRun) => void): Promise<CheckRecord[]> {
  for (const id of o.checks) if (!checkById(id)) throw new Error(`no check ${id}`);
  const planned = selfTestPlan(
    {
      profile: o.profile ?? 'svc',
      seed: o.seed,
      runs: o.runs,
      check: [...o.checks],
      path: o.path,
      // A chain of many pages outlives the short token lifetime the other self-tests use, and the history its first page's revision lives in.
      continueTtl: scale || o.longWindows ? SCALE_SELFTEST_WINDOW_MS : CONTINUE_TTL_MS,
      historyWindow: scale || o.longWindows ? SCALE_SELFTEST_WINDOW_MS : HISTORY_WINDOW_MS,
      eventualWindow: 600,
      fault: [...(o.faults ?? [])],
      variation: [...(o.variations ?? [])],
      without: o.without === undefined ? undefined : [...o.without],
      capabilityProbe: o.capabilityProbe,
      release: o.release,
      scale,
    },
    't',
  );
  const reach = o.variationReach;
  let current = '';
  const plan: RunPlan = {
    ...planned,
    target: { ...planned.target, bookmarkIntervalMs: o.bookmarkIntervalMs ?? 400 } as RunPlan['target'],
    settings: { ...planned.settings, watchWaitMs: 600, bookmarkWaitMs: 1200 },
    inProcess: {
      keepFailures: true,
      source: 'self-test',
      onVariationPoint: reach ? (v: VariationName) => reach.get(current)?.add(v) ?? reach.set(current, new Set([v])) : undefined,
    },
  };
  const { run } = await executeRun(plan, {
    log: () => undefined,
    stage: directStage({ inOrder: true, events: { checkStarted: (id) => (current = id) } }),
  });
  seen?.(run);
  return [...run.records];
}

/** The records of an in-process run and the capability map it made (the partial-server self-test). */
export async function runWithMap(
  o: Omit<InProcessRunOptions, 'variationReach'>,
): Promise<{ records: CheckRecord[]; capabilities: readonly CapabilityEntry[] }> {
  let capabilities: readonly CapabilityEntry[] = [];
  const records = await runOn(o, undefined, (run) => (capabilities = run.capabilities ?? []));
  return { records, capabilities };
}

export const failuresOf = (records: readonly CheckRecord[]) => records.filter((r) => r.verdict === 'fail');
export const errorsOf = (records: readonly CheckRecord[]) => records.filter((r) => r.verdict === 'error');
