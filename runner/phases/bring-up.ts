/**
 * The first phase of a run: its targets up. The API server (the embedded one started, or an external
 * one's files read), the second identity of rest-authz, the node-agent loader judged and the controller
 * daemon prepared; `close` takes down what was started, bounded by the executor.
 */
import type { TargetSettings } from '../../harness/case/index.ts';
import type { ControllerDaemonSettings } from '../../harness/processes/index.ts';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../../harness/transport/index.ts';
import type { NodeagentLoaderSettings, NodeagentLoaderTarget } from '../../harness/processes/index.ts';
import { prepareDaemon } from '../daemon.ts';
import { startEmbeddedTarget } from '../embedded.ts';
import { nodeagentLoaderSettings } from '../nodeagent.ts';
import type { RunPlan } from '../plan.ts';
import { cleanupCommandLine } from '../sweep.ts';
import { loadExternalTarget } from '../target-files.ts';

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
  const planned = nodeagentLoaderSettings(plan);
  const nodeagent = given === undefined ? planned : { ...planned, description: given.description, given };
  const api = await bringUpTarget(plan);
  try {
    const restricted = await restrictedTarget(plan, api.target);
    const daemon = await daemonOf(plan, api.target.server, api.token);
    return {
      target: api.target,
      ...(restricted !== undefined ? { restricted } : {}),
      settings: plan.target.kind === 'embedded' ? { ...plan.settings, hooks: api.hooks } : plan.settings,
      nodeagent,
      ...(daemon.settings !== undefined ? { daemon: daemon.settings } : {}),
      ...(plan.target.kind === 'external' ? { cleanupCommand: cleanupCommandLine(plan.target, plan.runId) } : {}),
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

export interface TargetUp {
  readonly target: TargetConfig;
  readonly token?: string;
  readonly hooks?: TargetSettings['hooks'];
  readonly close: () => Promise<void>;
}

/** The API server alone: a run's target, and each side of `compare` (runner/phases/compare-sides.ts). */
export async function bringUpTarget(plan: Pick<RunPlan, 'target' | 'profile' | 'inProcess'>, o: { tokenFileOption?: string } = {}): Promise<TargetUp> {
  if (plan.target.kind === 'external') return { target: await loadExternalTarget(plan.target, o), close: async () => undefined };
  const given = plan.inProcess;
  const embedded = await startEmbeddedTarget(plan.target, plan.profile, {
    ...(given?.source !== undefined ? { source: given.source } : {}),
    ...(given?.onVariationPoint ? { onVariationPoint: given.onVariationPoint } : {}),
  });
  return { target: embedded.config, token: embedded.token, hooks: embedded.hooks, close: () => embedded.close() };
}

/** rest-authz: a second identity (its current context); its server must be the target's. */
async function restrictedTarget(plan: RunPlan, target: TargetConfig): Promise<TargetConfig | undefined> {
  const file = plan.target.kind === 'external' ? plan.target.restrictedKubeconfig : undefined;
  if (file === undefined) return undefined;
  const cfg = await loadTargetConfig({ kubeconfig: file }).catch((e: unknown) => {
    throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
  });
  if (cfg.server !== target.server) throw new ConfigError(`--restricted-kubeconfig ${file}: its server ${cfg.server} is not the target ${target.server}`);
  return cfg;
}

async function daemonOf(plan: RunPlan, server: string, token: string | undefined): Promise<{ settings?: ControllerDaemonSettings; cleanup: () => Promise<void> }> {
  const given = plan.inProcess?.daemon;
  if (given === 'none') return { cleanup: async () => undefined };
  const prepared = await prepareDaemon({
    ...(plan.daemon.command !== undefined ? { command: plan.daemon.command } : {}),
    bundle: given === undefined && plan.selection.selected.some((c) => c.suite === 'controller-daemon'),
    external: plan.target.kind === 'external',
    profile: plan.profile.name,
    server,
    ...(token !== undefined ? { token } : {}),
    ...(plan.daemon.startTimeoutMs !== undefined ? { startTimeoutMs: plan.daemon.startTimeoutMs } : {}),
  });
  if (prepared.settings === undefined || given === undefined) return prepared;
  // A launcher of the caller's (a daemon with planted faults) starts everything it is not told otherwise.
  const { startLauncher: _reference, ...settings } = prepared.settings;
  return { settings: { ...settings, ...given }, cleanup: prepared.cleanup };
}
