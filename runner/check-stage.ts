/**
 * The part of a run that runs checks, in this process: given a group of checks and the run's settings,
 * their records. The command line, the self-tests and the replays of confirmation all run checks here;
 * what a person sees while they run (progress, a failure found) comes out through `StageEvents`, and
 * what CI reads afterwards (JUnit, Allure) is made from the executor's result (reports/).
 */
import type { AnyCheck, CheckEnv } from '../harness/case/index.ts';
import type { CheckRecord } from './results.ts';
import type { CheckFootprint } from '../harness/case/index.ts';
import type { Slowdown, Target } from '../harness/transport/index.ts';
import { emptyFootprint } from '../harness/case/index.ts';
import { runCheck, type RunCheckOptions } from './run-check.ts';
import { scheduleChecks, type CheckOutcome } from './scheduler.ts';
import { ABANDON_SETTLE_MS, within } from './run-stop.ts';
import type { NodeagentLoaderTarget } from '../harness/processes/index.ts';
import { profiles } from '../reference/profile.ts';
import type { SuiteSettings } from '../suites/settings.ts';
import { openSession } from './session.ts';

export interface StageRequest {
  readonly checks: readonly AnyCheck[];
  readonly settings: SuiteSettings;
  /** One check at a time, in the order given (the checks that restart or compact the target). */
  readonly sequential: boolean;
  /** The second group of a run (its exclusive checks) follows a first one. */
  readonly second: boolean;
  /** Checks of the run in all, and how many the earlier group ran (for progress lines). */
  readonly total: number;
  readonly done: number;
  /** When it settles no further check starts; running ones get `graceMs`. */
  readonly stop: Promise<unknown>;
  readonly graceMs: number;
  /** When it settles the grace ends at once (a second signal). */
  readonly hurry?: Promise<unknown>;
  /** A loader made otherwise than the settings say (the self-tests' own), used instead of theirs. */
  readonly nodeagentLoader?: NodeagentLoaderTarget;
  /** Failures the expectations file excuses: a case goes on past them (harness/case/case-context.ts). */
  readonly excused?: CheckEnv['excused'];
  /** Failures the expectations file lists as known (with or without going on past them): not shrunk. */
  readonly known?: CheckEnv['excused'];
  /** What the checks' requests pass through first (a self-test's stand-in target, RunPlan.inProcess). */
  readonly checksTarget?: (t: Target) => Target;
  /** A replay of one failure (confirmation, `--reproduce`): nobody watching the run is told of it. */
  readonly replay?: boolean;
}

export interface StagePart {
  readonly records: CheckRecord[];
  readonly errors: string[];
  readonly footprints: CheckFootprint[];
  /** Checks that ended (with or without records). */
  readonly finished: readonly string[];
  /** The target slowed down steadily over the stage's requests (harness/transport/pace-trend.ts). */
  slowdown?: Slowdown;
}

export type CheckStage = (req: StageRequest) => Promise<StagePart>;

/** What a person watching the run is told while it runs (reports/progress.ts draws it). */
export interface StageEvents {
  /** A group of `total` checks is about to start (the first call: the run's checks begin). */
  begin?(total: number): void;
  checkStarted?(checkId: string): void;
  /** `thrown`: the check broke outside its property (a bug of ours), in one line. */
  checkDone?(check: AnyCheck, records: readonly CheckRecord[], thrown?: string): void;
  /** A line a check has to tell at once (a failure found, before its shrinking). */
  line?(text: string): void;
}

/**
 * One environment for the group. `inOrder`: one check after another in the order given (the
 * self-tests' runs), instead of the scheduler's longest-first start order.
 */
