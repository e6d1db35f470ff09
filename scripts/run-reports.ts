/**
 * What `svc-conformance run` does around the one executor (runner/executor.ts), wired where the command
 * line is: the live progress watching the checks, the expectations applied once the target's release is known, and the
 * reports made from what the executor returns (scripts/publish-run.ts). The command line hands
 * over a plan and gets this back as the executor's `RunIO`; nothing here calls back into it.
 */
import type { RunPlan } from '../runner/plan.ts';
import { processSignals } from './run-signals.ts';
import { directStage, type CheckStage } from '../runner/check-stage.ts';
import type { CheckRecord } from '../runner/results.ts';
import { invocationOf, targetIdentity, type RunReportOptions, type TargetIdentity } from '../reports/run-identity.ts';
import { excusedFailure } from '../reports/known-failures.ts';
import { expectationsForRun, type Expectations } from '../reports/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import { outcomeOfRecords, Progress } from '../reports/progress.ts';
import { reportRefusedRun } from '../reports/refused-run.ts';
import { version, type RunIO } from '../runner/executor.ts';
import { publish } from './publish-run.ts';
import type { RunInputs } from './run-inputs.ts';

/** The executor's RunIO for `run`, given what the run read before it started (scripts/run-inputs.ts). */
export function runReports(plan: RunPlan, inputs: RunInputs, o: RunReportOptions = {}): RunIO {
  // Every line of the run goes above the live status line once the checks run (reports/progress.ts).
  const progress = new Progress(process.stderr);
  const log = (line: string) => progress.line(line);
  const invocation = invocationOf(plan, o);
  // Named once the target answers; until then (a refused run never gets that far) from the plan.
  let identity: TargetIdentity | undefined;
  const identityOf = (server: string, answered?: { source?: string; reportedVersion?: string }): TargetIdentity =>
    answered !== undefined
      ? (identity = targetIdentity(plan, server, answered.source, answered.reportedVersion))
      : (identity ?? targetIdentity(plan, server));
  // Applied once the target's release is known.
  const { listed, baseline } = inputs;
  for (const w of listed?.warnings ?? []) log(`svc-conformance: warning: ${w}`);
  let expectations: Expectations | undefined;
  return {
    log,
    stage: progressStage(progress, (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r)),
    edge: {
      signals: processSignals(plan, log),
      checksDone: () => progress.end(),
      reachable: (release, target) => {
        const named = identityOf(target.server, target);
        progress.target(target.server, release, named.kind === 'embedded' ? named.description : target.source);
        if (listed) {
          expectations = expectationsForRun(listed, {
            scale: plan.settings.scale !== undefined,
            profile: plan.profile.name,
            capabilities: plan.expectations.capabilities,
            ...(release ? { release } : {}),
          });
          // Said up front: what the live "known failure" lines below are measured against.
          const n = expectations.knownFailures.length;
          log(
            `svc-conformance: expectations ${plan.expectations.files.join(', ')}: ${n} entr${n === 1 ? 'y holds' : 'ies hold'} for this target`,
          );
        }
        return (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r);
      },
      publish: async (run, print) =>
        (await publish(run, print, { expectations, baseline, require: o.require, identity: identityOf(run.server), invocation }, log))
          .verdict,
      refused: (line, run) =>
        reportRefusedRun({
          line,
          selected: plan.selection.selected,
          catalog,
          familyOf,
          profile: plan.profile.name,
          seed: plan.seed,
          server: run.server,
          nodeagentLoader: run.nodeagentLoader,
          target: identityOf(run.server),
          invocation,
          startedMs: run.startedAt,
          version: version(),
          reportsDir: plan.reports.dir,
          output: plan.reports.output,
          expectations,
        }),
    },
  };
}

/** The checks in this process, each told to the live progress as it starts and ends; `known` tells an excused failure. */
function progressStage(progress: Progress, known: (r: CheckRecord) => boolean): CheckStage {
  return directStage({
    events: {
      begin: (total) => progress.begin(total),
      checkStarted: (id) => progress.checkStarted(id),
      checkDone: (check, records, thrown) => progress.checkDone(check.suite, check.id, outcomeOfRecords(records, thrown, known)),
      line: (text) => progress.line(text),
    },
  });
}
