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
 *   notServed     -> notServed                      JUnit skipped (reason: the feature)   an optional feature the target lacks
 *   blocked       -> blocked                        JUnit skipped (reason: blocked by it) a clause needing a feature not served
 *   (catalog)     -> informative                    JUnit skipped
 * Allure and the progress show one line per check: its worst record decides (fail, then error, then
 * all not checked, else passed/ok).
 */
import type { Judgement } from '../reference/judgement.ts';

export type JudgedVerdict = Judgement['verdict'];

/**
 * `notServed`: the capability probe found a feature the spec lets a server leave out absent (its
 * clause's one finding; a required one is `fail`); `blocked`: the clause needs a feature the target
 * does not serve, so it was not judged (runner/capability-gate.ts). Both counted apart from failures
 * and from notChecked.
 */
export type Verdict = JudgedVerdict | 'skipped' | 'notChecked' | 'error' | 'notServed' | 'blocked';

/**
 * `informative`: the catalog says no black-box test can judge the clause (its reason is the first note);
 * shown apart from `notChecked`, which is a gap of this run or of the suite (its note says why).
 */
export type ClauseStatus =
  | 'passed'
  | 'failed'
  | 'unspecified'
  | 'inconclusive'
  | 'skipped'
  | 'notChecked'
  | 'informative'
  | 'error'
  | 'notServed'
  | 'blocked';

/** One record's verdict as a clause status. */
export const CLAUSE_STATUS_OF: Readonly<Record<Verdict, ClauseStatus>> = {
  pass: 'passed',
  fail: 'failed',
  unspecified: 'unspecified',
  inconclusive: 'inconclusive',
  skipped: 'skipped',
  notChecked: 'notChecked',
  error: 'error',
  notServed: 'notServed',
  blocked: 'blocked',
};

/**
 * Several records of one clause, strongest first: a failure anywhere outweighs any number of passes (one
 * counterexample disproves the clause); an error means we could not tell; passes beat unspecified notes
 * because a check judged something; inconclusive is Jepsen's unknown (asked, nothing decided). A feature
 * found not served outweighs a pass of its clause (a fallback answer passes it, the feature is still
 * absent); blocked yields to any check that did judge the clause.
 */
export const CLAUSE_STATUS_RANK: readonly Verdict[] = [
  'fail',
  'error',
  'notServed',
  'pass',
  'unspecified',
  'inconclusive',
  'blocked',
  'skipped',
  'notChecked',
];

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
    case 'notServed':
    case 'blocked':
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
  if (verdicts.length > 0 && verdicts.every((v) => v === 'notChecked' || v === 'skipped' || v === 'blocked' || v === 'notServed'))
    return 'notChecked';
  return 'passed';
}
