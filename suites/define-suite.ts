/**
 * Turns a suite name into vitest tests: one test per registered check, named by its clauses, whose
 * CheckRecords travel to the CLI's reporter in the test's meta. Suites stay one line each.
 */
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { checks as allChecks, checksOfSuite } from './checks/index.ts';
import { openEnv, type OpenedEnv } from '../harness/env.ts';
import { DEFAULT_PARALLEL, scheduleChecks, type Scheduled } from '../harness/scheduler.ts';
import { profiles } from '../reference/profile.ts';
import { loaderFromSettings } from '../harness/nodeagent-loader.ts';
import type { CheckRecord } from '../harness/results.ts';
import { labelForAllure } from '../harness/allure-labels.ts';
import type { CheckFootprint } from '../harness/footprint.ts';
import { registerRunDeadline } from '../harness/run-stop.ts';
import { reportFlush } from '../harness/report-flush.ts';
import type { SuiteSettings } from './settings.ts';
import './settings.ts';

declare module 'vitest' {
  interface TaskMeta {
    svcConformanceRecords?: CheckRecord[];
    svcConformanceFootprint?: CheckFootprint;
  }
}

/** Thrown so vitest, JUnit and Allure show a failed (not broken) test with the clause and repro. */
class NonconformanceError extends Error {
  override name = 'AssertionError';
}

interface SharedRun {
  readonly opened: OpenedEnv;
  readonly scheduled: Scheduled;
  /**
   * Cleanup and closing, once: every file whose afterAll sees the last check done calls it, and a
   * second close of the client threw undici's ClientDestroyedError into 10-12 suites' reports a run.
   */
  readonly close: () => Promise<void>;
}

const SHARED = Symbol.for('svc-conformance.shared-run');

/**
 * One environment and one scheduler for every suite file of the run: the CLI runs the files in one
 * worker without isolation, so the first file starts every selected check (at most `parallel` at
 * once) and each file's tests wait for theirs. One guard, one namespace pool, one cleanup.
 */
function sharedRun(s: SuiteSettings, wanted: (id: string) => boolean): SharedRun {
  const g = globalThis as { [SHARED]?: SharedRun };
  if (g[SHARED]) return g[SHARED];
  const profile = profiles[s.profile];
  // A timed-out read is retried only while the run's budget can wait for it (harness/retry-policy.ts).
  if (s.deadline !== undefined) registerRunDeadline(s.deadline);
  const opened = openEnv(s.target, { profile, runId: s.runId, ...(s.namespaceScope !== undefined ? { scope: s.namespaceScope } : {}), settings: s.targetSettings, nodeagentLoader: loaderFromSettings(s.nodeagentLoader, profile), ...(s.controllerDaemon ? { controllerDaemon: s.controllerDaemon } : {}), ...(s.restrictedTarget ? { restricted: s.restrictedTarget } : {}), ...(s.backgroundWrites === true ? { backgroundWrites: true } : {}) });
  const selected = allChecks.filter((c) => (!s.suites || s.suites.length === 0 || s.suites.includes(c.suite)) && wanted(c.id));
  const scheduled = scheduleChecks(selected, opened.env, { seed: s.seed, runs: s.runs, replayCommand: s.replayCommand, onFailureFound: (line: string) => console.error(line), ...(s.path !== undefined ? { path: s.path } : {}) }, s.parallel ?? DEFAULT_PARALLEL, s.deadline ?? Infinity);
  let closing: Promise<void> | undefined;
  g[SHARED] = { opened, scheduled, close: () => (closing ??= opened.close()) };
  return g[SHARED];
}

export function defineSuite(suite: string): void {
  const s = inject('svcConformance');
  const wanted = (id: string) => !s.checks || s.checks.length === 0 || s.checks.includes(id);
  const checks = checksOfSuite(suite).filter((c) => wanted(c.id));
  const flush = reportFlush(s.deadline ?? Infinity);
  let run: SharedRun | undefined;

  describe(suite, () => {
    beforeAll(() => {
      run = sharedRun(s, wanted);
    });
    afterAll(async () => {
      // The file that sees the last check end deletes what the run created.
      const allDone = run ? await Promise.race([run.scheduled.done.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]) : false;
      if (run && allDone) await run.close();
    });

    for (const check of checks) {
      it(`${check.id} [${check.clauses.join(', ')}]`, async (ctx) => {
        const { records, footprint } = await flush.outcome(check, run!.scheduled.result(check.id));
        ctx.task.meta.svcConformanceRecords = records;
        await labelForAllure({ suite, check: check.id, clauses: check.clauses, seed: s.seed, profile: s.profile, records });
        ctx.task.meta.svcConformanceFootprint = footprint;
        const failures = records.filter((r) => r.verdict === 'fail');
        if (failures.length > 0) {
          throw new NonconformanceError(failures.map((f) => {
            const c = f.counterexample;
            return `${f.clause}: expected ${c?.expected}; observed ${c?.observed}\n  replay: ${c?.replay}\n  steps:\n    ${c?.steps.join('\n    ')}`;
          }).join('\n'));
        }
        const errors = records.filter((r) => r.verdict === 'error');
        if (errors.length > 0) throw new Error(errors[0]!.note ?? 'error');
        if (records.every((r) => r.verdict === 'notChecked')) ctx.skip(records[0]?.note);
      });
    }
  });
}
