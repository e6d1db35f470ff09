/**
 * An envtest-style upstream control plane on loopback: etcd, kube-apiserver (RBAC, one admin token) and,
 * when its binary is there, kube-controller-manager (namespace deletion needs its namespace controller).
 * Three topologies: `single` (one server), `ha` (two servers on the one etcd, with the same credentials
 * and service-account keys, behind a round-robin TCP balancer the kubeconfig points at; API Priority and
 * Fairness on, upstream's default) and `no-watch-cache` (one server with `--watch-cache=false`, so every
 * read goes to etcd). The controller manager always talks to the first server directly.
 * Everything lives in a private temporary folder (credentials, etcd data, kubeconfig, logs unless kept
 * elsewhere) removed on stop. Ports are picked free by binding port 0; a component that loses its port
 * to a race is started again on fresh ports. What was started is always stopped: by `stop()`, when a
 * start fails, on SIGINT/SIGTERM/SIGHUP (unless the caller takes those over once started), and by a
 * process 'exit' hook as the last resort.
 *
 *   const cp = await startControlPlane({ assetsDir: process.env.KUBEBUILDER_ASSETS });
 *   // svc-conformance run --kubeconfig cp.kubeconfigPath --profile k8s
 *   await cp.stop();
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../processes/index.ts';
import { resolveAssets, type Assets, type BinaryName } from './assets.ts';
import { startBalancer, type Balancer } from './balancer.ts';
import { logTail, startComponent, type Component } from './component.ts';
import { makeCredentials, writeKubeconfig, type Credentials } from './credentials.ts';
import { probeServing, waitReady, type ReadyOutcome } from './readiness.ts';

/** How the API servers are laid out; see the module comment. */
export type Topology = 'single' | 'ha' | 'no-watch-cache';
export const topologies: readonly Topology[] = ['single', 'ha', 'no-watch-cache'];

export interface ControlPlaneOptions {
  /** Default `single`. */
  readonly topology?: Topology;
  /** Folder with the binaries; default KUBEBUILDER_ASSETS from `env`. */
  readonly assetsDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** auto (default): start it when the binary is there; required: fail without it; off: never. */
  readonly controllerManager?: 'auto' | 'required' | 'off';
  /** Keep the component logs in this folder (kept after stop); default: the private folder. */
  readonly logDir?: string;
  /** Longest wait for each component to serve. */
  readonly startTimeoutMs?: number;
  /** Progress lines (never a credential). */
  readonly log?: (line: string) => void;
  /**
   * true (default): SIGINT, SIGTERM or SIGHUP kill the components and remove the folder at once, then
   * the signal takes its usual course unless the process has listeners of its own for it. false: after
   * a successful start the caller handles signals (and calls stop(), e.g. after its suites cleaned up).
   * During the start the launcher always handles them: the caller has no handle to stop yet.
   */
  readonly stopOnSignals?: boolean;
  /**
   * More kube-apiserver flags, after the launcher's own (a later flag wins): e.g.
   * `--etcd-compaction-interval=5s`, so that a run soon meets versions the history no longer holds.
   */
  readonly apiServerFlags?: readonly string[];
}

export interface ControlPlane {
  readonly topology: Topology;
  /** https://127.0.0.1:PORT: the one server, or the balancer in front of the HA pair. */
  readonly server: string;
  /** Each API server's own URL (two for `ha`, the first being the controller manager's). */
  readonly apiServers: readonly string[];
  /** Connections the balancer handed to each API server so far (`ha` only). */
  balancerCounts?(): readonly number[];
  /** etcd's client URL (plain HTTP on loopback), for a compaction hook (scripts/etcd-compact.mjs). */
  readonly etcdUrl: string;
  /** Self-contained kubeconfig (CA inline, admin bearer token), mode 0600, inside the private folder. */
  readonly kubeconfigPath: string;
  readonly dir: string;
  readonly assets: Assets;
  readonly components: readonly { readonly name: string; readonly pid: number; readonly logFile: string }[];
  readonly ports: readonly number[];
  /** Milliseconds from the call to each component's readiness, and in total. */
  readonly timings: Readonly<Record<string, number>>;
  /** The admin token and CA, for a caller's own requests: never log them. */
  credentials(): { readonly token: string; readonly caPem: string };
  /** Stops every component (controller manager, balancer, API servers, etcd), removes the folder; idempotent. */
  stop(): Promise<{ readonly ms: number }>;
}

/** A component did not start or serve. `message` is one line; `logTail` holds its last log lines. */
export class ControlPlaneStartError extends Error {
  constructor(
    readonly component: string,
    detail: string,
    readonly logTail: readonly string[],
    readonly logFile: string,
  ) {
    super(`${component} ${detail}`);
    this.name = 'ControlPlaneStartError';
  }
}

const DEFAULT_START_TIMEOUT_MS = 90_000;
const PORT_ATTEMPTS = 3;
const PORT_RACE = /address already in use/i;

