/**
 * The controller daemon as a target (DESIGN.md "Targets and protocols": `--controller-daemon 'CMD'`).
 * A launcher starts the daemon with extra flags; this module watches one start: it exits, or its
 * /healthz answers on the port the suite chose, or it does neither within the start timeout (hung: an
 * error, never a pass). Every start is stopped and reaped before the case ends.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'node:https';
import { connect as tlsConnect, type SecureVersion } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InfrastructureError } from './exchange.ts';

/** One started daemon. `exited` settles when it ends (by itself or after `stop`). */
export interface DaemonProcess {
  readonly exited: Promise<{ code: number | null; signal?: string }>;
  output(): string;
  /** Asks it to stop (SIGTERM), forces it after a grace period, resolves once it is gone. */
  stop(): Promise<void>;
}

export interface DaemonLauncher {
  /** How a person runs it, for the command line to paste. */
  readonly display: string;
  launch(args: readonly string[]): DaemonProcess;
}

export interface ControllerDaemonTarget {
  readonly launcher: DaemonLauncher;
  /** Kubeconfig file pointing at the API server the daemon may use, passed as --svcconfig / --kubeconfig. */
  readonly kubeconfigPath: string;
  /**
   * Set when that API server is a private reference server rather than the run's target (external
   * runs): checks read what the daemon wrote (its Lease) from here, never from the user's cluster.
   */
  readonly apiServerUrl?: string;
  /** Longest wait for a start to exit or serve. */
  readonly startTimeoutMs: number;
  /** After /healthz answers, how long an invalid set still has to exit before it counts as accepted. */
  readonly settleMs: number;
  /** Longest wait for the leader Lease to appear once the daemon serves. */
  readonly leaseTimeoutMs: number;
}

/** Plain data for the CLI-to-suite hand-over (vitest clones settings into its workers). */
export interface ControllerDaemonSettings {
  readonly command: string;
  /** The command shown in counterexamples when `command` lives only as long as the run (a bundle). */
  readonly display?: string;
  readonly kubeconfigPath: string;
  readonly apiServerUrl?: string;
  readonly startTimeoutMs: number;
  readonly settleMs: number;
  readonly leaseTimeoutMs: number;
}

export const defaultDaemonTimings = { startTimeoutMs: 15_000, settleMs: 1_500, leaseTimeoutMs: 20_000 } as const;

