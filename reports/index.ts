/** The report layer's public surface: results as data, pure formatters, one writer. */
export {
  aggregate,
  buildRunResult,
  statusOf,
  totalsOf,
  unknownClauseIds,
  verdictOf,
  NOT_IN_CATALOG,
  NOW_PASSES_NOTE,
} from './aggregate.ts';
export type { AggregateOptions, BuildRunArgs } from './aggregate.ts';
export {
  capabilityFact,
  CAPABILITIES,
  ExpectationsError,
  expectationsForRun,
  mergeExpectations,
  noExpectations,
  parseExpectations,
  unknownExpectationIds,
} from './expectations.ts';
export type { Capability, Expectations, KnownFailure } from './expectations.ts';
export type { ClauseExpectation, EntryResult } from './known-failures.ts';
export { groupByArea, isRegression } from './areas.ts';
export type { Area, FamilyOf, StatusCounts } from './areas.ts';
export { coverageOf } from './coverage.ts';
export type { Coverage, CoverageContext, CoverageFigure } from './coverage.ts';
export { toSummary, toSummaryJson } from './summary-json.ts';
export type { SummaryClause, SummaryJson } from './summary-json.ts';
export { toJUnitXml } from './junit.ts';
export { toHtml } from './html.ts';
export { toTerminalSummary } from './text.ts';
export type { TerminalOptions } from './text.ts';
export { counterexampleScripts, sanitiseFileName, writeReports, writeReportsKeepingForeign } from './write.ts';
export type { ExtraFile, WriteExtras } from './write.ts';
export { toMarkdownSummary } from './markdown.ts';
export { baselineClauses, compareWithBaseline } from './baseline.ts';
export type { BaselineClause, BaselineDiff } from './baseline.ts';
export { MergeError, mergeSummaries, parseShard, shardOf } from './merge.ts';
