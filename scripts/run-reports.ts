/**
 * What `svc-conformance run` does around the one executor (runner/executor.ts), wired where the command
 * line is: the files the plan names read (and refused when bad) before anything starts, the live
 * progress watching the checks, the expectations applied once the target's release is known, and the
 * reports made from what the executor returns (JUnit and Allure among them). The command line hands
 * over a plan and gets this back as the executor's `RunIO`; nothing here calls back into it.
 */
import path from 'node:path';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { ConfigError, loadTargetConfig } from '../harness/transport/index.ts';
import { footprintLines, sumFootprints } from '../harness/case/index.ts';
import type { ScaleProfile } from '../harness/case/index.ts';
import { checks } from '../suites/checks/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import type { RunPlan } from '../runner/plan.ts';
import { loadExternalTarget, readText, version, type ExecutedRun, type RunIO, type RunVerdict } from '../runner/executor.ts';
import { processSignals } from './run-signals.ts';
import { directStage, type CheckStage } from '../runner/check-stage.ts';
import type { CheckRecord, RunInvocation, RunResult } from '../runner/results.ts';
import { invocationOf, targetIdentity, type RunReportOptions, type TargetIdentity } from '../reports/run-identity.ts';
import { excusedFailure } from '../reports/known-failures.ts';
import {
  baselineClauses,
  buildRunResult,
  compareWithBaseline,
  ExpectationsError,
  expectationsForRun,
  mergeExpectations,
  parseExpectations,
  toSummaryJson,
  toTerminalSummary,
  writeReportsKeepingForeign,
  type BaselineClause,
  type Expectations,
} from '../reports/index.ts';
import { makeWritableDir } from '../reports/reports-dir.ts';
import { ownedReportFiles, ReportsDirError, RUN_CLAIM } from '../reports/reports-ownership.ts';
import { outcomeOfRecords, Progress, shownPath } from '../reports/progress.ts';
import { reportRefusedRun } from '../reports/refused-run.ts';
import type { Requirement } from '../reports/require.ts';
import { runRecordOf, writeRunRecord } from '../reports/run-record.ts';
import { reportExtrasOf } from '../reports/record-reports.ts';

/**
 * The executor's RunIO for `run`. Throws ConfigError (one line, exit 2) for a reports folder that
 * cannot be written or an expectations or baseline file that cannot be read, before any target starts.
 */
