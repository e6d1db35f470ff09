/**
 * The API servers up: the embedded one started, or an external one's files read (with the second
 * identity of rest-authz when the plan names one, and the private reference server a controller
 * daemon under test talks to instead of the user's cluster). A run's target
 * (runner/phases/bring-up.ts) and each side of `compare` (runner/phases/compare-sides.ts).
 */
import type { TargetSettings } from '../../harness/case/index.ts';
import type { TargetConfig } from '../../harness/transport/index.ts';
import { startEmbeddedTarget } from '../embedded.ts';
import type { RunPlan } from '../plan.ts';
import { loadExternalTarget, loadRestrictedTarget } from '../target-files.ts';

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
    ...(given?.source !== undefined ? { source: given.source } : {}),
    ...(given?.onVariationPoint ? { onVariationPoint: given.onVariationPoint } : {}),
  });
  return { target: embedded.config, token: embedded.token, hooks: embedded.hooks, close: () => embedded.close() };
}
