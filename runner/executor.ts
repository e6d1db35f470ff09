/**
 * The one executor of a run plan (runner/plan.ts): brings the targets up, probes the API server, runs
 * the selected checks in two groups (the checks that restart or compact the target after the others,
 * one at a time), confirms failures by replaying them, sweeps what the run left on an external target,
 * cleans up, and returns what happened as data. The command line, the self-tests' in-process runs,
 * `npm run mutation` and the benches all run checks through it, in this process (runner/check-stage.ts);
 * what differs is what watches the checks run and what is done with the result (`publish`: the reports).
 *
 * --timeout, SIGTERM from CI, Ctrl-C: no check starts, running ones are abandoned after a grace, the
 * result is published with what the run has, then cleanup (bounded). A second signal: out now.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../harness/transport/index.ts';
import { createTargetClient } from '../harness/transport/index.ts';
import { firstContact } from '../harness/transport/index.ts';
import type { TargetSettings } from '../harness/case/index.ts';
import type { DaemonLauncher } from '../harness/processes/index.ts';
import type { NodeagentLoaderTarget } from '../harness/processes/index.ts';
import type { CapabilityEntry, CheckRecord, Counterexample } from './results.ts';
import { gateChecks, type CapabilityGate } from './capability-gate.ts';
import { probeCapabilities } from '../harness/interpreters/index.ts';
import { openProbeClients } from './env.ts';
import { sumFootprints, type CheckFootprint, type RunFootprint } from '../harness/case/index.ts';
import { armRunStop, HURRIED_EXIT_MS, HURRIED_LISTING_MS, STOP_EXIT, STOP_GRACE_MS, STOPPED_CLEANUP_MS, stopLine, unfinishedRecords, within, type StopReason } from './run-stop.ts';
import { profileMismatch, profiles, type Profile } from '../reference/profile.ts';
import { checks as registry } from '../suites/checks/index.ts';
import type { SuiteSettings } from '../suites/settings.ts';
import type { ExternalTargetPlan, RunPlan } from './plan.ts';
import type { CheckStage } from './check-stage.ts';
import { startEmbeddedTarget } from './embedded.ts';
import type { VariationName } from '../targets/api-server/index.ts';
import { nodeagentLoaderSettings } from './nodeagent.ts';
import { prepareDaemon } from './daemon.ts';
import { confirmationBudgetMs, confirmFailures, unconfirmed, type ConfirmOptions } from './confirm-failures.ts';
import { cleanupCommandLine, cleanupRuns, leftoverLines, sweepRun, type SweepResult } from './sweep.ts';
import { PRECONDITION_FAILED } from '../harness/case/index.ts';
import { preflight } from '../harness/transport/index.ts';
import { probeNamespaceSetup } from '../harness/transport/index.ts';
import type { Judgement } from '../reference/judgement.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { reproductionRate, withReproductionRate } from './reproduce.ts';
import { decideRun, earlyEndLine, EXIT, exitCodeOf, type RunEnd, type RunVerdict } from './run-verdict.ts';

export { EXIT, type RunVerdict } from './run-verdict.ts';

/** What a run did, before any report is made of it. Records and footprints follow check order. */
export interface ExecutedRun {
  readonly plan: RunPlan;
  readonly records: readonly CheckRecord[];
  readonly errors: readonly string[];
  readonly footprint: RunFootprint;
  readonly server: string;
  /** The node-agent loader judged, as the reports name it; null when none. */
  readonly nodeagentLoader: string | null;
  readonly startedAt: number;
  readonly durationMs: number;
  /** What the sweep of an external target found; absent for the embedded one. */
  readonly swept?: SweepResult;
  /** How the run ended before its checks did (timeout, signal, a broken precondition): the verdict rules read it. */
  readonly end?: RunEnd;
  /** External targets: the command that removes whatever the run left (`svc-conformance cleanup`). */
  readonly cleanupCommand?: string;
  /** The capability map the probe before the checks made; absent when none ran (no API suite selected, a replay). */
  readonly capabilities?: readonly CapabilityEntry[];
}