export function runReports(plan: RunPlan, o: RunReportOptions = {}): RunIO {
  // Every line of the run goes above the live status line once the checks run (reports/progress.ts).
  const progress = new Progress(process.stderr);
  const log = (line: string) => progress.line(line);
  const invocation = invocationOf(plan, o);
  // Until the target answers (a refused run never gets that far), it is named from the plan.
  let identity: TargetIdentity | undefined;
  // Read (and refused when malformed) before anything starts or is made; applied once the target's release is known.
  const listed = plan.expectations.files.length ? readExpectations(plan.expectations.files) : undefined;
  const baseline = plan.reports.baseline === undefined ? undefined : readBaseline(plan.reports.baseline);
  ensureWritableDir(plan.reports.dir);
  for (const w of listed?.warnings ?? []) log(`svc-conformance: warning: ${w}`);
  let expectations: Expectations | undefined;
  return {
    log,
    stage: progressStage(progress, (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r)),
    edge: {
      signals: processSignals(plan, log),
      checksDone: () => progress.end(),
      reachable: (release, target) => {
        identity = targetIdentity(plan, target.server, target.source, target.reportedVersion);
        progress.target(target.server, release, identity.kind === 'embedded' ? identity.description : target.source);
        if (listed) {
          expectations = expectationsForRun(listed, {
            scale: plan.settings.scale !== undefined,
            profile: plan.profile.name,
            capabilities: plan.expectations.capabilities,
            ...(release ? { release } : {}),
          });
          // Said up front: what the live "known failure" lines below are measured against.
          const n = expectations.knownFailures.length;
          log(`svc-conformance: expectations ${plan.expectations.files.join(', ')}: ${n} entr${n === 1 ? 'y holds' : 'ies hold'} for this target`);
        }
        return (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r);
      },
      publish: async (run, print) => (await publish(run, print, { expectations, baseline, require: o.require, identity: identity ?? targetIdentity(plan, run.server), invocation }, log)).verdict,
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
          target: identity ?? targetIdentity(plan, run.server),
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

/** The reports of one executed run: every file, then (when `print`) the summary on the terminal. */
interface PublishContext {
  readonly expectations: Expectations | undefined;
  readonly baseline: BaselineClause[] | undefined;
  readonly require: readonly Requirement[] | undefined;
  readonly identity: TargetIdentity;
  readonly invocation: RunInvocation;
}

async function publish(run: ExecutedRun, print: boolean, ctx: PublishContext, log: (line: string) => void): Promise<RunResult & { verdict: RunVerdict }> {
  const { expectations, baseline, require } = ctx;
  const { plan } = run;
  let reportsDir = plan.reports.dir;
  // The record is the reports' source: what the reports are built of, with the checks' judge calls.
  const record = runRecordOf(
    {
      records: [...run.records],
      footprint: run.footprint,
      profile: plan.profile.name,
      seed: plan.seed,
      server: run.server,
      nodeagentLoader: run.nodeagentLoader,
      target: ctx.identity,
      invocation: ctx.invocation,
      startedAt: new Date(run.startedAt).toISOString(),
      durationMs: run.durationMs,
      version: version(),
      errors: [...run.errors],
      expectations,
      ...(run.swept !== undefined ? { leftovers: run.swept.leftovers } : {}),
      end: run.end,
      cleanupCommand: run.cleanupCommand,
      selected: plan.selection.selected,
      capabilities: run.capabilities,
      ...(require !== undefined ? { require: [...require] } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
    },
    run.footprint.checks,
  );
  const result = buildRunResult({ ...record.run, catalog });
  const stepSummaryFile = process.env['GITHUB_STEP_SUMMARY'];
  // Made from the record, as `rejudge` makes them again (reports/record-reports.ts).
  reportsDir = await writeReportsKeepingForeign(result, reportsDir, familyOf, { ...reportExtrasOf(record.run, result), ...(stepSummaryFile ? { stepSummaryFile } : {}) }, (line) =>
    log(`svc-conformance: warning: ${line}`),
  );
  // Written while the summary is printed; a failure to write it is handled when it is awaited below.
  const recorded = writeRunRecord(reportsDir, record).then(
    () => undefined,
    (e: unknown) => e,
  );
  const recordWritten = async (): Promise<void> => {
    const e = await recorded;
    if (e !== undefined) throw e;
  };
  if (!print) {
    await recordWritten();
    return result;
  }
  // -o json: stdout is the summary alone, for a pipe into jq; the terminal summary goes to stderr.
  const output = plan.reports.output;
  const terminal = toTerminalSummary(result, familyOf, { color: output === 'text' && process.stdout.isTTY === true, reportsDir: path.relative(process.cwd(), reportsDir) || '.' }) + '\n';
  if (output === 'json') {
    process.stderr.write(terminal);
    process.stdout.write(toSummaryJson(result, { catalog, familyOf }));
  } else process.stdout.write(terminal);
  for (const line of footprintLines(result.footprint ?? run.footprint)) log(`svc-conformance: ${line}`);
  if (plan.settings.scale !== undefined) for (const line of scaleLines(plan.settings.scale, run.footprint)) log(`svc-conformance: ${line}`);
  log(`svc-conformance: open ${shownPath(path.join(reportsDir, 'index.html'))}`);
  await recordWritten();
  return result;
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

/** The scale profile's own time and footprint: the rest-scale checks' part of the run's. */
function scaleLines(p: ScaleProfile, f: ReturnType<typeof sumFootprints>): string[] {
  const mine = f.checks.filter((c) => checks.find((k) => k.id === c.check)?.suite === 'rest-scale');
  if (mine.length === 0) return [`scale ${p.name}: no rest-scale check ran (select --suite rest-scale or leave the selection open)`];
  const part = sumFootprints(mine);
  const [first] = footprintLines(part, mine.length);
  return [
    `scale ${p.name}: ${p.objects} objects in one collection, pages of ${p.pageLimit}, ${p.namespaceRoots * p.namespaceDepth} prefix namespaces, objects of ${p.nearLimitBytes} and ${p.overLimitBytes} bytes`,
    `scale ${p.name} time: ${mine.map((c) => `${c.check} ${(c.wallMs / 1000).toFixed(1)} s`).join(', ')}`,
    `scale ${p.name} ${first!}`,
  ];
}

/** Fails before any request is sent: a run whose reports cannot be written has wasted the target's time. */
function ensureWritableDir(dir: string): void {
  try {
    makeWritableDir(dir);
  } catch (e) {
    throw new ConfigError(`--reports ${dir}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  checkReportsOwnership(dir);
}

/** Refuses, before any request is sent, a folder where the reports would replace files the suite did not write. */
export function checkReportsOwnership(dir: string): void {
  try {
    ownedReportFiles(dir, RUN_CLAIM);
  } catch (e) {
    if (e instanceof ReportsDirError) throw new ConfigError(`--reports: ${e.message}`);
    throw e;
  }
}

/**
 * `run --dry-run`: everything a run would read before it starts, read and refused the same way (one
 * line, exit 2), without sending, starting or writing anything: the target's files (a kubeconfig
 * parsed, its context found; a credential plugin is not started), the expectations and baseline files
 * and the reports folder. The plan itself already holds the selection and the hooks.
 */
export async function checkRunInputs(plan: RunPlan): Promise<void> {
  if (plan.target.kind === 'external') {
    await loadExternalTarget(plan.target, { checkOnly: true });
    const restricted = plan.target.restrictedKubeconfig;
    if (restricted !== undefined)
      await loadTargetConfig({ kubeconfig: restricted, checkOnly: true }).catch((e: unknown) => {
        throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
      });
  }
  if (plan.expectations.files.length > 0) readExpectations(plan.expectations.files);
  if (plan.reports.baseline !== undefined) readBaseline(plan.reports.baseline);
  // The folder, or the nearest one that exists above it, must be a writable directory; nothing is made.
  let at = plan.reports.dir;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  try {
    if (!statSync(at).isDirectory()) throw new ConfigError(`--reports ${plan.reports.dir}: cannot write there (${at} is not a directory)`);
    accessSync(at, constants.W_OK);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`--reports ${plan.reports.dir}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (at === plan.reports.dir) checkReportsOwnership(plan.reports.dir);
}

/** Every --expectations file, merged; a malformed one, or one naming a clause the catalog lacks, is a usage error (one line, exit 2). */
function readExpectations(files: readonly string[]): Expectations {
  const ids = catalog.map((c) => c.id);
  try {
    return mergeExpectations(files.map((f) => parseExpectations(readText(f, '--expectations'), f, ids)));
  } catch (e) {
    if (e instanceof ExpectationsError) throw new ConfigError(`--expectations ${e.message}`);
    throw e;
  }
}

function readBaseline(file: string): BaselineClause[] {
  let json: unknown;
  try {
    json = JSON.parse(readText(file, '--baseline'));
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`--baseline ${file}: not JSON (${(e as Error).message})`);
  }
  try {
    return baselineClauses(json, file);
  } catch (e) {
    throw new ConfigError(`--baseline ${(e as Error).message}`);
  }
}
