/**
 * The one place a check environment is opened: the run's check stage, the confirmation replays,
 * `compare` (one per side) and the benches describe the session they want as data and get the
 * environment here (runner/env.ts wires its parts: client, transcript, guard, namespace pool). The
 * node-agent loader named by the run's settings is made here too, and closed with the session.
 */
import type { CheckEnv, TargetSettings } from '../harness/case/index.ts';
import type { Target, TargetConfig } from '../harness/transport/index.ts';
import type { ControllerDaemonSettings } from '../harness/processes/index.ts';
import {
  loaderFromSettings,
  provideEmbeddedLoader,
  type NodeagentLoaderSettings,
  type NodeagentLoaderTarget,
} from '../harness/processes/index.ts';
import type { Profile } from '../reference/profile.ts';
import { embeddedLoader } from '../targets/nodeagent-loader/embedded.ts';
import type { NodeagentFaultName } from '../targets/nodeagent-loader/faults.ts';
import { openEnv, type OpenedEnv } from './env.ts';

export type { OpenedEnv };

export interface SessionSpec {
  readonly target: TargetConfig;
  /** A second, restricted identity of the same server (rest-authz); absent: the run impersonates one. */
  readonly restricted?: TargetConfig;
  readonly profile: Profile;
  readonly runId: string;
  readonly settings: TargetSettings;
  /** Keeps this session's namespace names apart from other sessions of the same run. */
  readonly scope?: string;
  /** Clean up on SIGINT/SIGTERM; false where the executor handles signals (runner/run-stop.ts). */
  readonly signals?: boolean;
  /** The node-agent loader the checks judge: made from the run's settings, or one handed in (not closed here). */
  readonly nodeagentLoader?: NodeagentLoaderSettings | { readonly given: NodeagentLoaderTarget };
  readonly controllerDaemon?: ControllerDaemonSettings;
  readonly backgroundWrites?: boolean;
  /** `--namespace`: the only namespaces the session's checks lease (it creates none of its own). */
  readonly namespaces?: readonly string[];
  /** Failures the expectations file excuses (CheckEnv.excused). */
  readonly excused?: CheckEnv['excused'];
  /** What the checks' requests pass through first (a self-test's stand-in target). */
  readonly checksTarget?: (t: Target) => Target;
}

export function openSession(s: SessionSpec): OpenedEnv {
  const given = s.nodeagentLoader !== undefined && 'given' in s.nodeagentLoader ? s.nodeagentLoader.given : undefined;
  const made = given === undefined ? loaderOf(s.nodeagentLoader as NodeagentLoaderSettings | undefined, s.profile) : undefined;
  const loader = given ?? made;
  const opened = openEnv(s.target, {
    profile: s.profile,
    runId: s.runId,
    settings: s.settings,
    signals: s.signals ?? false,
    scope: s.scope,
    nodeagentLoader: loader,
    controllerDaemon: s.controllerDaemon,
    restricted: s.restricted,
    backgroundWrites: s.backgroundWrites,
    namespaces: s.namespaces,
    excused: s.excused,
    checksTarget: s.checksTarget,
  });
  if (made === undefined) return opened;
  return {
    ...opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        made.close();
      }
    },
  };
}

function loaderOf(s: NodeagentLoaderSettings | undefined, profile: Profile): NodeagentLoaderTarget | undefined {
  provideEmbeddedLoader((p, faults) => embeddedLoader(p, faults as NodeagentFaultName[]));
  return loaderFromSettings(s, profile);
}