export interface RunIO {
  readonly log: (line: string) => void;
  readonly stage: CheckStage;
  /** Once the target answered, with the release it reports: which failures are known (not confirmed). */
  readonly onReachable?: (release: string | undefined, target: { readonly server: string; readonly source: string; readonly reportedVersion?: string }) => ((r: CheckRecord) => boolean) | undefined;
  /** Between the checks and the cleanup (e.g. the progress line ends). */
  readonly afterChecks?: () => void;
  /**
   * The result made into reports; `final` false: a stopped run publishes before its cleanup and again
   * after it. Returns the run's verdict. Absent (the self-tests): the records speak for themselves.
   */
  readonly publish?: (run: ExecutedRun, final: boolean) => Promise<RunVerdict>;
  /** false: failures come back as the checks left them, neither replayed nor labelled. */
  readonly confirm?: boolean;
  /** Settings the plan does not carry (the self-tests' shorter waits). */
  readonly tuneSettings?: (s: TargetSettings) => TargetSettings;
  /** What the embedded target's TargetConfig calls its source. */
  readonly source?: string;
  /**
   * The daemon under test started otherwise than the plan says, with its own waits (the self-tests'
   * in-process reference daemon), or 'none': the daemon checks find no daemon.
   */
  readonly daemon?: 'none' | { readonly launcher: DaemonLauncher; readonly startTimeoutMs: number; readonly settleMs: number; readonly leaseTimeoutMs: number };
  /**
   * The node-agent loader judged, made otherwise than the plan says (the self-tests' loaders: the
   * reference loader with variations, or one a test makes); its maker closes it.
   */
  readonly nodeagentLoader?: NodeagentLoaderTarget;
  /** The embedded server's variation decision points, as it passes them (the self-tests' variation reach). */
  readonly onVariationPoint?: (v: VariationName) => void;
  /** The preflight found the run's identity refused: its one line made into reports; returns the exit code. */
  readonly onRefused?: (line: string, run: ExecutedRun) => Promise<number>;
}

export interface RunOutcome {
  readonly exitCode: number;
  readonly run: ExecutedRun;
}

/** Longest cleanup of an external target: the sweep's own wait plus its requests. */
const SWEEP_LIMIT_MS = 60_000;
/**
 * The external target's configuration from the files the plan names. `checkOnly` (run --dry-run)
 * reads and validates every file without starting a kubeconfig's credential plugin.
 */
