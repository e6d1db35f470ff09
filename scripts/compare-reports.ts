/**
 * The edge of `compare` (runner/executed-compare.ts): its reports folder checked before any server
 * starts, and the executed comparison made into compare.json, compare.md and compare.html there.
 */
import path from 'node:path';
import { ConfigError } from '../harness/transport/index.ts';
import type { ComparePlan } from '../runner/compare-plan.ts';
import type { CompareEdge, ExecutedCompare } from '../runner/executor.ts';
import { version } from '../runner/executor.ts';
import { buildCompareResult, compareExitCode, toCompareJson, toCompareMarkdown, type CompareResult } from '../reports/compare-result.ts';
import { toCompareHtml } from '../reports/compare-html.ts';
import { makeWritableDir } from '../reports/reports-dir.ts';
import { COMPARE_CLAIM } from '../reports/reports-ownership.ts';
import { checkOwned, writeOwned } from './reports-option.ts';

export interface CompareReports extends CompareEdge {
  /** Once published: the result and the files written. */
  readonly published?: { readonly result: CompareResult; readonly files: readonly string[] };
}

/** Throws a ConfigError (exit 2) when the folder cannot be written or holds another tool's files. */
export function compareReports(plan: ComparePlan): CompareReports {
  const dir = path.resolve(plan.reports);
  try {
    makeWritableDir(dir);
  } catch (e) {
    throw new ConfigError(`--reports ${plan.reports}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  checkOwned(dir, COMPARE_CLAIM);
  const edge: { -readonly [K in keyof CompareReports]: CompareReports[K] } = {
    publish: async (c: ExecutedCompare) => {
      const result = resultOf(c);
      const files = [
        [path.join(dir, 'compare.json'), toCompareJson(result)],
        [path.join(dir, 'compare.md'), toCompareMarkdown(result)],
        [path.join(dir, 'compare.html'), toCompareHtml(result)],
      ] as const;
      writeOwned(dir, COMPARE_CLAIM, files);
      edge.published = { result, files: files.map(([f]) => f) };
      return compareExitCode(result);
    },
  };
  return edge;
}

function resultOf(c: ExecutedCompare): CompareResult {
  const { plan } = c;
  return buildCompareResult({
    version: version(),
    seed: plan.seed,
    runs: plan.runs,
    strict: plan.strict,
    startedAt: c.startedAt,
    durationMs: c.durationMs,
    target: c.target,
    reference: c.reference,
    suites: [...new Set(c.checks.map((k) => k.suite))],
    checks: [...c.checks],
    steps: [...c.steps],
    notCompared: c.notCompared,
    replayOf: (s) => `${plan.replayBase} --check ${s.check} --seed ${s.seed} --path ${s.path}`,
  });
}
