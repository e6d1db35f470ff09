/**
 * The fourth phase: the selected checks, in two groups. Checks that restart or compact the target run
 * after the others, one at a time: a restart cuts every connection and a compaction ages every version,
 * so nothing may run beside them. A stopped run reports its unfinished checks `notChecked`.
 */
import type { Slowdown } from '../../harness/transport/index.ts';
import type { AnyCheck } from '../../harness/case/index.ts';
import type { CheckFootprint } from '../../harness/case/index.ts';
import type { TargetConfig } from '../../harness/transport/index.ts';
import type { Judgement } from '../../reference/judgement.ts';
import type { SuiteSettings } from '../../suites/settings.ts';
import type { CapabilityGate } from '../capability-gate.ts';
import type { CheckStage } from '../check-stage.ts';
import type { RunPlan } from '../plan.ts';
import type { CheckRecord, Counterexample } from '../results.ts';
import { STOP_GRACE_MS, stopLine, unfinishedRecords, type StopReason } from '../run-stop.ts';
import { version } from '../version.ts';
import type { BroughtUp } from './bring-up.ts';
import type { ArmedStop } from './stop.ts';

export interface StagesInput {
  readonly gate: CapabilityGate | undefined;
  readonly known: ((r: CheckRecord) => boolean) | undefined;
  readonly stop: ArmedStop;
  readonly started: number;
  readonly stage: CheckStage;
  readonly log: (line: string) => void;
}

export interface Staged {
  readonly records: CheckRecord[];
  readonly errors: string[];
  readonly footprints: CheckFootprint[];
  /** How many checks ran at once. */
  readonly parallel: number;
  /** The run stopped, or checks whose turn came after the deadline did not start. */
  readonly reason?: StopReason;
  /** The target slowed down steadily over the stage's requests (harness/transport/pace-trend.ts). */
  readonly slowdown?: Slowdown;
  /** What the stage handed the checks, for replays of their failures (runner/phases/settle.ts). */
  readonly settings: SuiteSettings;
}

export async function runStages(plan: RunPlan, up: BroughtUp, i: StagesInput): Promise<Staged> {
  const { selection, profile } = plan;
  const selected = i.gate?.run ?? selection.selected;
  if (selection.shard !== undefined)
    i.log(
      `svc-conformance: shard ${selection.shard.index}/${selection.shard.count}: ${selected.length} of ${selection.chosen.length} checks`,
    );
  // Each case may hold two namespaces: with n given, n - 1 cases at once never wait on each other for good.
  const parallel = plan.namespaces ? Math.min(plan.budgets.parallel, Math.max(1, plan.namespaces.length - 1)) : plan.budgets.parallel;
  i.log(
    `svc-conformance ${version()}: profile ${profile.name}, seed ${plan.seed}, ${plan.runs} runs per property, ${selected.length} checks, run id ${plan.runId}`,
  );
  if (i.gate !== undefined && i.gate.run.length < selection.selected.length) {
    const absent = i.gate.entries.filter((e) => e.state === 'notServed');
    i.log(
      `svc-conformance: not served: ${absent.map((e) => e.feature).join(', ')}; ${selection.selected.length - i.gate.run.length} checks blocked by them are not run`,
    );
  }
  const shared = selected.filter((c) => c.exclusive !== true);
  const exclusive = selected.filter((c) => c.exclusive === true);
  const outcome = {
    records: [] as CheckRecord[],
    errors: [] as string[],
    footprints: [] as CheckFootprint[],
    finished: new Set<string>(),
    slowdown: undefined as Slowdown | undefined,
  };
  const settings = suiteSettings(plan, up, [], parallel, i.stop.deadline);
  for (const [group, sequential] of [
    [shared, false],
    [exclusive, true],
  ] as const) {
    if (group.length === 0 || i.stop.reason !== undefined) continue;
    const part = await i.stage({
      checks: group,
      settings: { ...suiteSettings(plan, up, group, parallel, i.stop.deadline), ...(group === exclusive ? { namespaceScope: 'x' } : {}) },
      sequential,
      second: group === exclusive && shared.length > 0,
      total: selected.length,
      done: group === exclusive ? shared.length : 0,
      stop: i.stop.stopped,
      hurry: i.stop.hurried,
      graceMs: STOP_GRACE_MS,
      ...excusing(plan, i.known),
      nodeagentLoader: up.nodeagent.given,
      checksTarget: plan.inProcess?.checksTarget,
    });
    outcome.records.push(...part.records);
    outcome.errors.push(...part.errors);
    outcome.footprints.push(...part.footprints);
    outcome.slowdown ??= part.slowdown;
    for (const id of part.finished) outcome.finished.add(id);
  }
  // Checks whose turn came after the deadline report themselves as not started; the rest are here.
  const notStarted = outcome.records.filter((r) => r.note?.startsWith('run timeout: ')).map((r) => r.check);
  const reason: StopReason | undefined = i.stop.reason ?? (notStarted.length > 0 ? 'run timeout' : undefined);
  if (reason !== undefined) {
    const unfinished = selected.filter((c) => !outcome.finished.has(c.id) || notStarted.includes(c.id));
    outcome.records.push(...unfinishedRecords(selected, outcome.finished, reason));
    outcome.errors.push(stopLine(reason, Date.now() - i.started, unfinished.length, selected.length));
  }
  return {
    records: outcome.records,
    errors: outcome.errors,
    footprints: outcome.footprints,
    parallel,
    settings,
    reason,
    slowdown: outcome.slowdown,
  };
}