export async function loadExternalTarget(t: ExternalTargetPlan, o: { checkOnly?: boolean } = {}): Promise<TargetConfig> {
  return loadTargetConfig({
    ...(t.kubeconfig ? { kubeconfig: t.kubeconfig } : {}),
    ...(t.context ? { context: t.context } : {}),
    ...(t.server ? { server: t.server } : {}),
    ...(t.tokenFile ? { token: readText(t.tokenFile, '--token-file').trim() } : {}),
    ...(t.certificateAuthority !== undefined ? { certificateAuthority: t.certificateAuthority } : {}),
    ...(t.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    ...(o.checkOnly ? { checkOnly: true } : {}),
  });
}

/** How long stopping the daemon's private server and the embedded target may take at the end. */
const CLEANUP_LIMIT_MS = 15_000;

export async function executeRun(plan: RunPlan, io: RunIO): Promise<RunOutcome> {
  const started = Date.now();
  const { profile, runId, seed, selection } = plan;
  const { log } = io;
  const external = plan.target.kind === 'external';
  const planned = nodeagentLoaderSettings(
    { ...(plan.nodeagent.loader !== undefined ? { nodeagentLoader: plan.nodeagent.loader } : {}), nodeagentFault: [...plan.nodeagent.faults] },
    external,
    profile,
  );
  const nodeagent = io.nodeagentLoader === undefined ? planned : { ...planned, description: io.nodeagentLoader.description };
  const givenLoader = io.nodeagentLoader !== undefined ? { nodeagentLoader: io.nodeagentLoader } : {};

  let targetCfg: TargetConfig;
  let targetSettings: TargetSettings = plan.settings;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedToken: string | undefined;
  if (plan.target.kind === 'external') {
    targetCfg = await loadExternalTarget(plan.target);
  } else {
    const embedded = await startEmbeddedTarget(plan.target, profile, {
      ...(io.source !== undefined ? { source: io.source } : {}),
      ...(io.onVariationPoint ? { onVariationPoint: io.onVariationPoint } : {}),
    });
    stopEmbedded = () => embedded.close();
    embeddedToken = embedded.token;
    targetCfg = embedded.config;
    targetSettings = { ...targetSettings, hooks: embedded.hooks };
    // The run's first line names it with its URL, version, faults and variations (RunIO.onReachable).
  }
  if (io.tuneSettings) targetSettings = io.tuneSettings(targetSettings);

  // rest-authz: a second identity (its current context); its server must be the target's.
  let restrictedCfg: TargetConfig | undefined;
  const restricted = plan.target.kind === 'external' ? plan.target.restrictedKubeconfig : undefined;
  if (restricted !== undefined) {
    restrictedCfg = await loadTargetConfig({ kubeconfig: restricted }).catch((e: unknown) => {
      throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
    });
    if (restrictedCfg.server !== targetCfg.server) throw new ConfigError(`--restricted-kubeconfig ${restricted}: its server ${restrictedCfg.server} is not the target ${targetCfg.server}`);
  }
  const chosen = selection.selected;
  const daemon =
    io.daemon === 'none'
      ? { settings: undefined, cleanup: async () => undefined }
      : await prepareDaemon({
          ...(plan.daemon.command !== undefined ? { command: plan.daemon.command } : {}),
          bundle: io.daemon === undefined && chosen.some((c) => c.suite === 'controller-daemon'),
          external,
          profile: profile.name,
          server: targetCfg.server,
          ...(embeddedToken !== undefined ? { token: embeddedToken } : {}),
          ...(plan.daemon.startTimeoutMs !== undefined ? { startTimeoutMs: plan.daemon.startTimeoutMs } : {}),
        });

  const daemonSettings = daemon.settings !== undefined && typeof io.daemon === 'object' ? { ...daemon.settings, ...io.daemon } : daemon.settings;
  // What removes the run's objects from an external target after this process is gone.
  const cleanupCommand = plan.target.kind === 'external' ? cleanupCommandLine(plan.target, runId) : undefined;
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

  try {
    let known: ((r: CheckRecord) => boolean) | undefined;
    let refused: string | undefined;
    const probe = createTargetClient(targetCfg, { maxRetries: 1 });
    try {
      // A target that cannot be worked with at all (a wrong scheme, a silent port) is refused in one line,
      // with notTested reports as for a refused identity: a hostile run still ends with its reports.
      const contact = await firstContact(targetCfg).catch((e: unknown) => {
        if (e instanceof InfrastructureError && io.onRefused !== undefined) return e.message;
        throw e;
      });
      if (typeof contact === 'string') refused = contact;
      const reported = typeof contact === 'string' ? undefined : contact.release;
      if (refused === undefined) {
        if (external) await refuseProfileMismatch(probe, profile);
        // Only the API suites need the identity's permissions; a loader or daemon run asks nothing.
        if (plan.preflight && chosen.some((c) => c.suite.startsWith('rest-'))) {
          // A review that gets no answer decides nothing: the checks find out for themselves (a target
          // that holds connections must still get a run and its reports, not a stop before them).
          refused = await preflight(probe, {
            profile,
            runId,
            credentials: targetCfg.source,
            earlier: typeof contact === 'string' ? [] : contact.answers,
            ...(plan.namespaces ? { namespaces: plan.namespaces } : {}),
          }).catch((e: unknown) => {
            if (!(e instanceof InfrastructureError)) throw e;
            log(`svc-conformance: preflight undecided (${e.message}); the checks go on`);
            return undefined;
          });
        }
        // Without --namespace the run's own setup is one namespace: tried once here, not by every check.
        // `--no-preflight` asks nothing before the checks: they find out for themselves, as before.
        if (refused === undefined && plan.preflight && plan.namespaces === undefined && chosen.some((c) => c.suite.startsWith('rest-')))
          refused = await probeNamespaceSetup(probe, { profile, runId }).catch((e: unknown) => {
            // As the preflight: an answer that never comes decides nothing, the checks find out and report.
            if (!(e instanceof InfrastructureError)) throw e;
            log(`svc-conformance: namespace setup undecided (${e.message}); the checks go on`);
            return undefined;
          });
      }
      if (refused === undefined)
        known = io.onReachable?.(reported ?? (plan.target.kind === 'embedded' ? plan.target.release : plan.settings.release), {
          server: targetCfg.server,
          source: targetCfg.source,
          ...(reported !== undefined ? { reportedVersion: reported } : {}),
        });
    } finally {
      await probe.close();
    }
    if (refused !== undefined) {
      const run: ExecutedRun = {
        plan,
        records: [],
        errors: [],
        footprint: sumFootprints([]),
        server: targetCfg.server,
        nodeagentLoader: nodeagent.description,
        startedAt: started,
        durationMs: Date.now() - started,
      };
      if (io.onRefused !== undefined) return { exitCode: await io.onRefused(refused, run), run };
      log(`svc-conformance: ${refused}`);
      return { exitCode: EXIT.unreachable, run };
    }
    // The capability map, before any check: checks that need a feature the target lacks are not run.
    const gate = await capabilityGate(plan, targetCfg, targetSettings, log);
    const selected = gate?.run ?? chosen;
    if (selection.shard !== undefined) log(`svc-conformance: shard ${selection.shard.index}/${selection.shard.count}: ${selected.length} of ${selection.chosen.length} checks`);
    // Each case may hold two namespaces: with n given, n - 1 cases at once never wait on each other for good.
    const parallel = plan.namespaces ? Math.min(plan.budgets.parallel, Math.max(1, plan.namespaces.length - 1)) : plan.budgets.parallel;
    log(`svc-conformance ${version()}: profile ${profile.name}, seed ${seed}, ${plan.runs} runs per property, ${selected.length} checks, run id ${runId}`);
    if (gate !== undefined && gate.run.length < chosen.length) {
      const absent = gate.entries.filter((e) => e.state === 'notServed');
      log(`svc-conformance: not served: ${absent.map((e) => e.feature).join(', ')}; ${chosen.length - gate.run.length} checks blocked by them are not run`);
    }
    const suiteSettings = (ids: readonly string[]): SuiteSettings => ({
      target: cloneableTarget(targetCfg),
      ...(restrictedCfg !== undefined ? { restrictedTarget: cloneableTarget(restrictedCfg) } : {}),
      profile: profile.name,
      runId,
      seed,
      runs: plan.runs,
      checks: [...ids],
      deadline: stop.deadline,
      parallel: ids.length > 0 && ids.every((id) => registry.find((c) => c.id === id)?.exclusive === true) ? 1 : parallel,
      ...(plan.budgets.backgroundWrites ? { backgroundWrites: true } : {}),
      ...(plan.namespaces ? { namespaces: plan.namespaces } : {}),
      ...(plan.path ? { path: plan.path } : {}),
      targetSettings,
      replayCommand: plan.replayCommand,
      ...(nodeagent.settings ? { nodeagentLoader: nodeagent.settings } : {}),
      ...(daemonSettings ? { controllerDaemon: daemonSettings } : {}),
    });
    // Checks that restart or compact the target run after the others, one at a time: a restart cuts
    // every connection and a compaction ages every version, so nothing may run beside them.
    const shared = selected.filter((c) => c.exclusive !== true);
    const exclusive = selected.filter((c) => c.exclusive === true);
    const outcome = { records: [] as CheckRecord[], errors: [] as string[], footprints: [] as CheckFootprint[], finished: new Set<string>() };
    for (const [group, sequential] of [
      [shared, false],
      [exclusive, true],
    ] as const) {
      if (group.length === 0 || stop.reason !== undefined) continue;
      const second = group === exclusive && shared.length > 0;
      const part = await io.stage({
        checks: group,
        settings: { ...suiteSettings(group.map((c) => c.id)), ...(group === exclusive ? { namespaceScope: 'x' } : {}) },
        sequential,
        second,
        total: selected.length,
        done: group === exclusive ? shared.length : 0,
        stop: stop.stopped,
        hurry: stop.hurried,
        graceMs: STOP_GRACE_MS,
        // --continue-past-failures: a failure the expectations excuse does not end its case, the steps after it
        // are still judged. Not by default: after a write the target applied otherwise than the model, the
        // case's later judgements read the model's state, not the target's (an apply sequence past upstream's
        // JSON Patch departure then failed rest:2.6/manager on the entry of the write the model refused).
        ...(known !== undefined && plan.continuePastFailures === true
          ? { excused: (f: Judgement, check: string) => known!({ clause: f.clause, check, verdict: 'fail', count: 1, counterexample: observationOf(f) }) }
          : {}),
        ...givenLoader,
      });
      outcome.records.push(...part.records);
      outcome.errors.push(...part.errors);
      outcome.footprints.push(...part.footprints);
      for (const id of part.finished) outcome.finished.add(id);
    }
    // Checks whose turn came after the deadline report themselves as not started; the rest are here.
    const notStarted = outcome.records.filter((r) => r.note?.startsWith('run timeout: ')).map((r) => r.check);
    const reason: StopReason | undefined = stop.reason ?? (notStarted.length > 0 ? 'run timeout' : undefined);
    if (reason !== undefined) {
      const unfinished = selected.filter((c) => !outcome.finished.has(c.id) || notStarted.includes(c.id));
      outcome.records.push(...unfinishedRecords(selected, outcome.finished, reason));
      outcome.errors.push(stopLine(reason, Date.now() - started, unfinished.length, selected.length));
    }
    // Replays of one check in this process (--reproduce, confirmation), loaded only when needed: a green
    // run (and every other command) does not pay for it.
    const replayer = async (command: string) =>
      (await import('./confirm-replay.ts')).inProcessReplayer({
        target: targetCfg,
        ...(restrictedCfg !== undefined ? { restricted: restrictedCfg } : {}),
        profile,
        runId,
        settings: targetSettings,
        runs: plan.runs,
        replayCommand: command,
        ...(io.nodeagentLoader ? { nodeagentLoader: { given: io.nodeagentLoader } } : nodeagent.settings ? { nodeagentLoader: nodeagent.settings } : {}),
        ...(daemonSettings ? { controllerDaemon: daemonSettings } : {}),
        ...(plan.namespaces ? { namespaces: plan.namespaces } : {}),
      });
    if (plan.reproduce !== undefined) {
      // The reproduction rate of one counterexample, as etcd's reproduction targets report it.
      const { times, check, path } = plan.reproduce;
      const replay = await replayer(plan.replayCommand);
      const rate = await reproductionRate(times, () => replay(check, { seed, path } as Counterexample, 'alone'));
      log(`svc-conformance: reproduced ${rate.failed} of ${times} replays${rate.clauses.length > 0 ? ` (failed: ${rate.clauses.join(', ')})` : ''}`);
      outcome.records = withReproductionRate(outcome.records, times, rate);
    } else if (io.confirm === false) {
      // The self-tests read the records as the checks left them.
    } else if (plan.budgets.confirm === false) outcome.records = unconfirmed(outcome.records);
    else if (outcome.records.some((r) => r.verdict === 'fail')) {
      // A stopped run confirms nothing more: its failures are reported `not confirmed (time)`, without
      // a line per failure saying so (the reports do).
      const stopped = stop.reason !== undefined;
      const budgetMs = stopped ? 0 : Math.min(plan.budgets.confirmTimeMs ?? confirmationBudgetMs(Date.now() - started, targetSettings.eventualWindowMs), Math.max(0, stop.deadline - Date.now()));
      if (!stopped) log(`svc-conformance: confirming failures (${plan.budgets.confirm} replays each, at most ${Math.round(budgetMs / 1000)} s)`);
      const confirmOptions: ConfirmOptions = {
        times: plan.budgets.confirm,
        deadline: Date.now() + budgetMs,
        now: Date.now,
        known: (r) => known !== undefined && known(r),
        log,
        replay: await replayer(plan.replayCommandAlone),
        // The bound announced above holds even for a replay that waits out windows of its own.
        sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)).unref()),
      };
      const found = outcome.records;
      const unconfirmedNow = () => confirmFailures(found, { ...confirmOptions, deadline: 0, log: () => undefined });
      outcome.records = stopped ? await unconfirmedNow() : await Promise.race([confirmFailures(found, confirmOptions), stop.stopped.then(unconfirmedNow)]);
    }
    // After confirmation: the map's findings are not replayed, the probe asked once.
    if (gate !== undefined) outcome.records.push(...gate.records);
    io.afterChecks?.();

    // A stopped run publishes before cleanup (CI's kill may follow SIGTERM), then again with what
    // cleanup left; a finished run cleans up first and publishes once.
    // A signal during confirmation also stops the run here: reports first, then cleanup.
    const stoppedFor = reason ?? stop.reason;
    const sweep = async (): Promise<SweepResult | undefined> => {
      // A stopped run waits less for its deletes to take effect (it must end within bounds), and a
      // hurried one not at all: it lists what is there and goes.
      const limitMs = stoppedFor === undefined ? SWEEP_LIMIT_MS : STOPPED_CLEANUP_MS;
      const sweeping = sweepRun(targetCfg, profile, runId, log, { hurry: stop.hurried, ...(stoppedFor !== undefined ? { waitMs: STOPPED_CLEANUP_MS - 2_000 } : {}) });
      // A listing of its own, whatever the sweep is waiting on (a delete the target holds).
      const listing = async (): Promise<SweepResult | undefined> => {
        const r = await within(cleanupRuns(targetCfg, profile.runLabel, { runId }, { log, dryRun: true }), HURRIED_LISTING_MS);
        return r === undefined ? undefined : { leftovers: r.leftovers, ...(r.unverified !== undefined ? { unverified: r.unverified } : {}) };
      };
      // The embedded target too: what a hostile fault keeps (a namespace left Terminating) is named.
      const bounded = within(sweeping, limitMs).then((r) => r ?? (stoppedFor !== undefined ? listing() : undefined));
      // The embedded target goes with this process, and all it holds: nothing to list in a hurry.
      const swept = await Promise.race([bounded, stop.hurried.then(() => (external ? listing() : { leftovers: [] }))]);
      const listWith = cleanupCommand !== undefined ? `${cleanupCommand} --dry-run` : `kubectl get namespaces -l ${profile.runLabel}=${runId}`;
      return (
        swept ?? {
          leftovers: [],
          unverified:
            stop.hurriedBy !== undefined
              ? `cleanup of run ${runId} was cut short by ${stop.hurriedBy} before it could list what is left; list it with: ${listWith}`
              : `cleanup of run ${runId} did not finish within ${limitMs / 1000} s; list what is left with: ${listWith}`,
        }
      );
    };
    const precondition = outcome.records.find((r) => r.note?.includes(PRECONDITION_FAILED))?.note;
    const end: RunEnd | undefined =
      stoppedFor !== undefined
        ? { kind: stoppedFor, line: outcome.errors.find((e) => e.startsWith(stoppedFor)) ?? `${stoppedFor}: every check had finished; failures are not confirmed` }
        : precondition !== undefined
          ? { kind: 'early end', line: earlyEndLine(precondition.slice(precondition.indexOf(PRECONDITION_FAILED)), regressionsOf(outcome.records, known)) }
          : undefined;
    let swept = stoppedFor === undefined ? await sweep() : undefined;
    // Checks finish in any order when run in parallel: records and footprints follow check order.
    const order = new Map(registry.map((c, i) => [c.id, i]));
    const byCheck = (a: { check: string }, b: { check: string }) => (order.get(a.check) ?? 0) - (order.get(b.check) ?? 0);
    const footprint = sumFootprints([...outcome.footprints].sort(byCheck), parallel);
    const executed = (swept: SweepResult | undefined): ExecutedRun => ({
      plan,
      records: [...outcome.records].sort(byCheck),
      errors: [
        ...outcome.errors,
        ...(swept?.unverified !== undefined ? [swept.unverified] : []),
        ...(swept?.leftovers.length
          ? [`cleanup left ${swept.leftovers.length} object(s) of run ${runId} behind (leftovers)${cleanupCommand !== undefined ? `; remove them with: ${cleanupCommand}` : ''}`]
          : []),
      ],
      footprint,
      server: targetCfg.server,
      nodeagentLoader: nodeagent.description,
      startedAt: started,
      durationMs: Date.now() - started,
      ...(swept !== undefined ? { swept } : {}),
      ...(end !== undefined ? { end } : {}),
      ...(cleanupCommand !== undefined ? { cleanupCommand } : {}),
      ...(gate !== undefined ? { capabilities: gate.entries } : {}),
    });
    let run = executed(swept);
    const publish = io.publish ?? (async (r: ExecutedRun) => verdictOfRecords(r.records, r.end));
    // Hurried before the first reports: one set of reports, with what the run leaves.
    let verdict = stoppedFor !== undefined && stop.hurriedBy !== undefined ? undefined : await publish(run, stoppedFor === undefined);
    if (stoppedFor !== undefined) {
      if (verdict !== undefined) log(`svc-conformance: reports written; cleaning up run ${runId}`);
      swept = await sweep();
      run = executed(swept);
      verdict = await publish(run, true);
    }
    for (const line of swept === undefined ? [] : leftoverLines(swept, profile.runLabel, runId, cleanupCommand)) log(`svc-conformance: ${line}`);
    // docs/verdict-rules.md: a failure found is reported however the run ended.
    if (end !== undefined) log(`svc-conformance: ${end.line}`);
    const decided = verdict ?? 'interrupted';
    if (swept !== undefined && (swept.leftovers.length > 0 || swept.unverified !== undefined) && decided === 'conformant') return { exitCode: EXIT.unreachable, run };
    return { exitCode: exitCodeOf(decided, end), run };
  } finally {
    stop.dispose();
    // Bounded: a server that waits on a client that never hangs up must not keep the run alive.
    const cleanup = (async () => {
      await daemon.cleanup();
      await stopEmbedded?.();
    })();
    await Promise.race([cleanup, new Promise<void>((resolve) => setTimeout(resolve, CLEANUP_LIMIT_MS).unref())]);
  }
}

