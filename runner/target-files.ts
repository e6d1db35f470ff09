/** The files a run's options name, read when the run starts (or checked by `run --dry-run`). */
import { readFileSync } from 'node:fs';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../harness/transport/index.ts';
import type { ExternalTargetPlan } from './plan.ts';

/**
 * The external target's configuration from the files the plan names. `checkOnly` (run --dry-run)
 * reads and validates every file without starting a kubeconfig's credential plugin. `tokenFileOption`:
 * how the option is spelled in the line an unreadable token file gets (compare's reference side).
 */
export async function loadExternalTarget(
  t: ExternalTargetPlan,
  o: { checkOnly?: boolean; tokenFileOption?: string } = {},
): Promise<TargetConfig> {
  return loadTargetConfig({
    ...(t.kubeconfig ? { kubeconfig: t.kubeconfig } : {}),
    ...(t.context ? { context: t.context } : {}),
    ...(t.server ? { server: t.server } : {}),
    ...(t.tokenFile ? { token: readText(t.tokenFile, o.tokenFileOption ?? '--token-file').trim() } : {}),
    certificateAuthority: t.certificateAuthority,
    ...(t.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    ...(o.checkOnly ? { checkOnly: true } : {}),
  });
}

/** A file an option names; unreadable, the one line names the option too (`--baseline x.json: no such file`). */
export function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `${option} ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`,
    );
  }
}

/** rest-authz: a second identity (its current context) from `--restricted-kubeconfig`; its server must be the target's. */
export async function loadRestrictedTarget(t: ExternalTargetPlan, target: TargetConfig): Promise<TargetConfig | undefined> {
  const file = t.restrictedKubeconfig;
  if (file === undefined) return undefined;
  const cfg = await loadTargetConfig({ kubeconfig: file }).catch((e: unknown) => {
    throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
  });
  if (cfg.server !== target.server)
    throw new ConfigError(`--restricted-kubeconfig ${file}: its server ${cfg.server} is not the target ${target.server}`);
  return cfg;
}
