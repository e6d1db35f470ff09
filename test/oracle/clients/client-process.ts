/**
 * Running a real client as a child process next to the in-process reference server: always
 * asynchronous (the server must keep answering), always bounded by a timeout, always reaped.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8', timeout: 10_000 }).status === 0;

/** kubectl pointed at `server` and nothing else (no kubeconfig of the machine leaks in). */
const env = () => ({ ...process.env, KUBECONFIG: '/dev/null' });
// A discovery cache of this process only: servers come and go on reused ports, and a cache keyed by
// host:port from an earlier run would hide the types a server defines now.
const cacheDir = mkdtempSync(path.join(tmpdir(), 'kubectl-cache-'));
/** Removes the discovery cache (call in afterAll of a file that ran kubectl). */
export const removeKubectlCache = () => rmSync(cacheDir, { recursive: true, force: true });
const common = (server: string) => [`--server=${server}`, `--cache-dir=${cacheDir}`];

export const runKubectl = (server: string, args: readonly string[], timeoutMs = 20_000) =>
  new Promise<Ran>((resolve) => {
    execFile(
      'kubectl',
      [...common(server), ...args],
      { encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL', env: env() },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });

/** A long-running kubectl (a watch): its output so far, a way to wait for text, and a reaper. */
export interface Background {
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves once `pattern` is in the chosen stream; rejects when the process ends or time is up. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Kills and waits for the exit (idempotent). */
  stop(): Promise<void>;
}

export function startKubectl(server: string, args: readonly string[], hardLimitMs = 30_000): Background {
  const child: ChildProcess = spawn('kubectl', [...common(server), ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exited = false;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    notify();
  });
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      notify();
      resolve();
    }),
  );
  // The hard limit: a forgotten or hung watch cannot outlive the test run.
  const limit = setTimeout(() => child.kill('SIGKILL'), hardLimitMs);
  const text = (s: 'stdout' | 'stderr') => (s === 'stdout' ? out : err);
  return {
    stdout: () => out,
    stderr: () => err,
    waitFor: (stream, pattern, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(text(stream))) finish();
          else if (exited) finish(new Error(`kubectl exited before ${pattern} appeared\nstdout: ${out}\nstderr: ${err.slice(-2000)}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`timed out waiting for ${pattern}\nstdout: ${out}\nstderr: ${err.slice(-2000)}`)),
          timeoutMs,
        );
        const finish = (e?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (e) reject(e);
          else resolve();
        };
        listeners.add(check);
        check();
      }),
    stop: async () => {
      clearTimeout(limit);
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
  };
}
