/**
 * What the executor hands the check stage (runner/check-stage.ts) for one group of checks: plain data.
 */
import type { TargetSettings } from '../harness/case/index.ts';
import type { TargetConfig } from '../harness/transport/index.ts';
import type { ProfileName } from '../reference/profile.ts';
import type { NodeagentLoaderSettings } from '../harness/processes/index.ts';
import type { ControllerDaemonSettings } from '../harness/processes/index.ts';

/** Examples per property when `--runs` is not given: the budget of `npm start` and of a nightly run. */
export const DEFAULT_RUNS = 25;

export interface SuiteSettings {
  readonly target: TargetConfig;
  /** `--restricted-kubeconfig`: the second identity of the rest-authz checks. */
  readonly restrictedTarget?: TargetConfig;
  readonly profile: ProfileName;
  readonly runId: string;
  /**
   * Keeps the namespace names of one part of a run (the exclusive checks, a confirmation replay) apart
   * from another's: a real cluster deletes namespaces asynchronously, so a name the previous part
   * deleted may still be Terminating.
   */
  readonly namespaceScope?: string;
  /** `--namespace`: existing namespaces the run works in instead of creating its own. */
  readonly namespaces?: readonly string[];
  readonly seed: number;
  readonly runs: number;
  readonly checks?: readonly string[];
  /** Suites selected (`--suite`); all when absent. */
  readonly suites?: readonly string[];
  /** Epoch ms after which no check starts (`--timeout`); the CLI abandons the running ones. */
  readonly deadline?: number;
  /** Checks run at once (`--parallel`). */
  readonly parallel?: number;
  /** `--background-writes`: one write in a namespace of the run's before each request of a check. */
  readonly backgroundWrites?: boolean;
  readonly path?: string;
  readonly targetSettings: TargetSettings;
  readonly replayCommand: string;
  /** Node-agent config loader: a command, {} for the embedded one, absent for none. */
  readonly nodeagentLoader?: NodeagentLoaderSettings;
  /** The controller daemon under test, when there is one. */
  readonly controllerDaemon?: ControllerDaemonSettings;
}
