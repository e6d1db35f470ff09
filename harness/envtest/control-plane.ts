/**
 * An envtest-style upstream control plane on loopback: etcd, kube-apiserver (RBAC, one admin token) and,
 * when its binary is there, kube-controller-manager (namespace deletion needs its namespace controller).
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
import { freePort } from '../controller-daemon.ts';
import { resolveAssets, type Assets, type BinaryName } from './assets.ts';
import { logTail, startComponent, type Component } from './component.ts';
import { makeCredentials, writeKubeconfig, type Credentials } from './credentials.ts';
import { waitReady, type ReadyOutcome } from './readiness.ts';

export interface ControlPlaneOptions {
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
}

export interface ControlPlane {
  /** https://127.0.0.1:PORT */
  readonly server: string;
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
  /** Stops every component (controller manager, API server, etcd), removes the folder; idempotent. */
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

  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-envtest-'));
  const logDir = o.logDir !== undefined ? path.resolve(o.logDir) : dir;
  const running: Component[] = [];
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
      // Reverse start order: the controller manager and API server still reach etcd while they stop.
      for (const c of [...running].reverse()) await c.stop();
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
    const launch = async (name: BinaryName, argsFor: (ports: number[]) => string[], portCount: number, url: (ports: number[]) => string, probe: { ca?: string; token?: string }): Promise<number[]> => {
      for (let attempt = 1; ; attempt++) {
        const mine = await distinctPorts(portCount, ports);
        const logFile = path.join(logDir, `${name}.log`);
        const c = startComponent(name, assets.binaries[name]!, argsFor(mine), logFile);
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

    const [etcdClient] = await launch('etcd', ([client, peer]) => etcdArgs(dir, client!, peer!), 2, ([client]) => `http://127.0.0.1:${client}/health`, {});
    const [apiPort] = await launch('kube-apiserver', ([p]) => apiServerArgs(creds, etcdClient!, p!, dir), 1, ([p]) => `https://127.0.0.1:${p}/readyz`, { ca: caPem, token: creds.token });
    const server = `https://127.0.0.1:${apiPort}`;
    const kubeconfigPath = path.join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfigPath, { server, caCert: creds.caCert, token: creds.token });
    if (withControllerManager) {
      await launch('kube-controller-manager', ([p]) => controllerManagerArgs(creds, kubeconfigPath, p!), 1, ([p]) => `https://127.0.0.1:${p}/healthz`, {});
    }
    timings.total = Date.now() - started;
    if (o.stopOnSignals === false) {
      removeSignalGuard();
      removeSignalGuard = () => undefined;
    }
    return {
      server,
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

function apiServerArgs(c: Credentials, etcdClient: number, port: number, dir: string): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    '--bind-address=127.0.0.1',
    // Without it the server advertises the host's first address in the `kubernetes` Endpoints.
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${path.join(dir, 'apiserver-certs')}`,
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
