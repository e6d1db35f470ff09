/**
 * The reference controller daemon: validates its command line with the model (node:2.6, 5, 8), prints
 * errors naming the option and exits 1, prints the pflag table on --help, serves /healthz, /readyz and
 * /livez over HTTPS on --bind-address:--secure-port (paths outside --authorization-always-allow-paths
 * are 403: it has no authorization webhook), and with --leader-elect holds the lock Lease on the API
 * server of --svcconfig/--master. It runs no control loops.
 */
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';
import {
  formatHelp,
  parseFlags,
  pickCert,
  rules,
  withDefaults,
  REFERENCE_VERSION,
  flagName,
  optionByName,
  type FlagError,
  type NamedCertKey,
  type Values,
} from '../../reference/controller-daemon/index.ts';
import { profiles, type ProfileName } from '../../reference/profile.ts';
import { loadTargetConfig } from '../../harness/kubeconfig.ts';
import { daemonApiClient } from './api-client.ts';
import type { Target } from '../../harness/exchange.ts';
import { LeaderElector } from './lease.ts';
import { selfSignedPair } from './self-signed.ts';
import { opensslCiphers } from './ciphers.ts';
import type { DaemonFault } from './faults.ts';
import { helpInWords, SLOW_MS, type DaemonVariationName } from './variations.ts';

export interface DaemonOptions {
  readonly profile: ProfileName;
  readonly faults: readonly DaemonFault[];
  readonly variations?: readonly DaemonVariationName[];
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

export interface RunningDaemon {
  /** Port actually listened on (undefined with --secure-port=0). */
  readonly port: number | undefined;
  /** Settles with an exit code when the daemon ends by itself (a control-loop value refused at leadership). */
  readonly ended: Promise<number>;
  stop(): Promise<void>;
}

export type DaemonStart = { kind: 'exit'; code: number } | { kind: 'running'; daemon: RunningDaemon };

const NS_PER_MS = 1_000_000n;
const TLS_VERSIONS = { VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const;

export async function startDaemon(argv: readonly string[], o: DaemonOptions): Promise<DaemonStart> {
  const profile = profiles[o.profile];
  const name = profile.controllerManagerName;
  const variation = new Set(o.variations ?? []);
  if (variation.has('slow')) await new Promise((r) => setTimeout(r, SLOW_MS.start));
  if (argv.includes('-h') || argv.includes('--help')) {
    const overrides = Object.assign({}, ...o.faults.map((f) => f.defaults ?? {})) as Values;
    const gateTable = o.faults.find((f) => f.gates)?.gates;
    const table = formatHelp(o.profile, overrides, gateTable);
    o.out(`The ${name} is a daemon that embeds the core control loops.\n\nUsage:\n  ${name} [flags]\n\nFlags:\n${variation.has('help-in-words') ? helpInWords(table) : table}`);
    return { kind: 'exit', code: 0 };
  }
  const disabled = new Set(o.faults.flatMap((f) => (f.disablesRule ? [f.disablesRule] : [])));
  // Variation main-loop-validation: control-loop values are checked once leadership is taken, not here.
  const deferred = variation.has('main-loop-validation') ? rules.filter((r) => r.binding === 'main-loop' && !disabled.has(r.name)) : [];
  const active = { rules: rules.filter((r) => !disabled.has(r.name) && !deferred.includes(r)) };
  const strict = parseFlags(argv, o.profile, active);
  const parsed = o.faults.some((f) => f.ignoresNonOptions) ? parseFlags(withoutNonOptions(argv, strict.errors), o.profile, active) : strict;
  for (const w of parsed.warnings) o.err(`W ${w.option}: ${w.message}\n`);
  // An option without what it needs: refused here, ignored under variation needs-ignored (both legal).
  const refused = variation.has('needs-ignored') ? parsed.errors : [...parsed.errors, ...parsed.open];
  if (variation.has('needs-ignored')) for (const w of parsed.open) o.err(`W ${w.option}: ${w.message}; ignored\n`);
  if (refused.length > 0) {
    for (const e of refused) o.err(`Error: ${e.option}: ${e.message} (${e.rule}; ${e.clause})\n`);
    return { kind: 'exit', code: 1 };
  }
  const late = deferred.length > 0 ? parseFlags(argv, o.profile, { rules: deferred }).errors : [];
  const set = parsed.options;
  if (set['secure-port'] === 0 && o.faults.some((f) => f.refusesPortZero)) {
    o.err('Error: --secure-port: 0 is not a port\n');
    return { kind: 'exit', code: 1 };
  }
  if (set['version'] !== undefined && set['version'] !== 'false') {
    o.out(set['version'] === 'raw' ? `${REFERENCE_VERSION}.0\n` : `${name} v${REFERENCE_VERSION}.0\n`);
    return { kind: 'exit', code: 0 };
  }
  const faultDefaults = Object.assign({}, ...o.faults.map((f) => f.defaults ?? {})) as Values;
  const v = withDefaults({ ...faultDefaults, ...set }, o.profile);
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
            if (server) await new Promise<void>((r) => server!.close(() => r()));
            server?.closeAllConnections();
            for (const c of cleanups) await c();
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

/** Fault `arguments-ignored`: the words a strict reading refused as non-options (node:1.4), dropped. */
function withoutNonOptions(argv: readonly string[], errors: readonly FlagError[]): string[] {
  const refused = new Set(errors.filter((e) => e.clause === 'node:1.4').map((e) => e.option));
  return argv.filter((w) => !refused.has(w) && !refused.has(w.split('=')[0]!));
}

async function apiClient(v: Values, profile: ProfileName): Promise<Target> {
  const config = v['svcconfig'] as string | undefined;
  const master = v['master'] as string | undefined;
  if (!config && !master) throw new Error(`--${flagName(optionByName('svcconfig')!, profile)} or --master is needed to reach the API server for leader election`);
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
    const pair = selfSignedPair(certDir, stem);
    cleanups.push(pair.cleanup);
    ({ cert, key } = pair);
  }
  const sni = sniContexts((v['tls-sni-cert-key'] as readonly NamedCertKey[] | undefined) ?? []);
  const min = o.faults.some((f) => f.ignoresTlsMinVersion) ? undefined : (v['tls-min-version'] as keyof typeof TLS_VERSIONS | undefined);
  const ciphers = o.faults.some((f) => f.ignoresCipherSuites) ? undefined : opensslCiphers(v['tls-cipher-suites'] as readonly string[] | undefined);
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
      ...(sni.length > 0 ? { SNICallback: (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => cb(null, choose(servername)?.ctx) } : {}),
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
    if (p === '/healthz' || (!healthzOnly && (p === '/readyz' || p === '/livez'))) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  };
  const host = (v['bind-address'] as string) || undefined;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: v['secure-port'] as number, ...(host && host !== '0.0.0.0' ? { host } : {}) }, () => resolve());
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