/** What the check stage hands each check of a group. */
function suiteSettings(plan: RunPlan, up: BroughtUp, group: readonly AnyCheck[], parallel: number, deadline: number): SuiteSettings {
  return {
    target: cloneableTarget(up.target),
    ...(up.restricted !== undefined ? { restrictedTarget: cloneableTarget(up.restricted) } : {}),
    profile: plan.profile.name,
    runId: plan.runId,
    seed: plan.seed,
    runs: plan.runs,
    checks: group.map((c) => c.id),
    deadline,
    parallel: group.length > 0 && group.every((c) => c.exclusive === true) ? 1 : parallel,
    ...(plan.budgets.backgroundWrites ? { backgroundWrites: true } : {}),
    namespaces: plan.namespaces,
    ...(plan.path ? { path: plan.path } : {}),
    targetSettings: up.settings,
    replayCommand: plan.replayCommand,
    nodeagentLoader: up.nodeagent.settings,
    controllerDaemon: up.daemon,
  };
}

/**
 * --continue-past-failures: a failure the expectations excuse does not end its case, the steps after it
 * are still judged. Not by default: after a write the target applied otherwise than the model, the
 * case's later judgements read the model's state, not the target's (an apply sequence past upstream's
 * JSON Patch departure then failed rest:2.6/manager on the entry of the write the model refused).
 */
function excusing(
  plan: RunPlan,
  known: ((r: CheckRecord) => boolean) | undefined,
): { excused?: (f: Judgement, check: string) => boolean; known?: (f: Judgement, check: string) => boolean } {
  if (known === undefined) return {};
  // A listed failure is reported with its first counterexample, not shrunk (shrinking it cost a run
  // against upstream thousands of requests for a departure the expectations already name).
  const isKnown = (f: Judgement, check: string) =>
    known({ clause: f.clause, check, verdict: 'fail', count: 1, counterexample: observationOf(f) });
  return plan.continuePastFailures === true ? { excused: isKnown, known: isKnown } : { known: isKnown };
}

/** What an expectations signature reads of a failure (class, status, reason, text), as the record it matches. */
function observationOf(f: Judgement): Counterexample {
  return {
    check: '',
    clause: f.clause,
    expected: f.expected,
    observed: f.observed,
    class: f.class,
    observedStatus: f.observedStatus,
    observedReason: f.observedReason,
  } as Counterexample;
}

/** TLS material as strings: the stage's settings stay plain data (they are printed and compared in tests). */
function cloneableTarget(cfg: TargetConfig): TargetConfig {
  const str = (v: string | Buffer | undefined) => (v === undefined ? undefined : typeof v === 'string' ? v : v.toString('utf8'));
  const tls = { ...cfg.tls, ca: str(cfg.tls.ca), cert: str(cfg.tls.cert), key: str(cfg.tls.key) };
  for (const k of ['ca', 'cert', 'key'] as const) if (tls[k] === undefined) delete tls[k];
  return { ...cfg, tls };
}
