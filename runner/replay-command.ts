/**
 * The command a person types to run exactly this again: target and selection options, then the run
 * settings a printed replay command must repeat to replay the same case ("a printed
 * replay command that does not reproduce is a defect"): windows the judges read, the workload's size,
 * the hooks.
 *   settingFlags({ continueTtl: 1500, slow: true }) -> ['--slow', '--continue-ttl 1500ms']
 */
export interface ReplaySettings {
  readonly slow?: true;
  readonly continueTtl?: number;
  readonly historyWindow?: number;
  readonly eventualWindow?: number;
  readonly daemonStartTimeout?: number;
  readonly writers?: number;
  readonly opsPerWriter?: number;
  readonly hook?: readonly string[];
}

import type { RunOptions } from './run-options.ts';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function settingFlags(o: ReplaySettings): string[] {
  const out: string[] = [];
  if (o.slow) out.push('--slow');
  if (o.continueTtl !== undefined) out.push(`--continue-ttl ${o.continueTtl}ms`);
  if (o.historyWindow !== undefined) out.push(`--history-window ${o.historyWindow}ms`);
  if (o.eventualWindow !== undefined) out.push(`--eventual-window ${o.eventualWindow}ms`);
  if (o.daemonStartTimeout !== undefined) out.push(`--daemon-start-timeout ${o.daemonStartTimeout}ms`);
  if (o.writers !== undefined) out.push(`--writers ${o.writers}`);
  if (o.opsPerWriter !== undefined) out.push(`--ops-per-writer ${o.opsPerWriter}`);
  for (const h of o.hook ?? []) out.push(`--hook ${shellQuote(h)}`);
  return out;
}

/** What a person types to run exactly this again; target options included, secrets never. */
export function replayCommand(o: RunOptions): string {
  const parts = ['npx svc-conformance run'];
  if (o.kubeconfig) parts.push(`--kubeconfig ${o.kubeconfig}`);
  if (o.context) parts.push(`--context ${o.context}`);
  if (o.server) parts.push(`--server ${o.server}`);
  if (o.restrictedKubeconfig) parts.push(`--restricted-kubeconfig ${o.restrictedKubeconfig}`);
  if (o.profile !== 'svc') parts.push(`--profile ${o.profile}`);
  for (const f of o.fault ?? []) parts.push(`--fault ${f}`);
  for (const v of o.variation ?? []) parts.push(`--variation ${v}`);
  for (const n of o.namespace ?? []) parts.push(`--namespace ${n}`);
  for (const m of o.without ?? []) parts.push(`--without ${m}`);
  if (o.release !== undefined) parts.push(`--release ${o.release}`);
  if (o.runtimeConfig !== undefined) parts.push(`--runtime-config ${o.runtimeConfig}`);
  if (o.scale !== undefined) parts.push(`--scale ${o.scale.name}`);
  if (o.controllerDaemon) parts.push(`--controller-daemon ${shellQuote(o.controllerDaemon)}`);
  if (o.nodeagentLoader) parts.push(`--nodeagent-loader ${JSON.stringify(o.nodeagentLoader)}`);
  for (const f of o.nodeagentFault ?? []) parts.push(`--nodeagent-fault ${f}`);
  parts.push(...settingFlags(o));
  if (o.backgroundWrites) parts.push('--background-writes');
  return parts.join(' ');
}
