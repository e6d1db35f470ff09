/**
 * The reports of one executed run, made from its record as `rejudge` makes them again: every file, the
 * record beside them, then (when asked) the summary on the terminal.
 */
import path from 'node:path';
import { footprintLines, sumFootprints } from '../harness/case/index.ts';
import type { ScaleProfile } from '../harness/case/index.ts';
import { checks } from '../suites/checks/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import { version, type ExecutedRun, type RunVerdict } from '../runner/executor.ts';
import type { RunInvocation, RunResult } from '../runner/results.ts';
import type { TargetIdentity } from '../reports/run-identity.ts';
import {
  buildRunResult,
  toSummaryJson,
  toTerminalSummary,
  writeReportsKeepingForeign,
  type BaselineClause,
  type Expectations,
} from '../reports/index.ts';
import { shownPath } from '../reports/progress.ts';
import type { Requirement } from '../reports/require.ts';
import { runRecordOf, writeRunRecord } from '../reports/run-record.ts';
import { reportExtrasOf } from '../reports/record-reports.ts';

/** What the reports name beside the run: read before it started, or learned while it ran. */
export interface PublishContext {
  readonly expectations: Expectations | undefined;
  readonly baseline: BaselineClause[] | undefined;
  readonly require: readonly Requirement[] | undefined;
  readonly identity: TargetIdentity;
  readonly invocation: RunInvocation;
}

export async function publish(
  run: ExecutedRun,
  print: boolean,
  ctx: PublishContext,
  log: (line: string) => void,
): Promise<RunResult & { verdict: RunVerdict }> {
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
      baseline,
    },
    run.footprint.checks,
  );
  const result = buildRunResult({ ...record.run, catalog });
  const stepSummaryFile = process.env['GITHUB_STEP_SUMMARY'];
  // Made from the record, as `rejudge` makes them again (reports/record-reports.ts).
  reportsDir = await writeReportsKeepingForeign(
    result,
    reportsDir,
    familyOf,
    { ...reportExtrasOf(record.run, result), ...(stepSummaryFile ? { stepSummaryFile } : {}) },
    (line) => log(`svc-conformance: warning: ${line}`),
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
  const terminal =
    toTerminalSummary(result, familyOf, {
      color: output === 'text' && process.stdout.isTTY === true,
      reportsDir: path.relative(process.cwd(), reportsDir) || '.',
    }) + '\n';
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