/** `a 'b c' "d"` -> [a, b c, d]: quotes group, no other shell syntax. */
export function splitCommand(cmd: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g;
  let cur: string | undefined;
  let last = 0;
  for (const m of cmd.matchAll(re)) {
    const piece = m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!);
    const glued = m.index === last && cur !== undefined;
    if (glued) cur += piece;
    else {
      if (cur !== undefined) out.push(cur);
      cur = piece;
    }
    last = m.index + m[0].length;
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

/** A word quoted for a POSIX shell only when it needs it. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const OUTPUT_CAP = 64 * 1024;

/** Runs `CMD args...` as a child process (no shell). */
export function processLauncher(command: string, graceMs = 3000, display = command): DaemonLauncher {
  const argv = splitCommand(command);
  if (argv.length === 0) throw new Error('empty --controller-daemon command');
  return {
    display,
    launch(args) {
      let out = '';
      const child = spawn(argv[0]!, [...argv.slice(1), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      const add = (b: Buffer) => {
        if (out.length < OUTPUT_CAP) out += b.toString('utf8');
      };
      child.stdout.on('data', add);
      child.stderr.on('data', add);
      const exited = new Promise<{ code: number | null; signal?: string }>((resolve) => {
        child.once('error', (e) => {
          out += `\n(could not start: ${e.message})`;
          resolve({ code: 127 });
        });
        child.once('close', (code, signal) => resolve({ code, ...(signal ? { signal } : {}) }));
      });
      let gone = false;
      void exited.then(() => (gone = true));
      return {
        exited,
        output: () => out,
        async stop() {
          if (gone) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(t);
        },
      };
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** GET https://127.0.0.1:port/path without verifying the (self-signed) certificate: status, or undefined when nothing answers. */
export function probe(port: number, path: string, timeoutMs = 1000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

export type StartObservation =
  | { readonly kind: 'exited'; readonly code: number | null; readonly output: string }
  /** /healthz answered (status given) and the daemon is still running. */
  | { readonly kind: 'serving'; readonly healthz: number; readonly output: () => string }
  | { readonly kind: 'hung'; readonly output: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the daemon and watches until it exits, serves /healthz on `port`, or the timeout passes.
 * With `settleMs`, a daemon that serves is given that long to exit still (an invalid command line may
 * be refused after the server is up). With `waitFor200`, a /healthz that answers otherwise (still
 * starting) is polled again until 200 or the timeout, then reported as serving with its last status.
 * The daemon is left running only for `serving`; the caller stops it.
 */
export async function observeStart(dp: DaemonProcess, port: number, t: { startTimeoutMs: number; settleMs?: number; waitFor200?: boolean }): Promise<StartObservation> {
  // A holder, not a `let`: the callback sets it while this function awaits.
  const seen: { exit?: { code: number | null } } = {};
  void dp.exited.then((e) => (seen.exit = e));
  const deadline = Date.now() + t.startTimeoutMs;
  let lastStatus: number | undefined;
  while (Date.now() < deadline) {
    if (seen.exit) return { kind: 'exited', code: seen.exit.code, output: dp.output() };
    const status = await probe(port, '/healthz', 500);
    const exitedMeanwhile = seen.exit as { code: number | null } | undefined;
    if (exitedMeanwhile) return { kind: 'exited', code: exitedMeanwhile.code, output: dp.output() };
    if (status !== undefined && t.waitFor200 && status !== 200) lastStatus = status;
    else if (status !== undefined) {
      if (t.settleMs) {
        const settled: { code: number | null } | undefined = await Promise.race([dp.exited, sleep(t.settleMs).then(() => undefined)]);
        if (settled) return { kind: 'exited', code: settled.code, output: dp.output() };
      }
      return { kind: 'serving', healthz: status, output: () => dp.output() };
    }
    await sleep(100);
  }
  if (lastStatus !== undefined) return { kind: 'serving', healthz: lastStatus, output: () => dp.output() };
  await dp.stop();
  return { kind: 'hung', output: dp.output() };
}

/** Runs the daemon to completion (for --help); a daemon still running after the timeout is an error. */
export async function runToExit(l: DaemonLauncher, args: readonly string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  const dp = l.launch(args);
  const done: { code: number | null } | undefined = await Promise.race([dp.exited, sleep(timeoutMs).then(() => undefined)]);
  if (!done) {
    await dp.stop();
    throw new InfrastructureError(`${l.display} ${args.join(' ')} did not exit within ${timeoutMs} ms`);
  }
  return { code: done.code, output: dp.output() };
}

/**
 * A kubeconfig for a daemon to reach a reference API server (plain HTTP on loopback, no credentials):
 * the embedded target, or the private server an external run starts for the daemon.
 */
export function kubeconfigText(server: string, token?: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: target`,
    `  cluster: {server: ${JSON.stringify(server)}}`,
    'users:',
    '- name: suite',
    token === undefined ? '  user: {}' : `  user: {token: ${JSON.stringify(token)}}`,
    'contexts:',
    '- name: target',
    '  context: {cluster: target, user: suite}',
    'current-context: target',
    '',
  ].join('\n');
}

/** The target a check sees, from the settings the CLI hands over. */
export function daemonTarget(s: ControllerDaemonSettings): ControllerDaemonTarget {
  return { launcher: processLauncher(s.command, undefined, s.display ?? s.command), kubeconfigPath: s.kubeconfigPath, ...(s.apiServerUrl ? { apiServerUrl: s.apiServerUrl } : {}), startTimeoutMs: s.startTimeoutMs, settleMs: s.settleMs, leaseTimeoutMs: s.leaseTimeoutMs };
}

export type Handshake = { readonly ok: true; readonly protocol: string; readonly fingerprint256: string } | { readonly ok: false; readonly error: string };

/** A TLS handshake with 127.0.0.1:port (certificate not verified): the protocol and the served certificate, or why it failed. */
export function tlsHandshake(port: number, o: { maxVersion?: SecureVersion; minVersion?: SecureVersion; servername?: string; ciphers?: string; timeoutMs?: number } = {}): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...(o.maxVersion ? { maxVersion: o.maxVersion } : {}), ...(o.minVersion ? { minVersion: o.minVersion } : {}), ...(o.servername ? { servername: o.servername } : {}), ...(o.ciphers ? { ciphers: o.ciphers } : {}) });
    const timer = setTimeout(() => socket.destroy(new Error('handshake timed out')), o.timeoutMs ?? 3000);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve({ ok: true, protocol: socket.getProtocol() ?? '', fingerprint256: socket.getPeerX509Certificate()?.fingerprint256 ?? '' });
      socket.end();
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: e.message });
    });
  });
}

/** SHA-256 fingerprints of the certificates in the PEM files of a directory (the pair a daemon generated there). */
export function certificatesIn(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, f), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)) {
      try {
        out.push(new X509Certificate(m[0]).fingerprint256);
      } catch {
        // Not a certificate we can read: not the one served.
      }
    }
  }
  return out;
}

export function tempDir(stem: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `${stem}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A self-signed certificate and key for `cn` written to `dir` with the `openssl` command (the suite's
 * SNI check hands them to the daemon). Undefined when openssl is not available.
 */
export function writeCertPair(dir: string, stem: string, cn: string): { cert: string; key: string; fingerprint256: string } | undefined {
  const cert = path.join(dir, `${stem}.crt`);
  const key = path.join(dir, `${stem}.key`);
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-keyout', key, '-out', cert, '-subj', `/CN=${cn}`], { stdio: 'pipe' });
  } catch {
    return undefined;
  }
  return { cert, key, fingerprint256: new X509Certificate(readFileSync(cert)).fingerprint256 };
}