/** Longest any one probe request may take: the probe is a few requests, never a run of its own. */
const PROBE_REQUEST_TIMEOUT_MS = 10_000;
/** Longest the whole probe may take: a target that holds connections gets its run, not a stall before it. */
const PROBE_LIMIT_MS = 30_000;

/**
 * Probes what the target serves and splits the selection by it (runner/capability-gate.ts); nothing
 * when no API suite is selected or the run replays one counterexample.
 */
async function capabilityGate(plan: RunPlan, cfg: TargetConfig, settings: TargetSettings, log: (line: string) => void): Promise<CapabilityGate | undefined> {
  const chosen = plan.selection.selected;
  if (plan.capabilityProbe === false || plan.path !== undefined || !chosen.some((c) => c.suite.startsWith('rest-'))) return undefined;
  const clients = openProbeClients(cfg, plan.runId, plan.profile, PROBE_REQUEST_TIMEOUT_MS);
  try {
    let timer: NodeJS.Timeout | undefined;
    // The wait for a new type to be served is the run's eventual window, spent once here.
    const limitMs = PROBE_LIMIT_MS + settings.eventualWindowMs;
    const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), limitMs)));
    const probing = probeCapabilities(clients.guarded, clients.plain, { profile: plan.profile, runId: plan.runId, watchWaitMs: settings.watchWaitMs, typeWaitMs: settings.eventualWindowMs });
    const map = await Promise.race([probing, bound]);
    clearTimeout(timer);
    if (map === 'late') {
      log(`svc-conformance: capability probe undecided (no map within ${Math.round(limitMs / 1000)} s); every check runs`);
      return undefined;
    }
    return gateChecks(chosen, map);
  } catch (e) {
    // A probe that breaks decides nothing: every check runs and finds out for itself.
    log(`svc-conformance: capability probe undecided (${e instanceof Error ? e.message : String(e)}); every check runs`);
    return undefined;
  } finally {
    await clients.close();
  }
}

