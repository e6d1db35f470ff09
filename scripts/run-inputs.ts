/**
 * The files a run's plan names, read once before anything starts and refused the same way whether the
 * run goes ahead or is a `--dry-run` (one line, exit 2): the target's files, the expectations and
 * baseline files and the reports folder. What is read is handed to the reports (scripts/run-reports.ts)
 * so that nothing there reads an option again.
 */
import path from 'node:path';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { ConfigError, loadTargetConfig } from '../harness/transport/index.ts';
import { catalog } from '../reference/catalog/index.ts';
import type { RunPlan } from '../runner/plan.ts';
import { loadExternalTarget, readText } from '../runner/executor.ts';
import {
  baselineClauses,
  ExpectationsError,
  mergeExpectations,
  parseExpectations,
  type BaselineClause,
  type Expectations,
} from '../reports/index.ts';
import { makeWritableDir } from '../reports/reports-dir.ts';
import { ownedReportFiles, ReportsDirError, RUN_CLAIM } from '../reports/reports-ownership.ts';

/** What a run read from its files before it started: the listed expectations (not yet applied to a release) and the baseline. */
export interface RunInputs {
  readonly listed?: Expectations;
  readonly baseline?: BaselineClause[];
}

/**
 * A run's inputs: read, and the reports folder made writable, before any request is sent (a run whose
 * reports cannot be written has wasted the target's time). With `dryRun` nothing is made: the folder,
 * or the nearest one above it, must be a writable directory, and the target's files are parsed too.
 */
export async function readRunInputs(plan: RunPlan, o: { dryRun?: boolean } = {}): Promise<RunInputs> {
  if (o.dryRun === true) await checkTargetFiles(plan);
  const listed = plan.expectations.files.length > 0 ? readExpectations(plan.expectations.files) : undefined;
  const baseline = plan.reports.baseline === undefined ? undefined : readBaseline(plan.reports.baseline);
  readyReportsDir(plan.reports.dir, o.dryRun === true);
  return { listed, baseline };
}

/** `run --dry-run`: a kubeconfig parsed, its context found (a credential plugin is not started). */
async function checkTargetFiles(plan: RunPlan): Promise<void> {
  if (plan.target.kind !== 'external') return;
  await loadExternalTarget(plan.target, { checkOnly: true });
  const restricted = plan.target.restrictedKubeconfig;
  if (restricted !== undefined)
    await loadTargetConfig({ kubeconfig: restricted, checkOnly: true }).catch((e: unknown) => {
      throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
    });
}

/**
 * The reports folder made writable (a dry run makes nothing: the folder, or the nearest one that exists
 * above it, must be a writable directory), and refused where the reports would replace files the suite
 * did not write.
 */
function readyReportsDir(dir: string, dryRun: boolean): void {
  const at = dryRun ? writableAbove(dir) : dir;
  try {
    if (!dryRun) makeWritableDir(dir);
  } catch (e) {
    throw new ConfigError(`--reports ${dir}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (at !== dir) return;
  try {
    ownedReportFiles(dir, RUN_CLAIM);
  } catch (e) {
    if (e instanceof ReportsDirError) throw new ConfigError(`--reports: ${e.message}`);
    throw e;
  }
}

/** The folder, or the nearest one that exists above it, when it is a writable directory. */
function writableAbove(dir: string): string {
  let at = dir;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  try {
    if (!statSync(at).isDirectory()) throw new ConfigError(`--reports ${dir}: cannot write there (${at} is not a directory)`);
    accessSync(at, constants.W_OK);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`--reports ${dir}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return at;
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
