/**
 * The part of a run that runs checks: given a group of checks and the run's settings, their records.
 * Two ways to do it: in this process (`directStage`: the self-tests, and the replays of confirmation),
 * or through vitest, which also shows them as tests with JUnit and Allure (scripts/run-vitest.ts).
 * Either way the executor (runner/executor.ts) receives the same typed part.
 */
import type { AnyCheck } from '../harness/check.ts';
import type { CheckRecord } from './results.ts';
import type { CheckFootprint } from '../harness/footprint.ts';
import { emptyFootprint } from '../harness/footprint.ts';
import { runCheck } from './run-check.ts';
import { scheduleChecks } from './scheduler.ts';
import { loaderFromSettings, provideEmbeddedLoader } from '../harness/nodeagent-loader.ts';
import { embeddedLoader } from '../targets/nodeagent-loader/embedded.ts';
import type { NodeagentFaultName } from '../targets/nodeagent-loader/faults.ts';
import { profiles } from '../reference/profile.ts';
import type { SuiteSettings } from '../suites/settings.ts';
import { openSession } from './session.ts';

export interface StageRequest {
  readonly checks: readonly AnyCheck[];
  /** Cloneable: the vitest stage hands it to its worker. */
  readonly settings: SuiteSettings;
  /** One check at a time (the checks that restart or compact the target). */
  readonly sequential: boolean;
  /** The second group of a run (its exclusive checks) follows a first one. */
  readonly second: boolean;
  /** Checks of the run in all, and how many the earlier group ran (for progress lines). */
  readonly total: number;
  readonly done: number;
  /** When it settles no further check starts; running ones get `graceMs`. */
  readonly stop: Promise<unknown>;
  readonly graceMs: number;
}

export interface StagePart {
  readonly records: CheckRecord[];
  readonly errors: string[];
  readonly footprints: CheckFootprint[];
  /** Checks that ended (with or without records). */
  readonly finished: readonly string[];
}

export type CheckStage = (req: StageRequest) => Promise<StagePart>;

/**
 * In this process, one environment for the group. `inOrder`: one check after another in the order
 * given (the self-tests' runs), instead of the scheduler's longest-first start order.
 */
export function directStage(o: { inOrder?: boolean } = {}): CheckStage {
  provideEmbeddedLoader((profile, faults) => embeddedLoader(profile, faults as NodeagentFaultName[]));
  return async (req) => {
    const s = req.settings;
    const profile = profiles[s.profile];
    const loader = loaderFromSettings(s.nodeagentLoader, profile);
    const opened = openSession(s.target, { profile, runId: s.runId, settings: s.targetSettings, signals: false, ...(s.namespaceScope !== undefined ? { scope: s.namespaceScope } : {}), ...(loader ? { nodeagentLoader: loader } : {}), ...(s.controllerDaemon ? { controllerDaemon: s.controllerDaemon } : {}), ...(s.restrictedTarget ? { restricted: s.restrictedTarget } : {}), ...(s.backgroundWrites === true ? { backgroundWrites: true } : {}) });
    const opts = { seed: s.seed, runs: s.runs, replayCommand: s.replayCommand, ...(s.path !== undefined ? { path: s.path } : {}) };
    const part: StagePart = { records: [], errors: [], footprints: [], finished: [] };
    const finished = part.finished as string[];
    try {
      if (o.inOrder === true || req.sequential) {
        for (const check of req.checks) {
          const footprint = emptyFootprint(check.id);
          part.records.push(...(await runCheck(check, opened.env, opts, footprint)));
          part.footprints.push(footprint);
          finished.push(check.id);
        }
        return part;
      }
      const scheduled = scheduleChecks(req.checks, opened.env, opts, s.parallel ?? 1, s.deadline ?? Infinity);
      for (const check of req.checks) {
        const { records, footprint } = await scheduled.result(check.id);
        part.records.push(...records);
        part.footprints.push(footprint);
        finished.push(check.id);
      }
      return part;
    } finally {
      await opened.close();
    }
  };
}
