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
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveAssets, type Assets, type BinaryName } from './assets.ts';
import { startBalancer } from './balancer.ts';
import { ComponentLauncher, ControlPlaneStartError } from './component-launcher.ts';
import { guardComponents, type ComponentsLifetime } from './components-lifetime.ts';
import { makeCredentials, writeKubeconfig, type Credentials } from './credentials.ts';
import { probeServing } from './readiness.ts';

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

const DEFAULT_START_TIMEOUT_MS = 90_000;

export async function startControlPlane(o: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const required: BinaryName[] = [
    'etcd',
    'kube-apiserver',
    ...(o.controllerManager === 'required' ? ['kube-controller-manager' as const] : []),
  ];
  const assets = resolveAssets({ dir: o.assetsDir, env: o.env, required });
  const log = o.log ?? (() => undefined);
  const withControllerManager = o.controllerManager !== 'off' && assets.binaries['kube-controller-manager'] !== undefined;
  if (o.controllerManager !== 'off' && !withControllerManager)
    log(`envtest: no kube-controller-manager in ${assets.dir}: deleted namespaces will stay Terminating`);

  const topology = o.topology ?? 'single';
  const startedAt = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-envtest-'));
  const logDir = o.logDir !== undefined ? path.resolve(o.logDir) : dir;
  const life = guardComponents(dir);
  try {
    mkdirSync(logDir, { recursive: true });
    const creds = makeCredentials(dir);
    const scrub = (s: string) => s.split(creds.token).join('<redacted>');
    const caPem = readFileSync(creds.caCert, 'utf8');
    const launcher = new ComponentLauncher(
      { assets, logDir, timeoutMs: o.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, startedAt, log, scrub },
      life.running,
    );
    const probe = { ca: caPem, token: creds.token };
    const [etcdClient] = await launcher.launch({
      binary: 'etcd',
      portCount: 2,
      argsFor: ([client, peer]) => etcdArgs(dir, client!, peer!),
      url: ([client]) => `http://127.0.0.1:${client}/health`,
      probe: {},
    });
    const apiPorts = await startApiServers(launcher, {
      creds,
      probe,
      etcdClient: etcdClient!,
      dir,
      topology,
      flags: o.apiServerFlags ?? [],
    });
    const apiServers = apiPorts.map((p) => `https://127.0.0.1:${p}`);
    const server = topology === 'ha' ? await startHaBalancer(launcher, life, apiPorts, probe, log) : apiServers[0]!;
    const kubeconfigPath = path.join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, { server, caCert: creds.caCert, token: creds.token });
    if (withControllerManager)
      await startControllerManager(launcher, { creds, dir, kubeconfigPath, server, firstApiServer: apiServers[0]! });
    launcher.timings.total = launcher.sinceStart();
    if (o.stopOnSignals === false) life.releaseSignals();
    const lb = life.balancer;
    return {
      topology,
      server,
      apiServers,
      balancerCounts: lb === undefined ? undefined : () => lb.counts(),
      etcdUrl: `http://127.0.0.1:${etcdClient}`,
      kubeconfigPath,
      dir,
      assets,
      components: life.running.map((c) => ({ name: c.name, pid: c.pid, logFile: c.logFile })),
      ports: launcher.ports,
      timings: launcher.timings,
      credentials: () => ({ token: creds.token, caPem }),
      stop: life.stop,
    };
  } catch (e) {
    await life.stop();
    throw e;
  }
}

type Probe = { readonly ca: string; readonly token: string };

/** One API server, or two for `ha`, on the one etcd with the same credentials. Their ports. */
async function startApiServers(
  launcher: ComponentLauncher,
  a: {
    readonly creds: Credentials;
    readonly probe: Probe;
    readonly etcdClient: number;
    readonly dir: string;
    readonly topology: Topology;
    readonly flags: readonly string[];
  },
): Promise<number[]> {
  const serverCount = a.topology === 'ha' ? 2 : 1;
  const apiPorts: number[] = [];
  for (let i = 1; i <= serverCount; i++) {
    const name = serverCount === 1 ? 'kube-apiserver' : `kube-apiserver-${i}`;
    const extra = [...(a.topology === 'no-watch-cache' ? ['--watch-cache=false'] : []), ...a.flags];
    const certDir = path.join(a.dir, serverCount === 1 ? 'apiserver-certs' : `apiserver-certs-${i}`);
    const [p] = await launcher.launch({
      binary: 'kube-apiserver',
      name,
      portCount: 1,
      argsFor: ([port]) => [...apiServerArgs(a.creds, a.etcdClient, port!, certDir), ...extra],
      url: ([port]) => `https://127.0.0.1:${port}/readyz`,
      probe: a.probe,
    });
    apiPorts.push(p!);
  }
  return apiPorts;
}

/** The round-robin balancer in front of the HA pair, probed through to each server. Its URL. */
async function startHaBalancer(
  launcher: ComponentLauncher,
  life: ComponentsLifetime,
  apiPorts: readonly number[],
  probe: Probe,
  log: (line: string) => void,
): Promise<string> {
  const balancer = await startBalancer(apiPorts.map((port) => ({ port })));
  life.balancer = balancer;
  launcher.ports.push(balancer.port);
  const server = `https://127.0.0.1:${balancer.port}`;
  // One probe per server behind it, verified against the CA: the serving certificate must cover the
  // balancer's address too (the kubeconfig names only the balancer).
  for (let i = 0; i < apiPorts.length; i++) {
    const r = await probeServing(`${server}/readyz`, probe);
    if (r.status !== 200)
      throw new ControlPlaneStartError(
        'balancer',
        `at ${server} did not pass /readyz through to the API servers (${r.status !== undefined ? `answer ${r.status}` : r.error})`,
        [],
        '',
      );
  }
  launcher.timings.balancer = launcher.sinceStart();
  log(`envtest: balancer ready on 127.0.0.1:${balancer.port}, round-robin over ${apiPorts.map((p) => `127.0.0.1:${p}`).join(', ')}`);
  return server;
}

/** The controller manager, like one beside the first server of an HA cluster: it talks to that one. */
async function startControllerManager(
  launcher: ComponentLauncher,
  a: {
    readonly creds: Credentials;
    readonly dir: string;
    readonly kubeconfigPath: string;
    readonly server: string;
    readonly firstApiServer: string;
  },
): Promise<void> {
  const cmKubeconfig = a.server === a.firstApiServer ? a.kubeconfigPath : path.join(a.dir, 'kubeconfig-kube-apiserver-1');
  if (cmKubeconfig !== a.kubeconfigPath)
    writeKubeconfig(cmKubeconfig, { server: a.firstApiServer, caCert: a.creds.caCert, token: a.creds.token });
  await launcher.launch({
    binary: 'kube-controller-manager',
    portCount: 1,
    argsFor: ([p]) => controllerManagerArgs(a.creds, cmKubeconfig, p!),
    url: ([p]) => `https://127.0.0.1:${p}/healthz`,
    probe: {},
  });
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