/** Without reports (the self-tests): the same rules, on the records alone. */
function verdictOfRecords(records: readonly CheckRecord[], end: RunEnd | undefined): RunVerdict {
  return decideRun({ regressions: regressionsOf(records), errors: records.some((r) => r.verdict === 'error'), notTested: [], ...(end !== undefined ? { end } : {}) }).verdict;
}

/** The clauses failed and not excused as known, once each. */
function regressionsOf(records: readonly CheckRecord[], known?: (r: CheckRecord) => boolean): string[] {
  return [...new Set(records.filter((r) => r.verdict === 'fail' && known?.(r) !== true).map((r) => r.clause))];
}

/** Pointing the `svc` names at an upstream server fails every named-group check: say so before running. */
async function refuseProfileMismatch(probe: ReturnType<typeof createTargetClient>, profile: Profile): Promise<void> {
  const r = await probe.send({ method: 'GET', path: '/apis' });
  const groups = (r.json as { groups?: { name?: unknown }[] } | undefined)?.groups;
  if (r.status !== 200 || !Array.isArray(groups)) return;
  const better = profileMismatch(
    groups.flatMap((g) => (typeof g.name === 'string' ? [g.name] : [])),
    profile,
  );
  if (better !== undefined) {
    throw new ConfigError(`the target serves ${profiles[better].groupSuffix} groups and no ${profile.groupSuffix} group: run with --profile ${better}`);
  }
}

