/**
 * The one verdict vocabulary of a run and how each report shows it. Three words for one idea, each a
 * step further from the target:
 *
 *   Judgement.verdict  the model's word on one observation (reference/judgement.ts):
 *                      pass | fail | unspecified | inconclusive
 *   Verdict            a check's record of one clause (runner/results.ts CheckRecord): the model's four,
 *                      and the runner's three for a clause no observation decided:
 *                      skipped (the target lacks a capability), notChecked (not reached, not applicable,
 *                      out of the model's scope, run stopped), error (infrastructure or a bug of ours)
 *   ClauseStatus       a clause of the run (reports/aggregate.ts): the records' verdicts folded by
 *                      CLAUSE_STATUS_RANK, as a past participle, plus `informative` (the catalog says
 *                      no black-box test can judge the clause)
 *
 * Record verdict -> clause status (one record):    then the reports:
 *   pass          -> passed                         JUnit pass,     Allure passed,  progress ok
 *   fail          -> failed                         JUnit failure,  Allure failed,  progress FAIL <clause>
 *                                                    (a known failure: JUnit and Allure skipped, progress
 *                                                    "known failure <clause>", reports "known", never failed)
 *   unspecified   -> unspecified                    JUnit pass,     Allure passed,  progress ok
 *   inconclusive  -> inconclusive                   JUnit skipped,  Allure passed,  progress ok
 *   skipped       -> skipped                        JUnit skipped,  Allure skipped (all records), progress not checked
 *   notChecked    -> notChecked                     JUnit skipped,  Allure skipped (all records), progress not checked
 *   error         -> error                          JUnit error,    Allure broken,  progress ERROR <reason>
 *   (catalog)     -> informative                    JUnit skipped
 * Allure and the progress show one line per check: its worst record decides (fail, then error, then
 * all not checked, else passed/ok).
 */
import type { Judgement } from '../reference/judgement.ts';

export type JudgedVerdict = Judgement['verdict'];

export type Verdict = JudgedVerdict | 'skipped' | 'notChecked' | 'error';

/**
 * `informative`: the catalog says no black-box test can judge the clause (its reason is the first note);
 * shown apart from `notChecked`, which is a gap of this run or of the suite (its note says why).
 */
export type ClauseStatus = 'passed' | 'failed' | 'unspecified' | 'inconclusive' | 'skipped' | 'notChecked' | 'informative' | 'error';

/** One record's verdict as a clause status. */
export const CLAUSE_STATUS_OF: Readonly<Record<Verdict, ClauseStatus>> = {
  pass: 'passed',
  fail: 'failed',
  unspecified: 'unspecified',
  inconclusive: 'inconclusive',
  skipped: 'skipped',
  notChecked: 'notChecked',
  error: 'error',
};

/**
 * Several records of one clause, strongest first: a failure anywhere outweighs any number of passes (one
 * counterexample disproves the clause); an error means we could not tell; passes beat unspecified notes
 * because a check judged something; inconclusive is Jepsen's unknown (asked, nothing decided).
 */
export const CLAUSE_STATUS_RANK: readonly Verdict[] = ['fail', 'error', 'pass', 'unspecified', 'inconclusive', 'skipped', 'notChecked'];

/**
 * The status of a clause from its records' verdicts. A clause the spec leaves "not shown"
 * (`unspecifiedClause`) is recorded, never judged: whatever the target did is unspecified.
 * Example: [pass, fail, pass] -> failed; [error, pass] -> error; [skipped, notChecked] -> skipped.
 */
export function clauseStatusOf(verdicts: readonly Verdict[], unspecifiedClause: boolean): ClauseStatus {
  const has = (v: Verdict): boolean => verdicts.includes(v);
  if (unspecifiedClause && (has('pass') || has('fail') || has('unspecified'))) return 'unspecified';
  const strongest = CLAUSE_STATUS_RANK.find(has);
  return strongest === undefined ? 'notChecked' : CLAUSE_STATUS_OF[strongest];
}

export type JUnitOutcome = 'pass' | 'failure' | 'error' | 'skipped';

/** JUnit has no "expected failure": a known failure is skipped, so CI turns red only on regressions. */
export function junitOutcome(status: ClauseStatus, expectedFailure: boolean): JUnitOutcome {
  switch (status) {
    case 'failed':
      return expectedFailure ? 'skipped' : 'failure';
    case 'error':
      return 'error';
    case 'skipped':
    case 'notChecked':
    case 'informative':
    case 'inconclusive':
      return 'skipped';
    case 'passed':
    case 'unspecified':
      return 'pass';
  }
}

export type CheckOutcomeKind = 'failed' | 'error' | 'notChecked' | 'passed';

/** One check's line (Allure's test status, the progress line): its worst record decides. */
export function checkOutcomeKind(verdicts: readonly Verdict[]): CheckOutcomeKind {
  if (verdicts.includes('fail')) return 'failed';
  if (verdicts.includes('error')) return 'error';
  if (verdicts.length > 0 && verdicts.every((v) => v === 'notChecked' || v === 'skipped')) return 'notChecked';
  return 'passed';
}