export async function startControlPlane(o: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const required: BinaryName[] = ['etcd', 'kube-apiserver', ...(o.controllerManager === 'required' ? ['kube-controller-manager' as const] : [])];
  const assets = resolveAssets({ ...(o.assetsDir !== undefined ? { dir: o.assetsDir } : {}), ...(o.env ? { env: o.env } : {}), required });
  const log = o.log ?? (() => undefined);
  const withControllerManager = o.controllerManager !== 'off' && assets.binaries['kube-controller-manager'] !== undefined;
  if (o.controllerManager !== 'off' && !withControllerManager) log(`envtest: no kube-controller-manager in ${assets.dir}: deleted namespaces will stay Terminating`);

  const topology = o.topology ?? 'single';
  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-envtest-'));
  const logDir = o.logDir !== undefined ? path.resolve(o.logDir) : dir;
  const running: Component[] = [];
  let balancer: Balancer | undefined;
  // Last resort when the process exits without stop() (an uncaught error, process.exit elsewhere):
  // synchronous, so only signals and rmSync.
  const onExit = () => {
    for (const c of running) c.killNow();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  // The components run in their own process groups, so a terminal's Ctrl-C does not reach them, and a
  // process killed by a signal runs no 'exit' hook: without this they would outlive us.
  let removeSignalGuard = killOnSignals(onExit);
  let stopped: Promise<{ ms: number }> | undefined;
  const stopAll = (): Promise<{ ms: number }> =>
    (stopped ??= (async () => {
      const t0 = Date.now();
      // Reverse start order: the controller manager and API servers still reach etcd while they stop;
      // the balancer (started after the servers) goes first among them, so no client meets a stopping server.
      const reversed = [...running].reverse();
      const cm = reversed.filter((c) => c.name === 'kube-controller-manager');
      for (const c of cm) await c.stop();
      await balancer?.stop();
      for (const c of reversed.filter((x) => !cm.includes(x))) await c.stop();
      rmSync(dir, { recursive: true, force: true });
      process.removeListener('exit', onExit);
      removeSignalGuard();
      return { ms: Date.now() - t0 };
    })());

  try {
    mkdirSync(logDir, { recursive: true });
    const creds = makeCredentials(dir);
    const scrub = (s: string) => s.split(creds.token).join('<redacted>');
    const caPem = readFileSync(creds.caCert, 'utf8');
    const timeout = o.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const timings: Record<string, number> = {};
    const ports: number[] = [];

    // Starts one component and waits for its readiness URL; on a lost port race, tries fresh ports.
    const launch = async (
      binary: BinaryName,
      argsFor: (ports: number[]) => string[],
      portCount: number,
      url: (ports: number[]) => string,
      probe: { ca?: string; token?: string },
      name: string = binary,
    ): Promise<number[]> => {
      for (let attempt = 1; ; attempt++) {
        const mine = await distinctPorts(portCount, ports);
        const logFile = path.join(logDir, `${name}.log`);
        const c = startComponent(name, assets.binaries[binary]!, argsFor(mine), logFile);
        running.push(c);
        const outcome = await waitReady(c, url(mine), { ...probe, deadlineMs: timeout });
        if (outcome.kind === 'ready') {
          timings[name] = Date.now() - started;
          log(`envtest: ${name} ready on 127.0.0.1:${mine[0]} (${(timings[name] / 1000).toFixed(1)} s since start)`);
          ports.push(...mine);
          return mine;
        }
        await c.stop();
        running.splice(running.indexOf(c), 1);
        const tail = logTail(logFile, 20, scrub);
        if (outcome.kind === 'exited' && attempt < PORT_ATTEMPTS && tail.some((l) => PORT_RACE.test(l))) {
          log(`envtest: ${name} lost a port to another process; retrying on fresh ports`);
          continue;
        }
        throw new ControlPlaneStartError(name, describe(outcome, url(mine), timeout), tail, logFile);
      }
    };

    const [etcdClient] = await launch(
      'etcd',
      ([client, peer]) => etcdArgs(dir, client!, peer!),
      2,
      ([client]) => `http://127.0.0.1:${client}/health`,
      {},
    );
    const probe = { ca: caPem, token: creds.token };
    const serverCount = topology === 'ha' ? 2 : 1;
    const apiPorts: number[] = [];
    for (let i = 1; i <= serverCount; i++) {
      const name = serverCount === 1 ? 'kube-apiserver' : `kube-apiserver-${i}`;
      const extra = [...(topology === 'no-watch-cache' ? ['--watch-cache=false'] : []), ...(o.apiServerFlags ?? [])];
      const certDir = path.join(dir, serverCount === 1 ? 'apiserver-certs' : `apiserver-certs-${i}`);
      const [p] = await launch(
        'kube-apiserver',
        ([port]) => [...apiServerArgs(creds, etcdClient!, port!, certDir), ...extra],
        1,
        ([port]) => `https://127.0.0.1:${port}/readyz`,
        probe,
        name,
      );
      apiPorts.push(p!);
    }
    const apiServers = apiPorts.map((p) => `https://127.0.0.1:${p}`);
    let server = apiServers[0]!;
    if (topology === 'ha') {
      balancer = await startBalancer(apiPorts.map((port) => ({ port })));
      ports.push(balancer.port);
      server = `https://127.0.0.1:${balancer.port}`;
      // One probe per server behind it, verified against the CA: the serving certificate must cover the
      // balancer's address too (the kubeconfig names only the balancer).
      for (let i = 0; i < apiPorts.length; i++) {
        const r = await probeServing(`${server}/readyz`, probe);
        if (r.status !== 200)
          throw new ControlPlaneStartError('balancer', `at ${server} did not pass /readyz through to the API servers (${r.status !== undefined ? `answer ${r.status}` : r.error})`, [], '');
      }
      timings.balancer = Date.now() - started;
      log(`envtest: balancer ready on 127.0.0.1:${balancer.port}, round-robin over ${apiPorts.map((p) => `127.0.0.1:${p}`).join(', ')}`);
    }
    const kubeconfigPath = path.join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, { server, caCert: creds.caCert, token: creds.token });
    if (withControllerManager) {
      // Like a controller manager beside one of the servers of an HA cluster: it talks to that one.
      const cmKubeconfig = server === apiServers[0] ? kubeconfigPath : path.join(dir, 'kubeconfig-kube-apiserver-1');
      if (cmKubeconfig !== kubeconfigPath) writeKubeconfig(cmKubeconfig, { server: apiServers[0]!, caCert: creds.caCert, token: creds.token });
      await launch(
        'kube-controller-manager',
        ([p]) => controllerManagerArgs(creds, cmKubeconfig, p!),
        1,
        ([p]) => `https://127.0.0.1:${p}/healthz`,
        {},
      );
    }
    timings.total = Date.now() - started;
    if (o.stopOnSignals === false) {
      removeSignalGuard();
      removeSignalGuard = () => undefined;
    }
    const lb = balancer;
    return {
      topology,
      server,
      apiServers,
      ...(lb !== undefined ? { balancerCounts: () => lb.counts() } : {}),
      etcdUrl: `http://127.0.0.1:${etcdClient}`,
      kubeconfigPath,
      dir,
      assets,
      components: running.map((c) => ({ name: c.name, pid: c.pid, logFile: c.logFile })),
      ports,
      timings,
      credentials: () => ({ token: creds.token, caPem }),
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

const GUARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Until the returned function is called: on a signal, `killNow()`, then let the signal act as usual. */
function killOnSignals(killNow: () => void): () => void {
  const remove = () => {
    for (const s of GUARDED_SIGNALS) process.removeListener(s, handler);
  };
  const handler = (signal: NodeJS.Signals) => {
    killNow();
    remove();
    // Nobody else listens: die of the signal as the process would have without us (status 128+n).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  for (const s of GUARDED_SIGNALS) process.on(s, handler);
  return remove;
}

function etcdArgs(dir: string, client: number, peer: number): string[] {
  const clientUrl = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  return [
    '--name=envtest',
    // A data folder of this launch only: nothing of an earlier run survives into this one.
    `--data-dir=${path.join(dir, 'etcd')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=envtest=${peerUrl}`,
  ];
}

function apiServerArgs(c: Credentials, etcdClient: number, port: number, certDir: string): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    '--bind-address=127.0.0.1',
    // Without it the server advertises the host's first address in the `kubernetes` Endpoints.
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    `--tls-cert-file=${c.servingCert}`,
    `--tls-private-key-file=${c.servingKey}`,
    `--client-ca-file=${c.caCert}`,
    `--token-auth-file=${c.tokensCsv}`,
    '--authorization-mode=RBAC',
    `--service-account-key-file=${c.serviceAccountPub}`,
    `--service-account-signing-key-file=${c.serviceAccountKey}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    '--service-cluster-ip-range=10.0.0.0/24',
  ];
}

function controllerManagerArgs(c: Credentials, kubeconfig: string, port: number): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    // Delegated authentication and authorization through the same admin kubeconfig; /healthz is
    // always allowed, so readiness is probed anonymously.
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--service-account-private-key-file=${c.serviceAccountKey}`,
    `--root-ca-file=${c.caCert}`,
    '--controllers=*',
  ];
}

function describe(o: Exclude<ReadyOutcome, { kind: 'ready' }>, url: string, timeoutMs: number): string {
  if (o.kind === 'exited') return `exited before serving (${o.signal !== null ? `signal ${o.signal}` : `exit code ${o.code}`})`;
  return `did not answer 200 at ${url} within ${Math.round(timeoutMs / 1000)} s (last: ${o.lastStatus ?? 'no answer'})`;
}

async function distinctPorts(n: number, taken: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const p = await freePort();
    if (!out.includes(p) && !taken.includes(p)) out.push(p);
  }
  return out;
}
