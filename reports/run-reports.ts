/**
 * What `svc-conformance run` does around the one executor (runner/executor.ts): the files the plan names
 * read (and refused when bad) before anything starts, the live progress watching the checks, the
 * expectations applied once the target's release is known, and the reports made from what the executor
 * returns (JUnit and Allure among them). The command line hands over a plan and gets this back as the
 * executor's `RunIO`; nothing here calls back into it.
 */
import path from 'node:path';
import { ConfigError } from '../harness/kubeconfig.ts';
import { footprintLines, sumFootprints } from '../harness/footprint.ts';
import type { ScaleProfile } from '../harness/scale.ts';
import { checks } from '../suites/checks/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import type { RunPlan } from '../runner/plan.ts';
import { readText, version, type ExecutedRun, type RunIO, type RunVerdict } from '../runner/executor.ts';
import { directStage, type CheckStage } from '../runner/check-stage.ts';
import type { RunResult } from '../runner/results.ts';
import { excusedFailure } from './known-failures.ts';
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
  writeReports,
  type BaselineClause,
  type Expectations,
} from './index.ts';
import { makeWritableDir } from './reports-dir.ts';
import { outcomeOfRecords, Progress, shownPath } from './progress.ts';
import { reportRefusedRun } from './refused-run.ts';
import type { Requirement } from './require.ts';
import { writeNodeagentCases } from './nodeagent-cases.ts';

/**
 * The executor's RunIO for `run`. Throws ConfigError (one line, exit 2) for a reports folder that
 * cannot be written or an expectations or baseline file that cannot be read, before any target starts.
 */
export function runReports(plan: RunPlan, o: { readonly require?: readonly Requirement[] } = {}): RunIO {
  // Every line of the run goes above the live status line once the checks run (reports/progress.ts).
  const progress = new Progress(process.stderr);
  const log = (line: string) => progress.line(line);
  ensureWritableDir(plan.reports.dir);
  // Read (and refused when malformed) before anything starts; applied once the target's release is known.
  const listed = plan.expectations.files.length ? readExpectations(plan.expectations.files) : undefined;
  for (const w of listed?.warnings ?? []) log(`svc-conformance: warning: ${w}`);
  let expectations: Expectations | undefined;
  const baseline = plan.reports.baseline === undefined ? undefined : readBaseline(plan.reports.baseline);
  return {
    log,
    stage: progressStage(progress),
    afterChecks: () => progress.end(),
    onReachable: (release, target) => {
      const t = plan.target;
      progress.target(
        target.server,
        release,
        t.kind === 'external'
          ? target.source
          : `${target.source}${t.faults.length ? ` with faults ${t.faults.join(', ')}` : ''}${t.variations.length ? ` with variations ${t.variations.join(', ')}` : ''}`,
      );
      if (listed)
        expectations = expectationsForRun(listed, {
          scale: plan.settings.scale !== undefined,
          profile: plan.profile.name,
          capabilities: plan.expectations.capabilities,
          ...(release ? { release } : {}),
        });
      return (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r);
    },
    publish: async (run, print) => (await publish(run, print, expectations, baseline, o.require, log)).verdict,
    onRefused: (line, run) =>
      reportRefusedRun({
        line,
        selected: plan.selection.selected,
        catalog,
        familyOf,
        profile: plan.profile.name,
        seed: plan.seed,
        server: run.server,
        nodeagentLoader: run.nodeagentLoader,
        startedMs: run.startedAt,
        version: version(),
        reportsDir: plan.reports.dir,
        output: plan.reports.output,
        ...(expectations ? { expectations } : {}),
      }),
  };
}

/** The reports of one executed run: every file, then (when `print`) the summary on the terminal. */
async function publish(
  run: ExecutedRun,
  print: boolean,
  expectations: Expectations | undefined,
  baseline: BaselineClause[] | undefined,
  require: readonly Requirement[] | undefined,
  log: (line: string) => void,
): Promise<RunResult & { verdict: RunVerdict }> {
  const { plan } = run;
  const reportsDir = plan.reports.dir;
  const result = buildRunResult({
    records: [...run.records],
    footprint: run.footprint,
    catalog,
    profile: plan.profile.name,
    seed: plan.seed,
    server: run.server,
    nodeagentLoader: run.nodeagentLoader,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.durationMs,
    version: version(),
    errors: [...run.errors],
    ...(expectations ? { expectations } : {}),
    ...(run.swept !== undefined ? { leftovers: run.swept.leftovers } : {}),
    selected: plan.selection.selected,
    ...(run.capabilities !== undefined ? { capabilities: run.capabilities } : {}),
    ...(require !== undefined ? { require: [...require] } : {}),
  });
  const stepSummaryFile = process.env['GITHUB_STEP_SUMMARY'];
  const written = await writeReports(result, reportsDir, familyOf, {
    catalog,
    ...(baseline !== undefined ? { baseline: compareWithBaseline(result, baseline) } : {}),
    ...(stepSummaryFile ? { stepSummaryFile } : {}),
    allure: { checks: plan.selection.selected, records: run.records, footprints: run.footprint.checks, seed: plan.seed, profile: plan.profile.name, startedAt: run.startedAt },
  });
  written.files.push(...(await writeNodeagentCases(result, reportsDir)));
  if (!print) return result;
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
  return result;
}

/** The checks in this process, each told to the live progress as it starts and ends. */
function progressStage(progress: Progress): CheckStage {
  return directStage({
    events: {
      begin: (total) => progress.begin(total),
      checkStarted: (id) => progress.checkStarted(id),
      checkDone: (check, records, thrown) => progress.checkDone(check.suite, check.id, outcomeOfRecords(records, thrown)),
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
}

/** Every --expectations file, merged; a malformed one is a usage error (one line, exit 2). */
function readExpectations(files: readonly string[]): Expectations {
  try {
    return mergeExpectations(files.map((f) => parseExpectations(readText(f, '--expectations'), f)));
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
