/**
 * The controller daemon as a target (docs/architecture.md "Targets and protocols": `--controller-daemon 'CMD'`).
 * A launcher starts the daemon with extra flags; this module watches one start: it exits, or its
 * /healthz answers on the port the suite chose, or it does neither within the start timeout (hung: an
 * error, never a pass). Every start is stopped and reaped before the case ends.
 */
import type { ProfileName } from '../../reference/profile.ts';
import { InfrastructureError } from '../transport/index.ts';
import { answerPace, daemonPace, stretched, type Pace } from '../transport/index.ts';
import { spawnChild } from './spawner.ts';
import { probe } from './daemon-probes.ts';

// The probes and the daemon's files were part of this module; their users take them from here still.
export { freePort, handshakePatiently, probe, probePatiently, tlsHandshake } from './daemon-probes.ts';
export type { Handshake, PatientProbe } from './daemon-probes.ts';
export { certificatesIn, kubeconfigJson, kubeconfigText, tempDir, writeCertPair } from './daemon-files.ts';

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
   * For starts judged by what the daemon makes of its flags (it serves, refuses or ignores them): the
   * reference daemon's own code in this process, with no process boot. Its exit code is the one its
   * process exits with (main.ts exits with what startDaemon returns, as this launcher reports it).
   * --help and --version stay `launcher` starts: a process that prints and ends by itself is what
   * they are about, and they keep the daemon's own process in every run. Absent for a daemon under
   * test given by command or launcher: every start of it is then a `launcher` start. Made for the
   * profile a check starts it with (the run's), so preparing the daemon reads none of its flag model.
   */
  readonly startLauncher?: (profile: ProfileName) => DaemonLauncher;
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
  /** See ControllerDaemonTarget.startLauncher. */
  readonly startLauncher?: (profile: ProfileName) => DaemonLauncher;
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
export async function observeStart(
  dp: DaemonProcess,
  port: number,
  t: { startTimeoutMs: number; settleMs?: number; waitFor200?: boolean; pace?: Pace; answers?: Pace },
): Promise<StartObservation> {
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
        const settled: { code: number | null } | undefined = await Promise.race([
          dp.exited,
          sleep(stretched(t.pace, t.settleMs)).then(() => undefined),
        ]);
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
export async function runToExit(
  l: DaemonLauncher,
  args: readonly string[],
  timeoutMs: number,
  pace?: Pace,
): Promise<{ code: number | null; output: string }> {
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

/** The target a check sees, from the settings the CLI hands over. */
export function daemonTarget(s: ControllerDaemonSettings): ControllerDaemonTarget {
  return {
    launcher: s.launcher ?? processLauncher(s.command, undefined, s.display ?? s.command),
    startLauncher: s.startLauncher,
    kubeconfigPath: s.kubeconfigPath,
    apiServerUrl: s.apiServerUrl,
    startTimeoutMs: s.startTimeoutMs,
    settleMs: s.settleMs,
    leaseTimeoutMs: s.leaseTimeoutMs,
    pace: daemonPace(),
    answers: answerPace(),
  };
}
