/**
 * The case room of harness/, its only door: code outside this folder imports from here, code inside
 * imports its siblings directly.
 *
 * The check contract: a check, its environment, one case's context and judge, the violation it throws,
 * and what a run costs and reaches (footprint, reach, request economy), with the run's options (selection,
 * scale, hooks, shrink budget). Depends on transport, processes and reproducers.
 */
export { BackgroundWriter, withBackgroundWrites } from './background-writes.ts';
export { CASE_LABEL, CaseContext, expectOk, releaseCaseNamespaces } from './case-context.ts';
export { eventualWindowOf, waitsOut, watchWaitOf } from './check-env.ts';
export type { CheckEnv, TargetSettings } from './check-env.ts';
export { casesOf } from './check.ts';
export type { AnyCheck, Check } from './check.ts';
export { didYouMean } from './did-you-mean.ts';
export { emptyFootprint, footprintLines, sumFootprints } from './footprint.ts';
export type { CheckFootprint, RunFootprint } from './footprint.ts';
export { ownEnv } from './own-env.ts';
export { parseHookArg, runHook } from './hooks.ts';
export type { Hooks } from './hooks.ts';
export { DEFAULT_POOL_SIZE, NamespacePool, PRECONDITION_FAILED } from './namespace-pool.ts';
export type { Lease } from './namespace-pool.ts';
export { DAEMON_NOT_SELECTED, isNotSelected, LOADER_NOT_SELECTED } from './not-selected.ts';
export { emptyReach } from './reach.ts';
export type { CheckReach, Exercised, RequirementResult, Scorecard, TableCells } from './reach.ts';
export { requestEconomy } from './request-economy.ts';
export { prefixNamespaceNames, SCALE_CHOICES, SCALE_WINDOW_MS, scaleProfileByName, scaleProfiles } from './scale.ts';
export type { ScaleProfile } from './scale.ts';
export { requireSome, selectChecks, selectionOf } from './selection.ts';
export type { Selectable } from './selection.ts';
export { DEFAULT_SHRINK_TIME_MS, SHRINK_RUN_RESERVE_MS, ShrinkBudget } from './shrink-budget.ts';
export { Tally } from './tally.ts';
export { CheckNotApplicable, ClauseViolation } from './violation.ts';
export * from './recorded-judges.ts';
export * from './judge-record.ts';
