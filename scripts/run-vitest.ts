/**
 * Drives the vitest suites from the CLI: settings go in through `provide`, CheckRecords come back
 * through test meta to a collecting reporter, Allure results are written beside our reports.
 * Vitest's console output is replaced by the run's progress (reports/progress.ts); its own JUnit
 * reporter is not used: junit.xml is the run's one JUnit file (vitest's carried the harness's internal
 * stack traces, and printed "JUNIT report written to" into the progress line).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { startVitest } from 'vitest/node';
import type { CheckRecord } from '../runner/results.ts';
import type { SuiteSettings } from '../suites/settings.ts';
import type { CheckFootprint } from '../harness/footprint.ts';
import { within } from '../runner/run-stop.ts';
import { oneLineReason, type CheckOutcome } from '../reports/progress.ts';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface TestCaseLike {
  readonly name: string;
  readonly module: { readonly moduleId: string };
  meta(): { svcConformanceRecords?: CheckRecord[]; svcConformanceFootprint?: CheckFootprint };
  result(): { state: string; errors?: readonly { message?: string }[] };
}

/** Where the collector reports each check's start and end (reports/progress.ts draws them). */
export interface ProgressSink {
  checkStarted(id: string): void;
  checkDone(suite: string, id: string, outcome: CheckOutcome): void;
  /** A line a check has to tell at once (a failure found, before its shrinking). */
  line?(text: string): void;
}

class RecordCollector {
  readonly records: CheckRecord[] = [];
  readonly errors: string[] = [];
  readonly footprints: CheckFootprint[] = [];
  readonly finished: string[] = [];
  vitest: { cancelCurrentRun(reason: string): Promise<void> } | undefined;
  constructor(private readonly progress: ProgressSink) {}

  onInit(vitest: { cancelCurrentRun(reason: string): Promise<void> }): void {
    this.vitest = vitest;
  }

  onTestCaseReady(tc: TestCaseLike): void {
    this.progress.checkStarted(tc.name.split(' [')[0]!);
  }

  onTestCaseResult(tc: TestCaseLike): void {
    const recs = tc.meta().svcConformanceRecords ?? [];
    this.records.push(...recs);
    const fp = tc.meta().svcConformanceFootprint;
    if (fp) this.footprints.push(fp);
    const r = tc.result();
    // A test of a cancelled run (--timeout, SIGTERM) ends `pending` or `skipped` without its check.
    const ran = r.state === 'passed' || r.state === 'failed';
    const thrown = r.state === 'failed' ? oneLineReason(r.errors?.[0]?.message ?? 'failed') : undefined;
    if (recs.length === 0 && thrown !== undefined) this.errors.push(`${tc.name}: ${thrown}`);
    const id = tc.name.split(' [')[0]!;
    if (ran || recs.length > 0) this.finished.push(id);
    this.progress.checkDone(path.basename(tc.module.moduleId, '.suite.ts'), id, checkOutcome(recs, r.state, thrown));
  }

  /** The run's own lines from the checks (console.error in the worker: vitest's output is discarded). */
  onUserConsoleLog(log: { readonly content: string }): void {
    for (const l of log.content.split('\n')) if (l.startsWith('svc-conformance: ')) this.progress.line?.(l);
  }

  /** A hook of a suite that failed (its cleanup, say): the run's error, with its reason in one line. */
  onTestSuiteResult(suite: { readonly name: string; errors(): readonly { message?: string }[] }): void {
    for (const e of suite.errors()) this.errors.push(`${suite.name}: ${oneLineReason(e.message ?? 'failed')}`);
  }

  onTestRunEnd(_modules: unknown, unhandled: readonly { message?: string }[]): void {
    for (const e of unhandled) this.errors.push(`unhandled: ${oneLineReason(e.message ?? String(e))}`);
  }
}

export interface VitestRun {
  readonly records: CheckRecord[];
  readonly errors: string[];
  readonly footprints: CheckFootprint[];
  /** Checks whose test ended (with or without records). */
  readonly finished: string[];
  /** The run stopped (`o.stop`) before vitest ended: the checks not in `finished` were abandoned. */
  readonly abandoned: boolean;
}

/** What one check's test came to: failed clauses first, then errors (with the first reason). */
export function checkOutcome(recs: readonly CheckRecord[], state: string, thrown: string | undefined): CheckOutcome {
  const failed = [...new Set(recs.filter((x) => x.verdict === 'fail').map((x) => x.clause))];
  if (failed.length > 0) return { kind: 'fail', clauses: failed };
  const errored = recs.find((x) => x.verdict === 'error');
  if (errored !== undefined) return { kind: 'error', reason: `${errored.clause}: ${errored.note ?? 'error'}` };
  if (thrown !== undefined) return { kind: 'error', reason: thrown };
  if (state === 'skipped') return { kind: 'not checked' };
  if (state !== 'passed') return { kind: 'not run' };
  return { kind: 'ok' };
}

/**
 * Vitest's own output goes nowhere: the run's progress owns the terminal (issue 30: vitest hid the
 * cursor and glued "JUNIT report written to" onto the progress line). What a check has to say comes
 * back as records; errors outside a test as `unhandled` errors of the run.
 */
function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/**
 * `stop`: when it settles, no further test starts and the running ones get `graceMs` to end; then the
 * run returns what was collected and leaves vitest behind (the CLI exits once its reports are written).
 */
export async function runSuites(settings: SuiteSettings, o: { suites?: readonly string[]; reportsDir: string; progress: ProgressSink; sequential?: boolean; keepAllure?: boolean; stop?: Promise<unknown>; graceMs?: number }): Promise<VitestRun> {
  const collector = new RecordCollector(o.progress);
  // Allure reads every file in its folder: results of an earlier run would show beside this one's
  // (the second part of one run keeps the first part's).
  if (o.keepAllure !== true) await rm(path.join(o.reportsDir, 'allure-results'), { recursive: true, force: true });
  const filters = o.suites && o.suites.length > 0 ? o.suites.map((s) => `suites/${s}.suite.ts`) : [];
  const running = startVitest('test', filters, {
    config: false,
    root: packageRoot,
    include: ['suites/**/*.suite.ts'],
    watch: false,
    pool: 'forks',
    // One worker without isolation runs every suite file, so one scheduler runs the checks of all of
    // them concurrently (--parallel) with one namespace pool and one cleanup (harness/scheduler.ts).
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    // Each check is a long property run; a wall-clock limit would turn a slow target into a failure.
    testTimeout: 0,
    hookTimeout: 120_000,
    setupFiles: ['allure-vitest/setup', 'scripts/suite-setup.ts'],
    reporters: [
      collector as never,
      ['allure-vitest/reporter', { resultsDir: path.join(o.reportsDir, 'allure-results') }] as never,
    ],
    provide: { svcConformance: settings },
  } as never, { logLevel: 'silent' } as never, { stdout: discard(), stderr: discard() });
  const stopped = Symbol('stopped');
  const first = await Promise.race([running, ...(o.stop ? [o.stop.then(() => stopped)] : [])]);
  const collected = () => ({ records: [...collector.records], errors: [...collector.errors], footprints: [...collector.footprints], finished: [...collector.finished] });
  if (first !== stopped) {
    await (first as Awaited<typeof running>).close();
    return { ...collected(), abandoned: false };
  }
  const grace = o.graceMs ?? 10_000;
  void collector.vitest?.cancelCurrentRun('run stopped').catch(() => undefined);
  const ended = await within(running, grace);
  if (ended !== undefined) await within(ended.close(), grace);
  return { ...collected(), abandoned: true };
}
