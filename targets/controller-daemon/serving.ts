/**
 * The reference daemon once its command line is accepted (daemon.ts): HTTPS on --bind-address:--secure-port
 * with the certificate options, and with --leader-elect the lock Lease on the API server of
 * --svcconfig/--master. A module of its own, imported only by a start that runs, so the many starts the
 * suite makes to be refused load none of it.
 */
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';
import {
  pickCert,
  flagName,
  optionByName,
  type FlagError,
  type NamedCertKey,
  type Values,
} from '../../reference/controller-daemon/index.ts';
import { profiles, type ProfileName } from '../../reference/profile.ts';
import { loadTargetConfig } from '../../harness/transport/index.ts';
import type { Target } from '../../harness/transport/index.ts';
import { daemonApiClient } from './api-client.ts';
import { LeaderElector } from './lease.ts';
import { selfSignedPair } from './self-signed.ts';
import { opensslCiphers } from './ciphers.ts';
import { SLOW_MS } from './variations.ts';
import type { DaemonOptions, DaemonStart } from './daemon-start.ts';

const NS_PER_MS = 1_000_000n;
const TLS_VERSIONS = { VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const;

/** Serves and elects with the effective values `v`; `late` are the control-loop errors refused once leading. */
export async function runDaemon(v: Values, late: readonly FlagError[], o: DaemonOptions): Promise<DaemonStart> {
  const profile = profiles[o.profile];
  const name = profile.controllerManagerName;
  const cleanups: (() => void | Promise<void>)[] = [];
  try {
    let server: Server | undefined;
    let port: number | undefined;
    if (v['secure-port'] !== 0) {
      ({ server, port } = await serve(v, o, name, cleanups));
    }
    let elector: LeaderElector | undefined;
    let end!: (code: number) => void;
    const ended = new Promise<number>((r) => (end = r));
    // The main loop: with deferred control-loop values refused, it ends the daemon (exit 1).
    const mainLoop = () => {
      if (late.length === 0) return;
      for (const e of late) o.err(`Error: starting controllers: ${e.option}: ${e.message} (${e.rule}; ${e.clause})\n`);
      end(1);
    };
    if (v['leader-elect'] === true) {
      const api = await apiClient(v, o.profile);
      cleanups.push(() => api.close());
      const leaseName = o.faults.find((f) => f.leaseName)?.leaseName ?? (v['leader-elect-resource-name'] as string);
      elector = new LeaderElector(api, profile, {
        name: leaseName,
        namespace: v['leader-elect-resource-namespace'] as string,
        leaseDurationMs: Number((v['leader-elect-lease-duration'] as bigint) / NS_PER_MS),
        retryPeriodMs: Math.max(50, Number((v['leader-elect-retry-period'] as bigint) / NS_PER_MS)),
        log: (l) => o.err(`I ${l}\n`),
        onLeading: mainLoop,
      });
      elector.start();
      cleanups.unshift(() => elector!.stop());
    } else {
      setImmediate(mainLoop);
    }
    let stopping: Promise<void> | undefined;
    o.err(`I ${name} started${port !== undefined ? `, serving on ${v['bind-address'] || '0.0.0.0'}:${port}` : ' (HTTPS disabled)'}\n`);
    return {
      kind: 'running',
      daemon: {
        port,
        ended,
        stop() {
          // Idempotent: a second stop waits for the first.
          stopping ??= (async () => {
            const closed = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
            // The Lease is released while the server drains: a daemon ending by itself (a control-loop
            // value refused once it leads) is gone as soon as both are done, not one after the other.
            const released = (async () => {
              for (const c of cleanups) await c();
            })();
            await Promise.all([closed.then(() => server?.closeAllConnections()), released]);
          })();
          return stopping;
        },
      },
    };
  } catch (e) {
    for (const c of cleanups) await c();
    o.err(`Error: ${(e as Error).message}\n`);
    return { kind: 'exit', code: 1 };
  }
}

async function apiClient(v: Values, profile: ProfileName): Promise<Target> {
  const config = v['svcconfig'] as string | undefined;
  const master = v['master'] as string | undefined;
  if (!config && !master)
    throw new Error(`--${flagName(optionByName('svcconfig')!, profile)} or --master is needed to reach the API server for leader election`);
  // --master overrides the server of the credentials file and keeps its credentials.
  const loaded = config ? await loadTargetConfig({ kubeconfig: config }) : await loadTargetConfig({ server: master! });
  const cfg = master ? { ...loaded, server: master.replace(/\/+$/, '') } : loaded;
  return daemonApiClient(cfg, { timeoutMs: 5000, userAgent: profiles[profile].controllerManagerName });
}

async function serve(v: Values, o: DaemonOptions, stem: string, cleanups: (() => void)[]): Promise<{ server: Server; port: number }> {
  let cert: string;
  let key: string;
  if (v['tls-cert-file'] && v['tls-private-key-file']) {
    cert = readOptionFile('tls-cert-file', v['tls-cert-file'] as string);
    key = readOptionFile('tls-private-key-file', v['tls-private-key-file'] as string);
  } else {
    const certDir = o.faults.some((f) => f.ignoresCertDir) ? '' : ((v['cert-dir'] as string | undefined) ?? '');
    const pair = await selfSignedPair(certDir, stem, o.run);
    cleanups.push(pair.cleanup);
    ({ cert, key } = pair);
  }
  const sni = sniContexts((v['tls-sni-cert-key'] as readonly NamedCertKey[] | undefined) ?? []);
  const min = o.faults.some((f) => f.ignoresTlsMinVersion) ? undefined : (v['tls-min-version'] as keyof typeof TLS_VERSIONS | undefined);
  const ciphers = o.faults.some((f) => f.ignoresCipherSuites)
    ? undefined
    : opensslCiphers(v['tls-cipher-suites'] as readonly string[] | undefined);
  const allowed = new Set((v['authorization-always-allow-paths'] as readonly string[]).filter((p) => !p.endsWith('*')));
  const prefixes = (v['authorization-always-allow-paths'] as readonly string[]).filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  const forbidAll = o.faults.some((f) => f.healthzForbidden);
  const healthzOnly = (o.variations ?? []).includes('healthz-only');
  const firstMatch = o.faults.some((f) => f.sniFirstMatch);
  const choose = (servername: string) => {
    const picked = firstMatch
      ? sni.map((s) => s.pair).find((p) => p.names.some((n) => pickCert(servername, [{ ...p, names: [n] }])))
      : pickCert(
          servername,
          sni.map((s) => s.pair),
        );
    return sni.find((s) => s.pair === picked);
  };
  const server = createServer(
    {
      cert,
      key,
      ...(min ? { minVersion: TLS_VERSIONS[min] } : {}),
      ...(ciphers ? { ciphers } : {}),
      ...(sni.length > 0
        ? { SNICallback: (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => cb(null, choose(servername)?.ctx) }
        : {}),
    },
    (req, res) => {
      if ((o.variations ?? []).includes('slow')) setTimeout(() => answer(req, res), SLOW_MS.answer);
      else answer(req, res);
    },
  );
  const answer = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const p = (req.url ?? '/').split('?')[0]!;
    const isAllowed = !forbidAll && (allowed.has(p) || prefixes.some((x) => p.startsWith(x)));
    if (!isAllowed) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`forbidden: User "system:anonymous" cannot get path "${p}"\n`);
      return;
    }
    if (p === '/healthz' || (!healthzOnly && (p === '/readyz' || p === '/livez')))
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  };
  const host = (v['bind-address'] as string) || undefined;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: v['secure-port'] as number, host: host === '0.0.0.0' ? undefined : host }, () => resolve());
  });
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : (v['secure-port'] as number) };
}

/** A file an option names; an unreadable one is an error naming the option. */
function readOptionFile(option: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`--${option}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** SNI pairs with their secure contexts; a pair without patterns takes the names of its certificate. */
function sniContexts(pairs: readonly NamedCertKey[]): { pair: NamedCertKey; ctx: SecureContext }[] {
  return pairs.map((p) => {
    const cert = readOptionFile('tls-sni-cert-key', p.cert);
    const key = readOptionFile('tls-sni-cert-key', p.key);
    let names = p.names;
    if (names.length === 0) {
      const x = new X509Certificate(cert);
      names = (x.subjectAltName ?? '')
        .split(', ')
        .filter((s) => s.startsWith('DNS:'))
        .map((s) => s.slice(4));
    }
    return { pair: { ...p, names }, ctx: createSecureContext({ cert, key }) };
  });
}
