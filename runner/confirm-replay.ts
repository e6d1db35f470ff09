/**
 * The replays of runner/confirm-failures.ts, run in the CLI's own process: one check, from the
 * failure's seed and path, nothing beside it, in an environment of its own (fresh namespaces under a
 * scope of their own, as the printed replay command gets), with background writes when asked. No
 * vitest start per replay: a replay costs its case's requests and little more, so confirming a failure
 * takes seconds, and a run with no failure pays nothing.
 */
import { openSession, type SessionSpec } from './session.ts';
import { runCheck } from './run-check.ts';
import type { TargetSettings } from '../harness/case/index.ts';
import type { TargetConfig } from '../harness/transport/index.ts';
import type { ControllerDaemonSettings } from '../harness/processes/index.ts';
import type { CheckRecord, Counterexample } from './results.ts';
import type { Profile } from '../reference/profile.ts';
import { checkById } from '../suites/checks/index.ts';
import type { ReplayMode } from './confirm-failures.ts';

export interface ReplayTarget {
  readonly target: TargetConfig;
  readonly restricted?: TargetConfig;
  readonly profile: Profile;
  readonly runId: string;
  readonly settings: TargetSettings;
  readonly runs: number;
  readonly nodeagentLoader?: SessionSpec['nodeagentLoader'];
  readonly controllerDaemon?: ControllerDaemonSettings;
  /** The run's replay command without `--background-writes` (added for replays beside writes). */
  readonly replayCommand: string;
  /** `--namespace`: replays work in the same named namespaces (the target lets the run create none). */
  readonly namespaces?: readonly string[];
}

export function inProcessReplayer(t: ReplayTarget): (check: string, cx: Counterexample, mode: ReplayMode) => Promise<CheckRecord[]> {
  let replays = 0;
  return async (checkId, cx, mode) => {
    const check = checkById(checkId);
    if (check === undefined || cx.path === undefined) return [];
    const opened = openSession({
      target: t.target,
      profile: t.profile,
      runId: t.runId,
      scope: `c${++replays}`,
      settings: t.settings,
      nodeagentLoader: t.nodeagentLoader,
      controllerDaemon: t.controllerDaemon,
      restricted: t.restricted,
      ...(mode === 'writes' && t.namespaces === undefined ? { backgroundWrites: true } : {}),
      namespaces: t.namespaces,
    });
    try {
      return await runCheck(check, opened.env, {
        seed: cx.seed,
        runs: t.runs,
        path: cx.path,
        replayCommand: mode === 'writes' ? `${t.replayCommand} --background-writes` : t.replayCommand,
      });
    } finally {
      // What is left is the run's final sweep's business; a replay's verdict stands either way.
      await opened.close().catch(() => undefined);
    }
  };
}
