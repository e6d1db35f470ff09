/**
 * What was started is always stopped: by `stop()`, when a start fails, on SIGINT/SIGTERM/SIGHUP (unless
 * the caller takes those over once started), and by a process 'exit' hook as the last resort. The
 * private folder goes with them.
 */
import { rmSync } from 'node:fs';
import type { Balancer } from './balancer.ts';
import type { Component } from './component.ts';

export interface ComponentsLifetime {
  /** The components running, in start order (the launcher adds and removes them). */
  readonly running: Component[];
  balancer?: Balancer;
  /** Stops everything and removes the folder; idempotent. */
  stop(): Promise<{ ms: number }>;
  /** From now on the caller handles signals (and calls stop()). */
  releaseSignals(): void;
}

export function guardComponents(dir: string): ComponentsLifetime {
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
  const life: ComponentsLifetime = {
    running,
    stop: () =>
      (stopped ??= (async () => {
        const t0 = Date.now();
        // Reverse start order: the controller manager and API servers still reach etcd while they stop;
        // the balancer (started after the servers) goes first among them, so no client meets a stopping server.
        const reversed = [...running].reverse();
        const cm = reversed.filter((c) => c.name === 'kube-controller-manager');
        for (const c of cm) await c.stop();
        await life.balancer?.stop();
        for (const c of reversed.filter((x) => !cm.includes(x))) await c.stop();
        rmSync(dir, { recursive: true, force: true });
        process.removeListener('exit', onExit);
        removeSignalGuard();
        return { ms: Date.now() - t0 };
      })()),
    releaseSignals: () => {
      removeSignalGuard();
      removeSignalGuard = () => undefined;
    },
  };
  return life;
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
