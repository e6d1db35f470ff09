/**
 * The fifth phase: what the run's failures are worth. Each way is a wrapper around replays of one
 * check: `--reproduce N` replays the one counterexample N times, confirmation replays each failure
 * (bounded in time, cut short by a stop), `--no-confirm` labels them unreplayed, and the self-tests
 * (plan.inProcess.keepFailures) read them as the checks left them. A replay runs through the run's own
 * check stage, one check from the failure's seed and path, nothing beside it, in namespaces of its own
 * (as the printed replay command gets), and nobody watching the run is told of it.
 */
import { confirmWithinBudget, unconfirmed, type ReplayMode } from '../confirm-failures.ts';
import type { RunPlan } from '../plan.ts';
import { reproductionRate, withReproductionRate } from '../reproduce.ts';
import type { CheckRecord, Counterexample } from '../results.ts';
import type { CheckStage } from '../check-stage.ts';
import { checkById } from '../../suites/checks/index.ts';
import type { BroughtUp } from './bring-up.ts';
import type { Staged } from './stages.ts';
import type { ArmedStop } from './stop.ts';

export interface SettleInput {
  readonly staged: Staged;
  readonly stage: CheckStage;
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly stop: ArmedStop;
  readonly started: number;
  readonly log: (line: string) => void;
}

type Replay = (check: string, cx: Counterexample, mode: ReplayMode) => Promise<CheckRecord[]>;

export async function settleFailures(plan: RunPlan, up: BroughtUp, i: SettleInput): Promise<CheckRecord[]> {
  const { records } = i.staged;
  const replayVia = (command: string) => stageReplay(i, up.nodeagent.given, command);
  if (plan.reproduce !== undefined) {
    const { times, check, path } = plan.reproduce;
    const replay = replayVia(plan.replayCommand);
    const rate = await reproductionRate(times, () => replay(check, { seed: plan.seed, path } as Counterexample, 'alone'));
    const failed = rate.clauses.length > 0 ? ` (failed: ${rate.clauses.join(', ')})` : '';
    i.log(`svc-conformance: reproduced ${rate.failed} of ${times} replays${failed}`);
    return withReproductionRate(records, times, rate);
  }
  if (plan.inProcess?.keepFailures === true) return records;
  if (plan.budgets.confirm === false) return unconfirmed(records);
  if (!records.some((r) => r.verdict === 'fail')) return records;
  return confirmWithinBudget(records, {
    times: plan.budgets.confirm,
    budgetMs: plan.budgets.confirmTimeMs,
    eventualWindowMs: up.settings.eventualWindowMs,
    started: i.started,
    stop: i.stop,
    known: i.known,
    log: i.log,
    replay: replayVia(plan.replayCommandAlone),
  });
}

/** Replays of one check each through the run's check stage; `writes` adds background writes (not in named namespaces). */
function stageReplay(i: SettleInput, nodeagentLoader: BroughtUp['nodeagent']['given'], command: string): Replay {
  const base = i.staged.settings;
  let replays = 0;
  return async (checkId, cx, mode) => {
    const check = checkById(checkId);
    if (check === undefined || cx.path === undefined) return [];
    const writes = mode === 'writes';
    const part = await i.stage({
      checks: [check],
      settings: {
        ...base,
        checks: [checkId],
        seed: cx.seed,
        path: cx.path,
        parallel: 1,
        namespaceScope: `c${++replays}`,
        backgroundWrites: writes && base.namespaces === undefined,
        replayCommand: writes ? `${command} --background-writes` : command,
      },
      sequential: true,
      second: false,
      total: 1,
      done: 0,
      stop: new Promise<never>(() => undefined),
      graceMs: 0,
      nodeagentLoader,
      replay: true,
    });
    // A check that broke outside its property judged nothing: that is the replay's error, not a pass.
    if (part.records.length === 0 && part.errors.length > 0) throw new Error(part.errors[0]);
    return part.records;
  };
}
