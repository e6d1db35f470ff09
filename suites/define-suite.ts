/**
 * Turns a suite name into vitest tests: one test per registered check, named by its clauses, whose
 * CheckRecords travel to the CLI's reporter in the test's meta. Suites stay one line each.
 */
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { checksOfSuite } from './checks/index.ts';
import { runCheck } from '../harness/run-check.ts';
import { openEnv, type OpenedEnv } from '../harness/env.ts';
import { profiles } from '../reference/profile.ts';
import { loaderFromSettings } from '../harness/nodeagent-loader.ts';
import type { CheckRecord } from '../harness/results.ts';
import { labelForAllure } from '../harness/allure-labels.ts';
import './settings.ts';

declare module 'vitest' {
  interface TaskMeta {
    svcConformanceRecords?: CheckRecord[];
  }
}

/** Thrown so vitest, JUnit and Allure show a failed (not broken) test with the clause and repro. */
class NonconformanceError extends Error {
  override name = 'AssertionError';
}

export function defineSuite(suite: string): void {
  const s = inject('svcConformance');
  const wanted = (id: string) => !s.checks || s.checks.length === 0 || s.checks.includes(id);
  const checks = checksOfSuite(suite).filter((c) => wanted(c.id));
  let opened: OpenedEnv | undefined;

  describe(suite, () => {
    beforeAll(() => {
      opened = openEnv(s.target, { profile: profiles[s.profile], runId: s.runId, settings: s.targetSettings, scope: suite.replace(/[^a-z0-9]/g, '').slice(0, 12), nodeagentLoader: loaderFromSettings(s.nodeagentLoader, profiles[s.profile]), ...(s.controllerDaemon ? { controllerDaemon: s.controllerDaemon } : {}) });
    });
    afterAll(async () => {
      await opened?.close();
    });

    for (const check of checks) {
      it(`${check.id} [${check.clauses.join(', ')}]`, async (ctx) => {
        const records = await runCheck(check, opened!.env, { seed: s.seed, runs: s.runs, replayCommand: s.replayCommand, ...(s.path !== undefined ? { path: s.path } : {}) });
        ctx.task.meta.svcConformanceRecords = records;
        await labelForAllure({ suite, check: check.id, clauses: check.clauses, seed: s.seed, profile: s.profile, records });
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