/** TLS material as strings: the stage's settings stay plain data (they are printed and compared in tests). */
function cloneableTarget(cfg: TargetConfig): TargetConfig {
  const str = (v: string | Buffer | undefined) => (v === undefined ? undefined : typeof v === 'string' ? v : v.toString('utf8'));
  const tls = { ...cfg.tls, ca: str(cfg.tls.ca), cert: str(cfg.tls.cert), key: str(cfg.tls.key) };
  for (const k of ['ca', 'cert', 'key'] as const) if (tls[k] === undefined) delete tls[k];
  return { ...cfg, tls };
}

/** A file an option names; unreadable, the one line names the option too (`--baseline x.json: no such file`). */
export function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${option} ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
}

let cachedVersion: string | undefined;
/** The package's version, as the run's first line and the reports name it. */
export function version(): string {
  cachedVersion ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cachedVersion;
}

/** What an expectations signature reads of a failure (class, status, reason, text), as the record it matches. */
function observationOf(f: Judgement): Counterexample {
  return {
    check: '',
    clause: f.clause,
    expected: f.expected,
    observed: f.observed,
    ...(f.class !== undefined ? { class: f.class } : {}),
    ...(f.observedStatus !== undefined ? { observedStatus: f.observedStatus } : {}),
    ...(f.observedReason !== undefined ? { observedReason: f.observedReason } : {}),
  } as Counterexample;
}
