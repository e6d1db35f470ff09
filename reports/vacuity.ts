/**
 * The vacuity guard: a run that exercised too little of what it
 * selected is `notTested` rather than `conformant`. A target that refuses the run's identity once the
 * preflight let it in, or whose answers stop every check at its first request, would otherwise read as
 * "conformant, 590 not checked". It never hides a failure: a run that failed a clause is nonconformant
 * whatever this says, and the line goes beside the verdict (runner/run-verdict.ts).
 *
 * Everything is relative to the selection, so `--suite X` or `--check Y` is measured against X or Y:
 * - a selected check *declines* when every record it made is notChecked or skipped with a reason (no
 *   loader given, needs --slow, capability absent): it is left out of the measure;
 * - a check *reached a verdict* when it decided at least one clause (passed, failed or unspecified);
 *   a clause with a failure the expectations file excuses is decided by none of its records (a known
 *   gap is no judgement of the target), nor is an inconclusive one (Jepsen's unknown: asked, nothing
 *   decided);
 * - a *feature area* is a section of the spec (rest:4.5, node:2.2); it was reached when some check
 *   decided a clause of it.
 * The run is not tested when
 * - no selected check reached a verdict, or
 * - fewer than half of the checks that did not decline reached a verdict (the rest errored or
 *   stopped silently), or
 * - fewer than half of the feature areas the API checks among them declare were reached, or
 * - the API checks decided, on average, fewer than a third of the clauses each declares (less the ones
 *   it declined with a reason): checks that each stop at their first request decide one clause apiece,
 *   and one check with a long table (45 removed API versions answering 404) cannot make up for the
 *   others. A loader or daemon check counts toward the check rule only: it declares every field clause
 *   its inputs may reach (across sections) and decides the ones a run's draws reach.
 */
import type { CheckRecord } from '../runner/results.ts';
import { NOT_REACHED } from '../runner/run-check.ts';
import type { Exercised } from '../harness/case/index.ts';

export type { Exercised } from '../harness/case/index.ts';

/** Checks that must reach a verdict, of those that did not decline. */
export const MIN_CHECK_FRACTION = 0.5;
/** Feature areas that must be reached, of those the checks that did not decline declare. */
export const MIN_AREA_FRACTION = 0.5;
/**
 * Clauses each API check must decide on average, of those it declares. A clean default run decides 75%
 * to 100% of each check's (67% at --runs 1); one replayed case of one check often decides a few.
 */
export const MIN_CLAUSE_FRACTION = 1 / 3;

const DECIDED = new Set<CheckRecord['verdict']>(['pass', 'fail', 'unspecified']);
// blocked: the check needs a feature the capability probe found not served (runner/capability-gate.ts).
const DECLINED = new Set<CheckRecord['verdict']>(['notChecked', 'skipped', 'blocked']);
/** Declined with a reason of its own (no loader, needs --slow), not left unreached by a failure. */
const declined = (r: CheckRecord): boolean => DECLINED.has(r.verdict) && r.note !== undefined && !r.note.startsWith(NOT_REACHED);

export interface VacuityOptions {
  /** A failure the expectations file excuses: it decides nothing. */
  readonly excused?: (r: CheckRecord) => boolean;
  /** The feature area of a clause; by default the spec section its id names (`rest:4.5/list/...` -> `rest:4.5`). */
  readonly areaOf?: (clause: string) => string;
}

/**
 *   areaOfClause('rest:4.5/list/unset/limit/unset') -> 'rest:4.5'
 *   areaOfClause('rest:4.2.1') -> 'rest:4.2';  areaOfClause('rest:7/410') -> 'rest:7'
 */
export function areaOfClause(clause: string): string {
  const m = /^([a-z]+:\d+(?:\.\d+)?)/.exec(clause);
  return m === null ? clause.split('/')[0]! : m[1]!;
}

type Selected = { readonly id: string; readonly suite?: string; readonly clauses: readonly string[] };

