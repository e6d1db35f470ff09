/**
 * The fifth phase: what the run's failures are worth. Each way is a wrapper around replays of one
 * check: `--reproduce N` replays the one counterexample N times, confirmation replays each failure
 * (bounded in time, cut short by a stop), `--no-confirm` labels them unreplayed, and the self-tests
 * (plan.inProcess.keepFailures) read them as the checks left them.
 */
import { confirmationBudgetMs, confirmFailures, unconfirmed, type ConfirmOptions } from '../confirm-failures.ts';
import type { RunPlan } from '../plan.ts';
import { reproductionRate, withReproductionRate } from '../reproduce.ts';
import type { CheckRecord, Counterexample } from '../results.ts';
import type { BroughtUp } from './bring-up.ts';
import type { ArmedStop } from './stop.ts';

export interface SettleInput {
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly stop: ArmedStop;
  readonly started: number;
  readonly log: (line: string) => void;
}

export async function settleFailures(plan: RunPlan, up: BroughtUp, records: CheckRecord[], i: SettleInput): Promise<CheckRecord[]> {
  if (plan.reproduce !== undefined) return reproduce(plan, up, records, i.log);
  if (plan.inProcess?.keepFailures === true) return records;
  if (plan.budgets.confirm === false) return unconfirmed(records);
  if (!records.some((r) => r.verdict === 'fail')) return records;
  return confirm(plan, up, records, plan.budgets.confirm, i);
}

/** The reproduction rate of one counterexample, as etcd's reproduction targets report it. */
async function reproduce(plan: RunPlan, up: BroughtUp, records: CheckRecord[], log: (line: string) => void): Promise<CheckRecord[]> {
  const { times, check, path } = plan.reproduce!;
  const replay = await replayer(plan, up, plan.replayCommand);
  const rate = await reproductionRate(times, () => replay(check, { seed: plan.seed, path } as Counterexample, 'alone'));
  log(
    `svc-conformance: reproduced ${rate.failed} of ${times} replays${rate.clauses.length > 0 ? ` (failed: ${rate.clauses.join(', ')})` : ''}`,
  );
  return withReproductionRate(records, times, rate);
}

/**
 * A stopped run confirms nothing more: its failures are reported `not confirmed (time)`, without a
 * line per failure saying so (the reports do).
 */
async function confirm(plan: RunPlan, up: BroughtUp, found: CheckRecord[], times: number, i: SettleInput): Promise<CheckRecord[]> {
  const { stop, log, known } = i;
  const stopped = stop.reason !== undefined;
  const budgetMs = stopped
    ? 0
    : Math.min(
        plan.budgets.confirmTimeMs ?? confirmationBudgetMs(Date.now() - i.started, up.settings.eventualWindowMs),
        Math.max(0, stop.deadline - Date.now()),
      );
  if (!stopped) log(`svc-conformance: confirming failures (${times} replays each, at most ${Math.round(budgetMs / 1000)} s)`);
  const options: ConfirmOptions = {
    times,
    deadline: Date.now() + budgetMs,
    now: Date.now,
    known: (r) => known !== undefined && known(r),
    log,
    replay: await replayer(plan, up, plan.replayCommandAlone),
    // The bound announced above holds even for a replay that waits out windows of its own.
    sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)).unref()),
  };
  const unconfirmedNow = () => confirmFailures(found, { ...options, deadline: 0, log: () => undefined });
  // A signal during confirmation stops it: what is not confirmed yet is labelled so.
  return stopped ? unconfirmedNow() : Promise.race([confirmFailures(found, options), stop.stopped.then(unconfirmedNow)]);
}

/**
 * Replays of one check in this process, loaded only when needed: a green run (and every other
 * command) does not pay for it.
 */
async function replayer(plan: RunPlan, up: BroughtUp, command: string) {
  const { nodeagent } = up;
  return (await import('../confirm-replay.ts')).inProcessReplayer({
    target: up.target,
    restricted: up.restricted,
    profile: plan.profile,
    runId: plan.runId,
    settings: up.settings,
    runs: plan.runs,
    replayCommand: command,
    ...(nodeagent.given
      ? { nodeagentLoader: { given: nodeagent.given } }
      : nodeagent.settings
        ? { nodeagentLoader: nodeagent.settings }
        : {}),
    ...(up.daemon ? { controllerDaemon: up.daemon } : {}),
    ...(plan.namespaces ? { namespaces: plan.namespaces } : {}),
  });
}
