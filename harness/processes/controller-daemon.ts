/**
 * The controller daemon as a target (DESIGN.md "Targets and protocols": `--controller-daemon 'CMD'`).
 * A launcher starts the daemon with extra flags; this module watches one start: it exits, or its
 * /healthz answers on the port the suite chose, or it does neither within the start timeout (hung: an
 * error, never a pass). Every start is stopped and reaped before the case ends.
 */
import { createServer } from 'node:net';
import { request, type RequestOptions } from 'node:https';
import { connect as tlsConnect, createSecureContext, type SecureContext, type SecureVersion } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InfrastructureError } from '../transport/index.ts';
import { answerPace, daemonPace, stretched, type Pace } from '../transport/index.ts';
import { selfSignedCertArgs } from './self-signed.ts';
import { spawnChild } from './spawner.ts';

/** One started daemon. `exited` settles when it ends (by itself or after `stop`). */
export interface DaemonProcess {
  /** performance.now() at launch: how long a start took is what the daemon pace learns from. */
  readonly launchedAt: number;
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
  /**
   * For starts only a serving daemon passes (every exit fails them, whatever its code): the reference
   * daemon's own code in this process, with no process boot. Absent for a daemon under test given by
   * command or launcher: every start of it is then a `launcher` start.
   */
  readonly servingLauncher?: DaemonLauncher;
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
  /**
   * How slow this daemon starts on this machine now (harness/transport/pace.ts): every wait above is the
   * nominal value stretched by it. Absent in hand-built targets: the nominal values then.
   */
  readonly pace?: Pace;
  /** How late a serving daemon answers (probes, handshakes): the first timeout of each probe stretches by it. */
  readonly answers?: Pace;
}

