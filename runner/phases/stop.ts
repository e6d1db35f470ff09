/**
 * --timeout, SIGTERM from CI, Ctrl-C: no check starts, running ones are abandoned after a grace, the
 * result is published with what the run has, then cleanup (bounded). A second signal hurries the run,
 * a third ends the process at once.
 */
import { armRunStop, HURRIED_EXIT_MS, STOP_EXIT, type RunStop } from '../run-stop.ts';
import type { RunPlan } from '../plan.ts';

export type ArmedStop = RunStop & { readonly deadline: number };

export function armStop(plan: RunPlan, started: number, cleanupCommand: string | undefined, log: (line: string) => void): ArmedStop {
  const { runId } = plan;
  const exitNow = (signal: NodeJS.Signals) => process.exit(STOP_EXIT[stop.reason ?? (signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM')]);
  const stop = armRunStop(Math.max(0, plan.budgets.timeoutMs - (Date.now() - started)), {
    onHurry: (signal) => {
      log(`svc-conformance: ${signal} while stopping: no more waiting; the reports and what run ${runId} leaves follow (once more to exit at once)`);
      if (cleanupCommand !== undefined) log(`svc-conformance: remove what run ${runId} leaves with: ${cleanupCommand}`);
      // Whatever hangs (a target that holds the last listing), the process ends.
      setTimeout(() => {
        log(`svc-conformance: run ${runId} could not finish its reports within ${HURRIED_EXIT_MS / 1000} s of ${signal}; exiting`);
        exitNow(signal);
      }, HURRIED_EXIT_MS).unref();
    },
    onAbort: (signal) => {
      log(`svc-conformance: ${signal} again: exiting now${cleanupCommand !== undefined ? `; remove what run ${runId} left with: ${cleanupCommand}` : ''}`);
      exitNow(signal);
    },
  });
  void stop.stopped.then((reason) => log(`svc-conformance: ${reason}: stopping run ${runId}; reports follow`));
  return stop;
}
