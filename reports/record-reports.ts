/**
 * The reports of a run from its record (docs/rejudge.md): what `svc-conformance run` writes beside
 * summary.json (JUnit, HTML, summary.md with its baseline changes, Allure results, failure pages and
 * reproducers) is made by one function of the recorded run and its judgement, so `rejudge` writes the
 * same files from the record alone. Nothing here reads the plan, the environment or the clock.
 */
import type { Selectable } from '../harness/case/index.ts';
import { catalog } from '../reference/catalog/index.ts';
import type { CheckRecord, RunResult } from '../runner/results.ts';
import { compareWithBaseline } from './baseline.ts';
import { excusedFailure } from './known-failures.ts';
import type { RecordedRun } from './run-record.ts';
import type { WriteExtras } from './write.ts';

/** The checks a run selected as the reports name them (the record keeps more of each: its JSON). */
const selectable = (c: Selectable): Selectable => ({ id: c.id, suite: c.suite, title: c.title, clauses: c.clauses });

/** What the report writer takes besides the judgement: every piece from the record. */
export function reportExtrasOf(run: RecordedRun, result: RunResult): WriteExtras {
  const known = run.expectations?.knownFailures;
  return {
    catalog,
    baseline: run.baseline === undefined ? undefined : compareWithBaseline(result, run.baseline),
    allure: {
      checks: (run.selected ?? []).map(selectable),
      records: run.records,
      footprints: run.footprint?.checks ?? [],
      seed: run.seed,
      profile: run.profile,
      startedAt: Date.parse(run.startedAt),
      known: known === undefined ? undefined : (r: CheckRecord) => excusedFailure(known, r),
    },
  };
}
