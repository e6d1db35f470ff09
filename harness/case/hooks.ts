/**
 * Target hooks: a way the user gives the suite to restart the target or compact its
 * history, so durability and history-window clauses run in seconds instead of minutes. A hook is a
 * shell command (`--hook compact='etcdctl compact ...'`) whose exit status is checked, or, for the
 * embedded reference server, an HTTP POST to its private hook path. Settings are plain data: vitest
 * clones them into its workers.
 */
import { spawn } from 'node:child_process';
import { undici } from '../transport/index.ts';
import { InfrastructureError } from '../transport/index.ts';
import type { CheckFootprint } from './footprint.ts';
import { emptyReach } from './reach.ts';

export type HookName = 'restart' | 'compact';
export const HOOK_NAMES: readonly HookName[] = ['restart', 'compact'];

export type HookSpec = { readonly kind: 'command'; readonly command: string } | { readonly kind: 'http'; readonly url: string };
export type Hooks = Partial<Record<HookName, HookSpec>>;

/** `compact=etcdctl compact $(...)` -> ['compact', {command}]; undefined when malformed. */
export function parseHookArg(text: string): [HookName, HookSpec] | undefined {
  const at = text.indexOf('=');
  if (at <= 0) return undefined;
  const name = text.slice(0, at);
  const command = text.slice(at + 1).trim();
  if (!(HOOK_NAMES as readonly string[]).includes(name) || command === '') return undefined;
  return [name as HookName, { kind: 'command', command }];
}

/**
 * Runs a hook to completion; a non-zero exit, a timeout or a failed POST is infrastructure trouble.
 * `fp`: the footprint of the check that runs it (CheckEnv.exchangeSink).
 */
export async function runHook(name: HookName, spec: HookSpec, timeoutMs = 120_000, fp?: CheckFootprint): Promise<void> {
  await runHookOnce(name, spec, timeoutMs);
  // The scorecard counts the compactions and restarts the run's checks crossed.
  if (fp !== undefined) (fp.reach ??= emptyReach())[name === 'compact' ? 'compactions' : 'restarts']++;
}

async function runHookOnce(name: HookName, spec: HookSpec, timeoutMs: number): Promise<void> {
  if (spec.kind === 'http') {
    const r = await undici()
      .request(spec.url, { method: 'POST', headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
      .catch((e: Error) => {
        throw new InfrastructureError(`hook ${name}: POST ${spec.url} failed: ${e.message}`);
      });
    const text = await r.body.text();
    if (r.statusCode !== 200)
      throw new InfrastructureError(`hook ${name}: POST ${spec.url} answered ${r.statusCode}: ${text.slice(0, 200)}`);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const child = spawn('sh', ['-c', spec.command], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-2000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new InfrastructureError(`hook ${name}: \`${spec.command}\` still running after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new InfrastructureError(`hook ${name}: cannot run \`${spec.command}\`: ${e.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new InfrastructureError(
            `hook ${name}: \`${spec.command}\` exited ${code ?? signal}${stderr.trim() !== '' ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
          ),
        );
    });
  });
}