/** What the executor hands the check stage about the daemon under test. */
export interface ControllerDaemonSettings {
  readonly command: string;
  /** Starts it some other way than `command` as a process (the self-tests' in-process reference daemon). */
  readonly launcher?: DaemonLauncher;
  /** The command shown in counterexamples when `command` lives only as long as the run (a bundle). */
  readonly display?: string;
  /** See ControllerDaemonTarget.servingLauncher; ignored when `launcher` is given. */
  readonly servingLauncher?: DaemonLauncher;
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

/** Runs `CMD args...` as a child process (no shell), started through the spawn helper (harness/processes/spawner.ts). */
export function processLauncher(command: string, graceMs = 3000, display = command): DaemonLauncher {
  const argv = splitCommand(command);
  if (argv.length === 0) throw new Error('empty --controller-daemon command');
  return {
    display,
    launch(args) {
      let out = '';
      const launchedAt = performance.now();
      const child = spawnChild(argv[0]!, [...argv.slice(1), ...args], { onOutput: (s) => void (out += s), capChars: OUTPUT_CAP });
      const exited = child.exited;
      let gone = false;
      void exited.then(() => (gone = true));
      return {
        launchedAt,
        exited,
        output: () => out,
        async stop() {
          if (gone) return;
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await Promise.race([exited, child.lost]);
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

/**
 * One TLS context for every probe: the certificate is not verified, so nothing differs between them,
 * and making a context per connection was most of a probe's cost.
 */
let probeTls: SecureContext | undefined;

/**
 * GET https://127.0.0.1:port/path without verifying the (self-signed) certificate: status, or undefined
 * when nothing answers. How long an answer took is noted in `answers`.
 */
export function probe(port: number, path: string, timeoutMs = 1000, answers?: Pace): Promise<number | undefined> {
  const t0 = performance.now();
  probeTls ??= createSecureContext();
  return new Promise((resolve) => {
    // `secureContext` is tls.connect's; https passes its options on to it.
    const options: RequestOptions & { secureContext?: SecureContext } = { host: '127.0.0.1', port, path, method: 'GET', rejectUnauthorized: false, secureContext: probeTls, timeout: timeoutMs };
    const req = request(options, (res) => {
      answers?.note(performance.now() - t0);
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

/** What a patient probe saw: the status, or nothing within the longest timeout it tried. */
export interface PatientProbe {
  readonly status: number | undefined;
  /** The timeout of the last attempt, ms (named in an inconclusive verdict). */
  readonly waitedMs: number;
}

/**
 * `probe`, asked again with a doubled timeout while nothing answers (`attempts` tries), the first
 * timeout stretched by how late the daemon answered lately: an answer that comes late on a busy
 * machine is still an answer, and no answer at all decides nothing (issue 24).
 */
export async function probePatiently(port: number, path: string, firstTimeoutMs: number, answers?: Pace, attempts = 3): Promise<PatientProbe> {
  let timeoutMs = stretched(answers, firstTimeoutMs);
  for (let i = 1; ; i++, timeoutMs *= 2) {
    const status = await probe(port, path, timeoutMs, answers);
    if (status !== undefined || i >= attempts) return { status, waitedMs: timeoutMs };
  }
}

export type StartObservation =
  | { readonly kind: 'exited'; readonly code: number | null; readonly output: string }
  /** /healthz answered (status given) and the daemon is still running. */
  | { readonly kind: 'serving'; readonly healthz: number; readonly output: () => string }
  | { readonly kind: 'hung'; readonly output: string; readonly waitedMs: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the daemon and watches until it exits, serves /healthz on `port`, or the timeout passes.
 * With `settleMs`, a daemon that serves is given that long to exit still (an invalid command line may
 * be refused after the server is up). With `waitFor200`, a /healthz that answers 5xx (still starting)
 * is polled again until it answers otherwise or the timeout, then reported as serving with its last status.
 * The daemon is left running only for `serving`; the caller stops it.
 * Every wait is stretched by `pace` (the slowest recent start), re-read on every round so starts
 * ending beside this one can lengthen it; how long this start took is noted there in turn.
 */
export async function observeStart(dp: DaemonProcess, port: number, t: { startTimeoutMs: number; settleMs?: number; waitFor200?: boolean; pace?: Pace; answers?: Pace }): Promise<StartObservation> {
  // A holder, not a `let`: the callback sets it while this function awaits.
  const seen: { exit?: { code: number | null } } = {};
  void dp.exited.then((e) => (seen.exit = e));
  const deadline = () => dp.launchedAt + stretched(t.pace, t.startTimeoutMs);
  const noted = <T>(obs: T): T => {
    t.pace?.note(performance.now() - dp.launchedAt);
    return obs;
  };
  let lastStatus: number | undefined;
  // A connection accepted but not answered within the probe's timeout doubles it (a busy daemon).
  let probeMs = stretched(t.answers, 500);
  while (performance.now() < deadline()) {
    if (seen.exit) return noted({ kind: 'exited', code: seen.exit.code, output: dp.output() });
    const asked = performance.now();
    const status = await probe(port, '/healthz', Math.max(100, Math.min(probeMs, deadline() - asked)), t.answers);
    const exitedMeanwhile = seen.exit as { code: number | null } | undefined;
    if (exitedMeanwhile) return noted({ kind: 'exited', code: exitedMeanwhile.code, output: dp.output() });
    if (status === undefined && performance.now() - asked >= probeMs) probeMs *= 2;
    // Only a 5xx says "still starting"; a 4xx (403: not authorized) will not turn into 200 by waiting.
    if (status !== undefined && t.waitFor200 && status >= 500) lastStatus = status;
    else if (status !== undefined) {
      noted(undefined);
      if (t.settleMs) {
        const settled: { code: number | null } | undefined = await Promise.race([dp.exited, sleep(stretched(t.pace, t.settleMs)).then(() => undefined)]);
        if (settled) return { kind: 'exited', code: settled.code, output: dp.output() };
      }
      return { kind: 'serving', healthz: status, output: () => dp.output() };
    }
    await sleep(100);
  }
  if (lastStatus !== undefined) return noted({ kind: 'serving', healthz: lastStatus, output: () => dp.output() });
  const waitedMs = Math.round(performance.now() - dp.launchedAt);
  await dp.stop();
  return { kind: 'hung', output: dp.output(), waitedMs };
}

/** A run that should end by itself (--help, --version) still running when its window passed. */
export class DaemonDidNotExit extends InfrastructureError {
  constructor(
    message: string,
    readonly waitedMs: number,
    readonly output: string,
  ) {
    super(message);
  }
}

/** Runs the daemon to completion (for --help); a daemon still running after the (stretched) timeout is an error. */
export async function runToExit(l: DaemonLauncher, args: readonly string[], timeoutMs: number, pace?: Pace): Promise<{ code: number | null; output: string }> {
  const dp = l.launch(args);
  const seen: { exit?: { code: number | null } } = {};
  void dp.exited.then((e) => (seen.exit = e));
  while (!seen.exit && performance.now() < dp.launchedAt + stretched(pace, timeoutMs)) await Promise.race([dp.exited, sleep(100)]);
  if (!seen.exit) {
    const waited = Math.round(performance.now() - dp.launchedAt);
    await dp.stop();
    throw new DaemonDidNotExit(`${l.display} ${args.join(' ')} did not exit within ${waited} ms`, waited, dp.output());
  }
  pace?.note(performance.now() - dp.launchedAt);
  return { code: seen.exit.code, output: dp.output() };
}

const calibrations = new WeakMap<Pace, Promise<void>>();
const calibrationRuns = new WeakMap<Pace, { code: number | null; output: string }>();

/**
 * Before the first start a pace has seen, one `--version` run tells how long a start of this daemon
 * takes on this machine now, so the first starts of a run on a busy machine are not called hung at the
 * nominal timeout. What it answered is kept for the daemon-version check (`takeCalibrationRun`).
 */
export function calibrate(t: ControllerDaemonTarget): Promise<void> {
  const pace = t.pace;
  if (!pace || pace.observations > 0) return Promise.resolve();
  let once = calibrations.get(pace);
  if (!once) {
    const t0 = performance.now();
    once = runToExit(t.launcher, ['--version'], pace.cap(t.startTimeoutMs)).then(
      (r) => {
        pace.note(performance.now() - t0);
        calibrationRuns.set(pace, r);
      },
      () => undefined,
    );
    calibrations.set(pace, once);
  }
  return once;
}

/**
 * The calibration's `--version` run, to one taker: the same command line the daemon-version check
 * starts, so it judges that process rather than start another. Undefined when there was none (the
 * pace had observations already, or the run did not exit) or it was taken.
 */
export function takeCalibrationRun(t: ControllerDaemonTarget): { code: number | null; output: string } | undefined {
  if (!t.pace) return undefined;
  const r = calibrationRuns.get(t.pace);
  calibrationRuns.delete(t.pace);
  return r;
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

/**
 * The same kubeconfig as JSON (which is YAML: every kubeconfig reader takes it), for the daemon the run
 * starts dozens of times: the reference daemon reads a JSON kubeconfig without loading a YAML parser.
 */
export function kubeconfigJson(server: string, token?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'target', cluster: { server } }],
    users: [{ name: 'suite', user: token === undefined ? {} : { token } }],
    contexts: [{ name: 'target', context: { cluster: 'target', user: 'suite' } }],
    'current-context': 'target',
  });
}

/** The target a check sees, from the settings the CLI hands over. */
export function daemonTarget(s: ControllerDaemonSettings): ControllerDaemonTarget {
  return {
    launcher: s.launcher ?? processLauncher(s.command, undefined, s.display ?? s.command),
    // A launcher of the caller's (a daemon with planted faults) starts everything.
    ...(s.servingLauncher && !s.launcher ? { servingLauncher: s.servingLauncher } : {}),
    kubeconfigPath: s.kubeconfigPath,
    ...(s.apiServerUrl ? { apiServerUrl: s.apiServerUrl } : {}),
    startTimeoutMs: s.startTimeoutMs,
    settleMs: s.settleMs,
    leaseTimeoutMs: s.leaseTimeoutMs,
    pace: daemonPace(),
    answers: answerPace(),
  };
}

/** `timedOut`: no answer at all within the timeout, which is neither a refusal nor an acceptance. */
export type Handshake = { readonly ok: true; readonly protocol: string; readonly fingerprint256: string } | { readonly ok: false; readonly error: string; readonly timedOut?: true };

/** A TLS handshake with 127.0.0.1:port (certificate not verified): the protocol and the served certificate, or why it failed. */
export function tlsHandshake(port: number, o: { maxVersion?: SecureVersion; minVersion?: SecureVersion; servername?: string; ciphers?: string; timeoutMs?: number } = {}): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port,
      rejectUnauthorized: false,
      ...(o.maxVersion ? { maxVersion: o.maxVersion } : {}),
      ...(o.minVersion ? { minVersion: o.minVersion } : {}),
      ...(o.servername ? { servername: o.servername } : {}),
      ...(o.ciphers ? { ciphers: o.ciphers } : {}),
    });
    const timeoutMs = o.timeoutMs ?? 3000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy(new Error(`no handshake answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve({ ok: true, protocol: socket.getProtocol() ?? '', fingerprint256: socket.getPeerX509Certificate()?.fingerprint256 ?? '' });
      socket.end();
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: e.message, ...(timedOut ? { timedOut: true as const } : {}) });
    });
  });
}

/**
 * `tlsHandshake`, tried again with a doubled timeout while it gets no answer at all (`attempts` tries),
 * the first timeout stretched by `answers`, where how long each answered handshake took is noted.
 */
export async function handshakePatiently(port: number, o: Parameters<typeof tlsHandshake>[1] & { timeoutMs: number }, answers?: Pace, attempts = 3): Promise<Handshake> {
  let timeoutMs = stretched(answers, o.timeoutMs);
  for (let i = 1; ; i++, timeoutMs *= 2) {
    const t0 = performance.now();
    const h = await tlsHandshake(port, { ...o, timeoutMs });
    if (!(!h.ok && h.timedOut)) answers?.note(performance.now() - t0);
    if (h.ok || !h.timedOut || i >= attempts) return h;
  }
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
 * SNI check hands them to the daemon), forked by the spawn helper and awaited (the run's event loop
 * goes on meanwhile). Undefined when openssl is not available or fails.
 */
export async function writeCertPair(dir: string, stem: string, cn: string): Promise<{ cert: string; key: string; fingerprint256: string } | undefined> {
  const cert = path.join(dir, `${stem}.crt`);
  const key = path.join(dir, `${stem}.key`);
  const child = spawnChild('openssl', selfSignedCertArgs({ keyFile: key, certFile: cert, commonName: cn, days: 2 }), { onOutput: () => undefined, capChars: 0 });
  const done = await Promise.race([child.exited, child.lost.then(() => undefined)]);
  if (done?.code !== 0) return undefined;
  return { cert, key, fingerprint256: new X509Certificate(readFileSync(cert)).fingerprint256 };
}
