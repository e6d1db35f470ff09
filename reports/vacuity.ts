/**
 * The vacuity guard (issue 25 item 3): a run that exercised too little of what it selected is
 * `notTested`, never `conformant` or `nonconformant`. A target that refuses the run's identity once the
 * preflight let it in, or whose answers stop every check at its first request, would otherwise read as
 * "conformant, 590 not checked" or "nonconformant: rest:4.1/post failed".
 *
 * Everything is relative to the selection, so `--suite X` or `--check Y` is measured against X or Y:
 * - a selected check *declines* when every record it made is notChecked or skipped with a reason (no
 *   loader given, needs --slow, capability absent): it is left out of the measure;
 * - a check *reached a verdict* when it decided at least one clause (passed, failed or unspecified):
 *   a check whose every case was inconclusive (a daemon that never got ready, a stream that never
 *   spoke) asked the target and learned nothing, and Jepsen's unknown is no verdict; a clause is
 *   *judged* when some check passed, failed, left unspecified or inconclusive on it.
 * The run is not tested when
 * - no selected check reached a verdict, or
 * - fewer than half of the checks that did not decline reached a verdict (the rest errored or
 *   stopped silently), or
 * - fewer than a fifth of the clauses those checks declare (less the ones they declined with a reason)
 *   were judged: checks that each stop at their first request judge one clause apiece. Only API checks
 *   count here: a loader or daemon check reaches the field clauses its draws happen to reach.
 */
import type { CheckRecord } from '../runner/results.ts';
import type { Exercised } from '../harness/reach.ts';

export type { Exercised } from '../harness/reach.ts';

/** Checks that must reach a verdict, of those that did not decline. */
export const MIN_CHECK_FRACTION = 0.5;
/** Clauses that must be judged, of those the checks that did not decline declare. */
export const MIN_CLAUSE_FRACTION = 0.2;

const JUDGED = new Set<CheckRecord['verdict']>(['pass', 'fail', 'unspecified', 'inconclusive']);
const DECIDED = new Set<CheckRecord['verdict']>(['pass', 'fail', 'unspecified']);
// blocked: the check needs a feature the capability probe found not served (runner/capability-gate.ts).
const DECLINED = new Set<CheckRecord['verdict']>(['notChecked', 'skipped', 'blocked']);

export function exercisedOf(records: readonly CheckRecord[], selected: readonly { readonly id: string; readonly suite?: string; readonly clauses: readonly string[] }[]): Exercised {
  const byCheck = new Map<string, CheckRecord[]>();
  for (const r of records) {
    const list = byCheck.get(r.check);
    if (list === undefined) byCheck.set(r.check, [r]);
    else list.push(r);
  }
  const declared = new Set<string>();
  const judged = new Set<string>();
  let applicable = 0;
  let withVerdict = 0;
  let firstDecline: string | undefined;
  for (const c of selected) {
    const own = byCheck.get(c.id) ?? [];
    if (own.length > 0 && own.every((r) => DECLINED.has(r.verdict) && r.note !== undefined)) {
      firstDecline ??= `${c.id}: ${own[0]!.note}`;
      continue;
    }
    applicable++;
    if (own.some((r) => DECIDED.has(r.verdict))) withVerdict++;
    // A loader or daemon check declares every field clause its inputs may reach and judges the ones a
    // run's draws reach (14 of its clauses at 150 runs is an ordinary narrow run): only the API checks,
    // which each reach their whole list unless the target stops them, count toward the clause rule.
    if (c.suite !== undefined && !c.suite.startsWith('rest-')) continue;
    for (const clause of c.clauses) {
      const mine = own.filter((r) => r.clause === clause);
      if (mine.some((r) => JUDGED.has(r.verdict))) judged.add(clause);
      if (mine.length > 0 && mine.every((r) => DECLINED.has(r.verdict) && r.note !== undefined)) continue;
      declared.add(clause);
    }
    // A check may judge clauses beyond its declared list (a shared judge): they count as judged and declared.
    for (const r of own) {
      if (!JUDGED.has(r.verdict)) continue;
      judged.add(r.clause);
      declared.add(r.clause);
    }
  }
  for (const id of judged) declared.add(id);
  const figures = `${withVerdict} of ${selected.length} selected checks reached a verdict (${selected.length - applicable} declined), ${judged.size} of ${declared.size} of their clauses judged`;
  const why =
    selected.length === 0
      ? undefined
      : withVerdict === 0
        ? `no selected check reached a verdict${firstDecline !== undefined && applicable === 0 ? ` (${firstDecline})` : ''}`
        : withVerdict < Math.ceil(MIN_CHECK_FRACTION * applicable)
          ? `only ${withVerdict} of the ${applicable} checks that ran reached a verdict (at least ${MIN_CHECK_FRACTION * 100}% must)`
          : judged.size < Math.ceil(MIN_CLAUSE_FRACTION * declared.size)
            ? `only ${judged.size} of the ${declared.size} clauses the checks that ran declare were judged (at least ${MIN_CLAUSE_FRACTION * 100}% must)`
            : undefined;
  return {
    selectedChecks: selected.length,
    applicableChecks: applicable,
    checksWithVerdict: withVerdict,
    declaredClauses: declared.size,
    judgedClauses: judged.size,
    notTested: why !== undefined,
    line: why === undefined ? `exercised: ${figures}` : `not tested: ${why}; ${figures}`,
  };
}
