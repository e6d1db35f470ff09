/** `svc-conformance serve`: the embedded reference API server on loopback until interrupted. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { profiles } from '../reference/profile.ts';
import { ConfigError } from '../harness/transport/index.ts';
import { faults as faultTable, partialModes, variations as variationTable } from '../targets/api-server/index.ts';
import { readText } from '../runner/executor.ts';
import { startEmbeddedTarget } from '../runner/embedded.ts';
import { releaseArg, runtimeConfigArg } from './versions-command.ts';
import { kubeconfigText } from '../harness/processes/index.ts';
import { parseTokenFile } from '../targets/api-server/authz.ts';
import { SUPERUSER_GROUP, type UserInfo } from '../reference/rbac.ts';
import { collect, durationArg, portArg } from './cli-args.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the embedded reference API server on loopback until interrupted')
    .option('--port <n>', 'port (0: any free one)', portArg, 0)
    .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
    .option('--continue-ttl <duration>', 'continue-token lifetime', durationArg)
    .option('--history-window <duration>', 'history retention window', durationArg)
    .option('--fault <name>', 'inject a named fault (repeatable)', collect)
    .option('--variation <name>', 'legal behaviour variation (repeatable)', collect)
    .option('--without <feature>', 'leave out a whole feature, as a partial server does (repeatable)', collect)
    .option('--release <version>', 'release the server serves and reports at /version (default 1.24)', releaseArg)
    .option('--runtime-config <list>', '<group>/<version>[/<resource>][=true|false],... (rest:9.1.3)', runtimeConfigArg)
    .option('--kubeconfig-out <file>', 'write a kubeconfig for this server to FILE and print its path (KUBECONFIG=FILE kubectl get ns)')
    .option(
      '--external-namespace-controller',
      'leave deleted namespaces Terminating for a real namespace controller (kube-controller-manager) to empty and finalize',
    )
    .option(
      '--token-auth-file <file>',
      'authenticate bearer tokens (lines token,user,uid,"group1,group2") and authorize with RBAC; without it everyone may do anything',
    )
    .action(async (o) => {
      const tokens = o.tokenAuthFile === undefined ? undefined : readTokenFile(o.tokenAuthFile);
      const { server } = await listening(o.port, () =>
        startEmbeddedTarget(
          {
            release: o.release,
            runtimeConfig: o.runtimeConfig,
            continueTtlMs: o.continueTtl,
            historyWindowMs: o.historyWindow,
            faults: validateNames('fault', o.fault ?? [], faultTable),
            variations: validateNames('variation', o.variation ?? [], variationTable),
            without: validateNames('--without feature', o.without ?? [], partialModes),
          },
          profiles[o.profile],
          { access: tokens ?? 'open', port: o.port, builtInNamespaceController: !o.externalNamespaceController },
        ),
      );
      process.stdout.write(`reference server listening on ${server.url}\n`);
      if (o.kubeconfigOut !== undefined) {
        try {
          // With a token table, the kubeconfig carries its first superuser's token (the file is mode 0600).
          writeKubeconfig(
            o.kubeconfigOut,
            server.url,
            tokens === undefined ? undefined : [...tokens].find(([, u]) => u.groups.includes(SUPERUSER_GROUP))?.[0],
          );
        } catch (e) {
          await server.close();
          throw e;
        }
        process.stdout.write(`kubeconfig written to ${path.resolve(o.kubeconfigOut)}\n`);
      }
      await new Promise<void>((resolve) => {
        for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
      });
      await server.close();
    });
}

/** A port someone else holds is the user's configuration, not our crash: one line, exit 2. */
async function listening<T>(port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`port ${port} is already in use on 127.0.0.1; choose another or 0 for any free port`);
    if (code === 'EACCES') throw new ConfigError(`port ${port} needs privileges this process lacks; choose a port above 1023 or 0`);
    throw e;
  }
}

/** A kubeconfig for the loopback server; an unwritable path is a configuration error (exit 2), not a stack trace. */
function writeKubeconfig(file: string, server: string, token?: string): void {
  try {
    writeFileSync(file, kubeconfigText(server, token), { mode: 0o600 });
  } catch (e) {
    throw new ConfigError(`--kubeconfig-out ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** `serve --token-auth-file`: unreadable or malformed is a configuration error (one line, exit 2). */
function readTokenFile(file: string): Map<string, UserInfo> {
  const parsed = parseTokenFile(readText(file, '--token-auth-file'));
  if ('error' in parsed) throw new ConfigError(`--token-auth-file ${file}: ${parsed.error}`);
  return parsed;
}

function validateNames<T extends string>(what: string, names: readonly string[], table: readonly { name: T }[]): T[] {
  const known = new Set<string>(table.map((t) => t.name));
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) throw new ConfigError(`unknown ${what} ${bad.join(', ')}; known: ${[...known].join(', ')}`);
  return names as T[];
}
