/**
 * `run` with no target option tests the suite's own embedded server. Someone with a cluster at hand
 * (KUBECONFIG set, or ~/.kube/config present) may expect that cluster to be tested: one line, before
 * the run starts, says what is tested and how to test the cluster instead. Not an error: the
 * embedded run is a legitimate thing to ask for.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { isExternal, type RunOptions } from '../runner/plan.ts';

export function embeddedNotice(
  o: Pick<RunOptions, 'kubeconfig' | 'context' | 'server' | 'inCluster'>,
  env: NodeJS.ProcessEnv,
  isFile: (p: string) => boolean = fileExists,
): string | undefined {
  if (isExternal(o)) return undefined;
  const said = 'svc-conformance: no target option given: testing its own embedded reference server, not your cluster';
  if (env['KUBECONFIG'] !== undefined && env['KUBECONFIG'] !== '')
    return `${said} (KUBECONFIG is set); to test that cluster: --kubeconfig "$KUBECONFIG"`;
  const home = env['HOME'] ?? env['USERPROFILE'] ?? homedir();
  const def = path.join(home, '.kube', 'config');
  if (isFile(def)) return `${said} (${def} exists); to test that cluster: --kubeconfig ${def}`;
  return undefined;
}

function fileExists(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
