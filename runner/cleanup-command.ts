/**
 * What removes a run's objects from an external target after this process is gone: the command line
 * the plan computes once (runner/plan.ts) and the terminal, the signals and the reports print.
 */
import path from 'node:path';

/** How the run was pointed at its target, as `run` took it: `cleanup` takes the same options. */
export interface TargetOptions {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly server?: string;
  readonly tokenFile?: string;
  readonly insecureSkipTlsVerify?: boolean;
}

/** `svc-conformance cleanup --run-id ID <the run's target options>`, with files as absolute paths and shell quoting. */
export function cleanupCommandLine(t: TargetOptions, runId: string, cwd: string): string {
  const args = ['svc-conformance', 'cleanup', '--run-id', runId];
  if (t.kubeconfig !== undefined) args.push('--kubeconfig', path.resolve(cwd, t.kubeconfig));
  if (t.context !== undefined) args.push('--context', t.context);
  if (t.server !== undefined) args.push('--server', t.server);
  if (t.tokenFile !== undefined) args.push('--token-file', path.resolve(cwd, t.tokenFile));
  if (t.insecureSkipTlsVerify === true) args.push('--insecure-skip-tls-verify');
  return args.map(shellWord).join(' ');
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
