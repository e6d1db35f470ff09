/**
 * The first phase of a run: its targets up. The API server (the embedded one started, or an external
 * one's files read, with the second identity of rest-authz), the node-agent loader judged and the
 * controller daemon prepared; `close` takes down what was started, bounded by the executor.
 */
import type { TargetSettings } from '../../harness/case/index.ts';
import type { ControllerDaemonSettings } from '../../harness/processes/index.ts';
import type { TargetConfig } from '../../harness/transport/index.ts';
import type { NodeagentLoaderSettings, NodeagentLoaderTarget } from '../../harness/processes/index.ts';
import { daemonOf } from '../daemon.ts';
import type { RunPlan } from '../plan.ts';
import { startEmbeddedTarget } from '../embedded.ts';
import { loadExternalTarget, loadRestrictedTarget } from '../target-files.ts';

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
      restricted: api.restricted,
      settings: plan.target.kind === 'embedded' ? { ...plan.settings, hooks: api.hooks } : plan.settings,
      nodeagent,
      daemon: daemon.settings,
      cleanupCommand: plan.cleanupCommand,
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

/**
 * The API servers up: the embedded one started, or an external one's files read (with the second
 * identity of rest-authz when the plan names one, and the private reference server a controller
 * daemon under test talks to instead of the user's cluster). A run's target, and each side of
 * `compare` (runner/phases/compare-sides.ts).
 */
export interface TargetUp {
  readonly target: TargetConfig;
  /** rest-authz: a second identity of the same server (`--restricted-kubeconfig`). */
  readonly restricted?: TargetConfig;
  readonly token?: string;
  readonly hooks?: TargetSettings['hooks'];
  /** External targets with a daemon under test: the private server it is given (runner/daemon.ts). */
  readonly daemonServer?: string;
  readonly close: () => Promise<void>;
}

export async function bringUpTarget(
  plan: Pick<RunPlan, 'target' | 'profile' | 'inProcess'>,
  o: { tokenFileOption?: string; daemonServer?: boolean } = {},
): Promise<TargetUp> {
  if (plan.target.kind === 'external') {
    const target = await loadExternalTarget(plan.target, o);
    const restricted = await loadRestrictedTarget(plan.target, target);
    const daemonServer = o.daemonServer === true ? await startEmbeddedTarget({}, plan.profile, { access: 'open' }) : undefined;
    return { target, restricted, daemonServer: daemonServer?.server.url, close: async () => daemonServer?.close() };
  }
  const given = plan.inProcess;
  const embedded = await startEmbeddedTarget(plan.target, plan.profile, {
    source: given?.source,
    onVariationPoint: given?.onVariationPoint,
  });
  return { target: embedded.config, token: embedded.token, hooks: embedded.hooks, close: () => embedded.close() };
}
