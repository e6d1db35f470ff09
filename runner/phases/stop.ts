/**
 * --timeout, SIGTERM from CI, Ctrl-C: no check starts, running ones are abandoned after a grace, the
 * result is published with what the run has, then cleanup (bounded). The signals are the command
 * line's (RunEdge.signals): it hears them and ends the process when a run is hurried or aborted.
 */
import type { RunSignals } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import { registerRunDeadline } from '../../harness/transport/index.ts';
import { STOP_EXIT, type SignalListener, type StopReason } from '../run-stop.ts';

export type ArmedStop = RunStop & { readonly deadline: number };

export function armStop(plan: RunPlan, started: number, signals: RunSignals | undefined, log: (line: string) => void): ArmedStop {
  const exitCode = (signal: NodeJS.Signals) => STOP_EXIT[stop.reason ?? (signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM')];
  const stop = armRunStop(Math.max(0, plan.budgets.timeoutMs - (Date.now() - started)), {
    onHurry: (signal) => signals?.hurried(signal, exitCode(signal)),
    onAbort: (signal) => signals?.aborted(signal, exitCode(signal)),
    ...(signals !== undefined ? { listen: signals.listen } : {}),
  });
  void stop.stopped.then((reason) => log(`svc-conformance: ${reason}: stopping run ${plan.runId}; reports follow`));
  return stop;
}

export interface RunStop {
  /** Set once the run must stop; first cause wins. */
  readonly reason: StopReason | undefined;
  /** Settles with the reason when the run must stop; never rejects. */
  readonly stopped: Promise<StopReason>;
  /** Set by a signal that comes while the run is already stopping: no more grace, no more cleanup. */
  readonly hurriedBy: NodeJS.Signals | undefined;
  /** Settles with that signal; never rejects. */
  readonly hurried: Promise<NodeJS.Signals>;
  stop(reason: StopReason): void;
  /** Removes the timer and the signal handlers. */
  dispose(): void;
}

/**
 * Arms the budget, and the signals when `on.listen` hears them (the command line's process; an
 * in-process run hears none). A signal while the run is already stopping (CI's cancel: SIGINT, then
 * SIGTERM seconds later; a person's second Ctrl-C) hurries it: the running checks lose their grace and
 * the cleanup its wait, but the reports and the list of what is left still come (`onHurry`). Any
 * signal after that ends the process at once (`onAbort`).
 */
export function armRunStop(
  timeoutMs: number,
  on: {
    readonly onHurry: (signal: NodeJS.Signals) => void;
    readonly onAbort: (signal: NodeJS.Signals) => void;
    readonly listen?: SignalListener;
  },
  now: () => number = Date.now,
): RunStop & { readonly deadline: number } {
  let reason: StopReason | undefined;
  let hurriedBy: NodeJS.Signals | undefined;
  let settle!: (r: StopReason) => void;
  let settleHurry!: (s: NodeJS.Signals) => void;
  const stopped = new Promise<StopReason>((resolve) => (settle = resolve));
  const hurried = new Promise<NodeJS.Signals>((resolve) => (settleHurry = resolve));
  const stop = (r: StopReason) => {
    if (reason !== undefined) return;
    reason = r;
    settle(r);
  };
  // setTimeout holds at most 2^31-1 ms; a longer budget is as good as none.
  const timer = timeoutMs < 2 ** 31 ? setTimeout(() => stop('run timeout'), timeoutMs) : undefined;
  const deadline = now() + timeoutMs;
  const unregister = registerRunDeadline(deadline);
  timer?.unref();
  const onSignal = (signal: NodeJS.Signals) => {
    if (reason === undefined) return stop(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    if (hurriedBy !== undefined) return on.onAbort(signal);
    hurriedBy = signal;
    on.onHurry(signal);
    settleHurry(signal);
  };
  const unlisten = on.listen?.(onSignal);
  return {
    get reason() {
      return reason;
    },
    get hurriedBy() {
      return hurriedBy;
    },
    stopped,
    hurried,
    stop,
    deadline,
    dispose: () => {
      unregister();
      if (timer) clearTimeout(timer);
      unlisten?.();
    },
  };
}
