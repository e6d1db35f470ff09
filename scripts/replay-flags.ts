/**
 * The run settings a printed replay command must repeat to replay the same case (issue 24: "a printed
 * replay command that does not reproduce is a defect"): windows the judges read, the workload's size,
 * the hooks. Target and selection options are the CLI's replayCommand's own.
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
