/**
 * One upstream component (etcd, kube-apiserver, kube-controller-manager) as a child process in its own
 * process group, its output written to a log file. Stopping signals the whole group (a component that
 * forked helpers loses them too): SIGTERM, then SIGKILL after a grace period, then waits until the
 * whole group is gone.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Component {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Settles when the process has exited (by itself or after `stop`). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the process is reaped. */
  stop(graceMs?: number): Promise<void>;
  /** Synchronous last resort (process 'exit' hook): SIGKILL to the group, no waiting. */
  killNow(): void;
}

export function startComponent(name: string, binary: string, args: readonly string[], logFile: string): Component {
  // A fresh log per start: the tail of a failed start is that start's own.
  const fd = openSync(logFile, 'w', 0o600);
  // detached: its own process group, so a signal to -pid reaches everything it started, and a Ctrl-C
  // in the terminal reaches only us (we stop the components in order, after the suites cleaned up).
  const child = spawn(binary, [...args], { stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', (e) => {
      done = true;
      resolve({ code: 127, signal: null });
      void e;
    });
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const pid = child.pid ?? -1;
  const signalGroup = (sig: NodeJS.Signals) => {
    if (pid <= 0) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const groupExists = () => {
    if (pid <= 0) return false;
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    name,
    pid,
    logFile,
    exited,
    hasExited: () => done,
    async stop(graceMs = 5_000) {
      // The leader may be gone while helpers it forked still run: signal the group regardless.
      signalGroup('SIGTERM');
      if (!done) {
        const force = setTimeout(() => signalGroup('SIGKILL'), graceMs);
        await exited;
        clearTimeout(force);
      }
      signalGroup('SIGKILL');
      // A signal is delivered asynchronously: wait (bounded) until no member of the group is left, so a
      // caller that next reuses the ports or the folder finds them free.
      for (let i = 0; i < 100 && groupExists(); i++) await new Promise((r) => setTimeout(r, 50));
    },
    killNow: () => signalGroup('SIGKILL'),
  };
}

/** The last `lines` lines of a log, each passed through `scrub` (secrets never reach an error). */
export function logTail(file: string, lines: number, scrub: (s: string) => string = (s) => s): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.trimEnd().split('\n').slice(-lines).map(scrub);
}