export function exercisedOf(records: readonly CheckRecord[], selected: readonly Selected[], o: VacuityOptions = {}): Exercised {
  const areaOf = o.areaOf ?? areaOfClause;
  const isExcused = (r: CheckRecord): boolean => r.verdict === 'fail' && o.excused?.(r) === true;
  const byCheck = new Map<string, CheckRecord[]>();
  for (const r of records) {
    const list = byCheck.get(r.check);
    if (list === undefined) byCheck.set(r.check, [r]);
    else list.push(r);
  }
  const declared = new Set<string>();
  const judged = new Set<string>();
  const declaredAreas = new Set<string>();
  const judgedAreas = new Set<string>();
  const fractions: number[] = [];
  let applicable = 0;
  let withVerdict = 0;
  let firstDecline: string | undefined;
  for (const c of selected) {
    const own = byCheck.get(c.id) ?? [];
    if (own.length > 0 && own.every(declined)) {
      firstDecline ??= `${c.id}: ${own[0]!.note}`;
      continue;
    }
    applicable++;
    // A clause with an excused failure is a known gap, however its other records went: not judged.
    const excusedClauses = new Set(own.filter(isExcused).map((r) => r.clause));
    const decided = own.filter((r) => DECIDED.has(r.verdict) && !excusedClauses.has(r.clause));
    if (decided.length > 0) withVerdict++;
    const mine = new Set<string>();
    for (const clause of c.clauses) {
      const its = own.filter((r) => r.clause === clause);
      if (its.length > 0 && its.every(declined)) continue;
      mine.add(clause);
    }
    // A check may decide clauses beyond its declared list (a shared judge): they count as declared too.
    for (const r of decided) mine.add(r.clause);
    const mineJudged = new Set(decided.map((r) => r.clause));
    if (c.suite !== undefined && !c.suite.startsWith('rest-')) continue;
    for (const clause of mine) declaredAreas.add(areaOf(clause));
    for (const clause of mineJudged) judgedAreas.add(areaOf(clause));
    for (const clause of mine) declared.add(clause);
    for (const clause of mineJudged) judged.add(clause);
    if (mine.size > 0) fractions.push(mineJudged.size / mine.size);
  }
  const mean = fractions.length === 0 ? 1 : fractions.reduce((a, b) => a + b, 0) / fractions.length;
  const percent = (x: number) => `${Math.round(100 * x)}%`;
  const figures =
    `${withVerdict} of ${selected.length} selected checks reached a verdict (${selected.length - applicable} declined), ` +
    `${judgedAreas.size} of ${declaredAreas.size} feature areas of the API checks reached, ${judged.size} of ${declared.size} of their clauses judged` +
    (fractions.length > 0 ? ` (${percent(mean)} of its own per API check, on average)` : '');
  const why =
    selected.length === 0
      ? undefined
      : withVerdict === 0
        ? `no selected check reached a verdict${firstDecline !== undefined && applicable === 0 ? ` (${firstDecline})` : ''}`
        : withVerdict < Math.ceil(MIN_CHECK_FRACTION * applicable)
          ? `only ${withVerdict} of the ${applicable} checks that ran reached a verdict (at least ${percent(MIN_CHECK_FRACTION)} must)`
          : judgedAreas.size < Math.ceil(MIN_AREA_FRACTION * declaredAreas.size)
            ? `only ${judgedAreas.size} of the ${declaredAreas.size} feature areas the checks that ran declare were reached (at least ${percent(MIN_AREA_FRACTION)} must)`
            : mean < MIN_CLAUSE_FRACTION
              ? `the API checks that ran judged ${percent(mean)} of their own clauses on average (at least ${percent(MIN_CLAUSE_FRACTION)} must)`
              : undefined;
  return {
    selectedChecks: selected.length,
    applicableChecks: applicable,
    checksWithVerdict: withVerdict,
    declaredClauses: declared.size,
    judgedClauses: judged.size,
    declaredAreas: declaredAreas.size,
    judgedAreas: judgedAreas.size,
    notTested: why !== undefined,
    line: why === undefined ? `exercised: ${figures}` : `not tested: ${why}; ${figures}`,
  };
}
