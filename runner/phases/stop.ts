/**
 * --timeout, SIGTERM from CI, Ctrl-C: no check starts, running ones are abandoned after a grace, the
 * result is published with what the run has, then cleanup (bounded). The signals are the command
 * line's (RunEdge.signals): it hears them and ends the process when a run is hurried or aborted.
 */
import type { RunSignals } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import { armRunStop, STOP_EXIT, type RunStop } from '../run-stop.ts';

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
