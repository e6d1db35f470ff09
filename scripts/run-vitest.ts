/**
 * Drives the vitest suites from the CLI: settings go in through `provide`, CheckRecords come back
 * through test meta to a collecting reporter, Allure results and vitest's own JUnit are written
 * beside our reports. Vitest's console output is replaced by one progress line per check.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { startVitest } from 'vitest/node';
import type { CheckRecord } from '../harness/results.ts';
import type { SuiteSettings } from '../suites/settings.ts';
import type { CheckFootprint } from '../harness/footprint.ts';
import { within } from '../harness/run-stop.ts';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface TestCaseLike {
  readonly name: string;
  readonly module: { readonly moduleId: string };
  meta(): { svcConformanceRecords?: CheckRecord[]; svcConformanceFootprint?: CheckFootprint };
  result(): { state: string; errors?: readonly { message?: string }[] };
}

class RecordCollector {
  readonly records: CheckRecord[] = [];
  readonly errors: string[] = [];
  readonly footprints: CheckFootprint[] = [];
  readonly finished: string[] = [];
  vitest: { cancelCurrentRun(reason: string): Promise<void> } | undefined;
  constructor(private readonly log: (line: string, keep: boolean) => void, private readonly total: number, private done = 0) {}

  onInit(vitest: { cancelCurrentRun(reason: string): Promise<void> }): void {
    this.vitest = vitest;
  }

  onTestCaseResult(tc: TestCaseLike): void {
    this.done++;
    const recs = tc.meta().svcConformanceRecords ?? [];
    this.records.push(...recs);
    const fp = tc.meta().svcConformanceFootprint;
    if (fp) this.footprints.push(fp);
    const r = tc.result();
    const failed = recs.filter((x) => x.verdict === 'fail').length;
    // A test of a cancelled run (--timeout, SIGTERM) ends `pending` or `skipped` without its check.
    const ran = r.state === 'passed' || r.state === 'failed';
    const state = failed > 0 ? `FAIL (${[...new Set(recs.filter((x) => x.verdict === 'fail').map((x) => x.clause))].join(', ')})` : r.state === 'failed' ? 'ERROR' : r.state === 'skipped' ? 'not checked' : !ran ? 'not run (run stopped)' : 'ok';
    if (recs.length === 0 && r.state === 'failed') this.errors.push(`${tc.name}: ${r.errors?.[0]?.message ?? 'failed'}`);
    const id = tc.name.split(' [')[0]!;
    if (ran || recs.length > 0) this.finished.push(id);
    this.log(`[${String(this.done).padStart(String(this.total).length)}/${this.total}] ${path.basename(tc.module.moduleId, '.suite.ts')} ${id}: ${state}`, state !== 'ok' && state !== 'not checked' && ran);
  }

  onTestRunEnd(_modules: unknown, unhandled: readonly { message?: string }[]): void {
    for (const e of unhandled) this.errors.push(`unhandled: ${e.message ?? String(e)}`);
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

/**
 * On a terminal one live line is rewritten in place (failures stay on screen); in CI every check
 * gets a plain line, so logs read well without control characters.
 */
export function progressPrinter(stream: NodeJS.WriteStream): { line: (text: string, keep: boolean) => void; end: () => void } {
  if (!stream.isTTY) return { line: (text) => stream.write(`${text}\n`), end: () => undefined };
  let live = false;
  return {
    line: (text, keep) => {
      const width = Math.max(20, (stream.columns ?? 100) - 1);
      stream.write(`\r\u001b[K${keep ? text : text.slice(0, width)}${keep ? '\n' : ''}`);
      live = !keep;
    },
    end: () => {
      if (live) stream.write('\r\u001b[K');
    },
  };
}

/**
 * `stop`: when it settles, no further test starts and the running ones get `graceMs` to end; then the
 * run returns what was collected and leaves vitest behind (the CLI exits once its reports are written).
 */
export async function runSuites(settings: SuiteSettings, o: { suites?: readonly string[]; reportsDir: string; total: number; log: (line: string, keep: boolean) => void; sequential?: boolean; keepAllure?: boolean; done?: number; stop?: Promise<unknown>; graceMs?: number }): Promise<VitestRun> {
  const collector = new RecordCollector(o.log, o.total, o.done ?? 0);
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
      ['junit', { outputFile: path.join(o.reportsDir, o.keepAllure === true ? 'junit-vitest-exclusive.xml' : 'junit-vitest.xml') }] as never,
      ['allure-vitest/reporter', { resultsDir: path.join(o.reportsDir, 'allure-results') }] as never,
    ],
    provide: { svcConformance: settings },
  } as never, { logLevel: 'silent' } as never);
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
