/**
 * The first phase of a run: its targets up. The API server (the embedded one started, or an external
 * one's files read, with the second identity of rest-authz: runner/phases/target-up.ts), the node-agent loader judged and the controller
 * daemon prepared; `close` takes down what was started, bounded by the executor.
 */
import type { TargetSettings } from '../../harness/case/index.ts';
import type { ControllerDaemonSettings } from '../../harness/processes/index.ts';
import type { TargetConfig } from '../../harness/transport/index.ts';
import type { NodeagentLoaderSettings, NodeagentLoaderTarget } from '../../harness/processes/index.ts';
import { daemonOf } from '../daemon.ts';
import type { RunPlan } from '../plan.ts';
import { bringUpTarget } from './target-up.ts';

export interface BroughtUp {
  readonly target: TargetConfig;
  /** rest-authz: a second identity of the same server (`--restricted-kubeconfig`). */
  readonly restricted?: TargetConfig;
  /** The plan's settings with the embedded target's hooks. */
  readonly settings: TargetSettings;
  readonly nodeagent: {
    readonly settings?: NodeagentLoaderSettings;
    readonly description: string | null;
    /** A loader the caller made (plan.inProcess), used instead of the settings. */
    readonly given?: NodeagentLoaderTarget;
  };
  readonly daemon?: ControllerDaemonSettings;
  /** External targets: what removes the run's objects after this process is gone. */
  readonly cleanupCommand?: string;
  readonly close: () => Promise<void>;
}

export async function bringUp(plan: RunPlan): Promise<BroughtUp> {
  const given = plan.inProcess?.nodeagentLoader;
  const nodeagent = given === undefined ? plan.nodeagent : { ...plan.nodeagent, description: given.description, given };
  // Against an external target the daemon under test gets a private server of its own.
  const api = await bringUpTarget(plan, { daemonServer: plan.daemon.command !== undefined && plan.inProcess?.daemon !== 'none' });
  try {
    const daemon = await daemonOf(plan, { server: api.target.server, token: api.token, privateServer: api.daemonServer });
    return {
      target: api.target,
      ...(api.restricted !== undefined ? { restricted: api.restricted } : {}),
      settings: plan.target.kind === 'embedded' ? { ...plan.settings, hooks: api.hooks } : plan.settings,
      nodeagent,
      ...(daemon.settings !== undefined ? { daemon: daemon.settings } : {}),
      ...(plan.cleanupCommand !== undefined ? { cleanupCommand: plan.cleanupCommand } : {}),
      close: async () => {
        await daemon.cleanup();
        await api.close();
      },
    };
  } catch (e) {
    await api.close();
    throw e;
  }
}
