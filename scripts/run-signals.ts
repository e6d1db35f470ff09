/**
 * SIGINT and SIGTERM as `svc-conformance run` hears them (runner/phases/stop.ts decides what each
 * does to the run): the first stops it, a second while it stops hurries it, a third ends the process.
 * The process ends here, never in the runner: a hurried run gets HURRIED_EXIT_MS to write its reports.
 */
import type { RunSignals } from '../runner/executor.ts';
import type { RunPlan } from '../runner/plan.ts';
import { HURRIED_EXIT_MS } from '../runner/run-stop.ts';

export function processSignals(plan: RunPlan, log: (line: string) => void): RunSignals {
  const { runId, cleanupCommand } = plan;
  return {
    listen: (on) => {
      process.on('SIGINT', on);
      process.on('SIGTERM', on);
      return () => {
        process.removeListener('SIGINT', on);
        process.removeListener('SIGTERM', on);
      };
    },
    hurried: (signal, exitCode) => {
      log(
        `svc-conformance: ${signal} while stopping: no more waiting; the reports and what run ${runId} leaves follow (once more to exit at once)`,
      );
      if (cleanupCommand !== undefined) log(`svc-conformance: remove what run ${runId} leaves with: ${cleanupCommand}`);
      // Whatever hangs (a target that holds the last listing), the process ends.
      setTimeout(() => {
        log(`svc-conformance: run ${runId} could not finish its reports within ${HURRIED_EXIT_MS / 1000} s of ${signal}; exiting`);
        process.exit(exitCode);
      }, HURRIED_EXIT_MS).unref();
    },
    aborted: (signal, exitCode) => {
      log(
        `svc-conformance: ${signal} again: exiting now${cleanupCommand !== undefined ? `; remove what run ${runId} left with: ${cleanupCommand}` : ''}`,
      );
      process.exit(exitCode);
    },
  };
}
