/** The runs of test:upstream: each `svc-conformance run` a child in its own process group, judged from its report; signals forwarded to it. */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SummaryJson } from '../../reports/summary-json.ts';
import { replayCommand, type PlannedRun } from './plan.ts';
import { judgeRun, seconds, type RunOutcome } from './outcome.ts';
import { say } from './console.ts';

/** Far above any run of the plan (the slowest takes a few minutes on two busy cores). */
const RUN_TIMEOUT_MS = 30 * 60_000;
/** How long an interrupted run has to clean up before it is killed. */
const STOP_GRACE_MS = 60_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = path.join(root, 'bin', 'svc-conformance.mjs');

/**
 * Ctrl-C / SIGTERM: the running suite gets the signal once (it cleans up what it created, then
 * exits), then the control plane stops. Runs are in their own process groups, so a terminal's
 * Ctrl-C reaches them only through here.
 */
export function forwardSignals(): {
  readonly interrupted: { signal?: NodeJS.Signals };
  running(child: ReturnType<typeof spawn> | undefined): void;
  stop(): void;
} {
  const interrupted: { signal?: NodeJS.Signals } = {};
  let current: ReturnType<typeof spawn> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted.signal) return;
    interrupted.signal = signal;
    say(`test:upstream: ${signal}: stopping`);
    const pid = current?.pid;
    if (pid === undefined) return;
    signalGroup(pid, signal);
    setTimeout(() => signalGroup(pid, 'SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    interrupted,
    running: (child) => {
      current = child;
    },
    stop: () => {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}

/** Run number `n` of the invocation, in a fresh reports folder, judged; says what it did and how to replay a failed fresh seed. */
export async function runAndJudge(
  run: PlannedRun,
  n: number,
  kubeconfig: string,
  assetsDir: string,
  started: (child: ReturnType<typeof spawn>) => void,
): Promise<RunOutcome> {
  rmSync(run.reportsDir, { recursive: true, force: true });
  mkdirSync(run.reportsDir, { recursive: true });
  say(`[${n}] ${run.name}: svc-conformance ${displayArgs(run, kubeconfig)}`);
  const t0 = Date.now();
  const exitCode = await runOnce(run, started);
  const outcome = judgeRun(run, exitCode, Date.now() - t0, ...readSummary(run.reportsDir));
  say(
    `[${n}] ${run.name}: ${outcome.ok ? 'ok' : 'FAIL'} in ${seconds(outcome.wallMs)} (${outcome.totals?.passed ?? 0} passed, ${outcome.regressions.length} failed beyond expectations, ${outcome.known.length} known, ${outcome.errors.length} error; output in ${path.relative(process.cwd(), path.join(run.reportsDir, 'output.txt'))})`,
  );
  if (!outcome.ok && run.fresh) say(`[${n}] ${run.name}: replay: ${replayCommand(run, assetsDir)}`);
  return outcome;
}

/** One `svc-conformance run` in its own process group, its output to <reports>/output.txt. */
function runOnce(run: PlannedRun, started: (child: ReturnType<typeof spawn>) => void): Promise<number | null> {
  const fd = openSync(path.join(run.reportsDir, 'output.txt'), 'w');
  const child = spawn(process.execPath, [bin, ...run.args], { stdio: ['ignore', fd, fd], detached: true, cwd: root });
  closeSync(fd);
  started(child);
  // A run that hangs must not hang CI: stopped like an interrupted one, and judged (no report: failed).
  const limit = setTimeout(() => {
    say(`test:upstream: ${run.name} still running after ${seconds(RUN_TIMEOUT_MS)}: stopping it`);
    if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
    setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS).unref();
  }, RUN_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('error', () => resolve(null));
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve(code);
    });
  });
}

function readSummary(dir: string): [SummaryJson | undefined, string | undefined] {
  const file = path.join(dir, 'summary.json');
  try {
    return [JSON.parse(readFileSync(file, 'utf8')) as SummaryJson, undefined];
  } catch (e) {
    return [
      undefined,
      `${path.relative(process.cwd(), file)}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not written (see output.txt)' : (e as Error).message}`,
    ];
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The run's arguments for a person: the private kubeconfig path shortened, nothing secret in any case. */
function displayArgs(run: PlannedRun, kubeconfig: string): string {
  return run.args
    .map((a) => (a === kubeconfig ? '<envtest-kubeconfig>' : a.includes(' ') ? JSON.stringify(a) : a))
    .join(' ')
    .split(`${root}/`)
    .join('');
}