export function directStage(o: { inOrder?: boolean; events?: StageEvents } = {}): CheckStage {
  return async (req) => {
    const ev: StageEvents = req.replay === true ? {} : (o.events ?? {});
    const s = req.settings;
    ev.begin?.(req.total);
    const opened = openStageSession(req);
    // Once the part is handed back, a check abandoned at the stop is no longer heard of: its late
    // verdict (often the error of a request cut by the stop) is in no report, so it is not printed.
    let abandoned = false;
    const line = ev.line;
    const opts = {
      seed: s.seed,
      runs: s.runs,
      replayCommand: s.replayCommand,
      ...(line
        ? {
            onFailureFound: (text: string) => {
              if (!abandoned) line(text);
            },
          }
        : {}),
      path: s.path,
      known: req.known,
    };
    let halted = false;
    void req.stop.then(() => (halted = true));
    // Results by check, kept in the order the group was given whatever order they end in.
    const ended = new Map<string, { outcome?: CheckOutcome; thrown?: string }>();
    const end = (check: AnyCheck, r: { outcome?: CheckOutcome; thrown?: string }): void => {
      if (r.outcome?.notStarted === true || abandoned) return;
      ended.set(check.id, r);
      ev.checkDone?.(check, r.outcome?.records ?? [], r.thrown);
    };
    const settle = (check: AnyCheck, p: Promise<CheckOutcome>) =>
      p.then(
        (outcome) => end(check, { outcome }),
        (e: unknown) => end(check, { thrown: e instanceof Error ? e.message : String(e) }),
      );
    const part: StagePart = { records: [], errors: [], footprints: [], finished: [] };
    try {
      const started = ev.checkStarted ? { started: ev.checkStarted } : {};
      const all =
        o.inOrder === true || req.sequential
          ? inOrder(req.checks, opened.env, opts, { halted: () => halted, settle, ...started })
          : inParallel(req, opened.env, opts, { halted: () => halted, settle, ...started });
      // Stopped: the running checks get their grace, then the part holds what ended (the rest are abandoned).
      const stopped = Symbol('stopped');
      if ((await Promise.race([all, req.stop.then(() => stopped)])) === stopped) {
        await within(Promise.race([all, req.hurry ?? new Promise<never>(() => undefined)]), Math.max(0, req.graceMs - ABANDON_SETTLE_MS));
        // Before the sweep lists what the run leaves: no request of an abandoned check may land after it.
        await opened.abandon(ABANDON_SETTLE_MS);
      }
      abandoned = true;
      addEnded(part, req.checks, ended);
      const slowdown = opened.env.pace?.slowdown();
      if (slowdown !== undefined) part.slowdown = slowdown;
      return part;
    } finally {
      // A stopped run does not wait on its environment's cleanup (an abandoned check may still hold it):
      // the executor publishes first and its sweep deletes what the run left.
      if (halted) void opened.close().catch(() => undefined);
      else {
        // What the cleanup could not remove (a target too slow to answer its deletes) is the run's
        // trouble to report, with the checks' results, not a crash of the run.
        await opened.close().catch((e: unknown) => part.errors.push((e instanceof Error ? e.message : String(e)).split('\n')[0]!));
      }
    }
  };
}

/** The session a stage's checks share, opened from what the stage request carries. */
function openStageSession(req: StageRequest): ReturnType<typeof openSession> {
  const s = req.settings;
  return openSession({
    target: s.target,
    profile: profiles[s.profile],
    runId: s.runId,
    settings: s.targetSettings,
    scope: s.namespaceScope,
    // An empty list names no namespace: the session makes its own.
    namespaces: s.namespaces !== undefined && s.namespaces.length > 0 ? s.namespaces : undefined,
    nodeagentLoader: req.nodeagentLoader !== undefined ? { given: req.nodeagentLoader } : s.nodeagentLoader,
    controllerDaemon: s.controllerDaemon,
    restricted: s.restrictedTarget,
    backgroundWrites: s.backgroundWrites,
    excused: req.excused,
    checksTarget: req.checksTarget,
  });
}

interface Running {
  readonly halted: () => boolean;
  readonly settle: (check: AnyCheck, p: Promise<CheckOutcome>) => Promise<void>;
  readonly started?: (id: string) => void;
}

/** One check after another (a sequential group), until the stage is halted. */
async function inOrder(checks: readonly AnyCheck[], env: CheckEnv, opts: RunCheckOptions, r: Running): Promise<void> {
  for (const check of checks) {
    if (r.halted()) break;
    r.started?.(check.id);
    const footprint = emptyFootprint(check.id);
    await r.settle(
      check,
      runCheck(check, env, opts, footprint).then((records) => ({ records, footprint })),
    );
  }
}

/** The group's checks on the scheduler's parallel slots. */
function inParallel(req: StageRequest, env: CheckEnv, opts: RunCheckOptions, r: Running): Promise<unknown> {
  const s = req.settings;
  const scheduled = scheduleChecks(req.checks, env, opts, s.parallel ?? 1, {
    deadline: s.deadline ?? Infinity,
    halted: r.halted,
    ...(r.started ? { onStart: r.started } : {}),
  });
  return Promise.all(req.checks.map((check) => r.settle(check, scheduled.result(check.id))));
}

/** The checks that ended, in the group's order, into the part handed back. */
function addEnded(
  part: StagePart,
  checks: readonly AnyCheck[],
  ended: ReadonlyMap<string, { outcome?: CheckOutcome; thrown?: string }>,
): void {
  for (const check of checks) {
    const r = ended.get(check.id);
    if (r === undefined) continue;
    (part.finished as string[]).push(check.id);
    if (r.outcome !== undefined) {
      part.records.push(...r.outcome.records);
      part.footprints.push(r.outcome.footprint);
    }
    if (r.thrown !== undefined) part.errors.push(`${check.id}: ${r.thrown.split('\n')[0]}`);
  }
}
