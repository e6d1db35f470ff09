/**
 * The fast-check property of a check's cases: each case runs in a context of its own, its failure
 * thrown for fast-check to shrink. Which cases run depends on what the property is for: the first pass
 * (with a shrink budget), a replay of one case (none), or the cases after a failure (a continuation).
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import {
  CaseContext,
  CheckNotApplicable,
  ClauseViolation,
  releaseCaseNamespaces,
  type CheckEnv,
  type ShrinkBudget,
  type Tally,
} from '../harness/case/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { UnsupportedByModel } from '../reference/judgement.ts';
import { knownOnly, type CheckRunState, type Continuation } from './check-run-state.ts';

/** Short and stable per check: case labels of checks running at once must differ. */
const caseStemOf = (checkId: string): string => createHash('sha256').update(checkId).digest('hex').slice(0, 6);

/** The property over the check's cases; `b` bounds shrinking, `after` makes it the cases after a failure. */
export function caseProperty(run: CheckRunState, t: Tally, b?: ShrinkBudget, after?: Continuation): fc.IAsyncProperty<[unknown]> {
  const { check, env, opts } = run;
  return fc.asyncProperty(check.arbitrary(env), async (input: unknown) => {
    // The cases up to the last failure ran already (same seed, same order): their verdicts are in.
    if (after !== undefined && after.skip-- > 0) return;
    // The going-on bound starts no new case; a later failure already found shrinks within its own budget
    // (a candidate passed here for want of time would end its shrinking silently, unshrunk and unsaid).
    if (after !== undefined && b?.shrinking !== true && !after.mayRun()) {
      after.outOfTime++;
      return;
    }
    if (b && !b.mayRun()) return;
    const cx = new CaseContext(env, t, ++run.caseNumber, caseStemOf(check.id));
    const excused = env.excused;
    if (excused !== undefined) cx.isExcused = (failure) => excused(failure, check.id);
    try {
      await check.run(input, cx);
      if (after !== undefined) after.ran++;
      // A case that met only excused failures passes the property, so later cases run too; the first
      // such failure is reported after the run, unshrunk: a known failure needs no smaller case.
      const excusedHere = cx.excusedFailure();
      if (excusedHere !== undefined && run.excusedFirst === undefined) {
        run.excusedFirst = excusedHere;
        run.inputs.set(excusedHere, input);
      }
    } catch (e) {
      if (after !== undefined) after.ran++;
      // A case that ends at a failure already reported: its judgements before it stand, the check goes on.
      if (after !== undefined && e instanceof ClauseViolation && e.failures.every((f) => after.reported.has(f.clause))) {
        after.stopped++;
        return;
      }
      if (b && e instanceof ClauseViolation && b.failed(e.exchanges.length)) {
        opts.onFailureFound?.(failureFoundLine(check.id, e, knownOnly(run, e)));
        // A known failure needs no smaller case (as one a case went on past): its first counterexample
        // is reported, and no candidate is sent (against a real server, thousands of requests).
        if (knownOnly(run, e)) b.stop();
      } else if (b && !(e instanceof ClauseViolation) && !(e instanceof UnsupportedByModel)) {
        // A candidate that broke otherwise while a failure shrinks is no smaller case of that failure.
        if (b.shrinking) return;
        // An error is reported without a shrunk case: shrinking it would only repeat the trouble.
        b.stop();
      }
      // The model's scope ends here: the case decides nothing about the clause,
      // which is reported as not checked with the model's reason, and the remaining cases still run.
      if (e instanceof UnsupportedByModel) t.notCheckedBecause(e.clause, e.message);
      else {
        if (e instanceof ClauseViolation) await resendInPlace(e, env);
        throw afterServerError(e, cx);
      }
    } finally {
      await releaseCaseNamespaces(cx);
    }
  });
}

/**
 * A failure is told as soon as it is found, before shrinking starts: a run that is stopped while it
 * shrinks has still said what failed (the reports carry the shrunk counterexample).
 */
function failureFoundLine(checkId: string, e: ClauseViolation, known = false): string {
  const clauses = [...new Set(e.failures.map((f) => f.clause))].join(', ');
  return `svc-conformance: ${checkId}: ${known ? 'known failure' : 'failure'} found (${clauses}, first counterexample ${e.exchanges.length} requests); ${known ? 'not shrunk' : 'shrinking it'}`;
}

/**
 * A write's 5xx that the case failed on is sent once more before the case's namespaces are released, in
 * the state that answered it: the same 5xx again is that state's answer (a namespace the target broke),
 * which a replay in fresh namespaces cannot show. A write the first attempt applied answers otherwise
 * (409, 2xx), and the replays of failure-records.ts decide as before.
 */
async function resendInPlace(e: ClauseViolation, env: CheckEnv): Promise<void> {
  const last = [...e.serverErrors].reverse().find((s) => !s.repeated && s.sent !== undefined);
  if (last === undefined) return;
  // As a read's 5xx: the same well-formed answer on each of two more tries, a moment apart.
  for (let attempt = 0; attempt < 2; attempt++) {
    await env.sleep(100 * 2 ** attempt);
    const again = await env.target.send(last.sent!).catch(() => undefined);
    if (again === undefined || again.status !== last.status || again.json === undefined || again.headers['retry-after'] !== undefined)
      return;
  }
  e.repeatedInPlace = true;
}

/**
 * A check that could not go on after a 5xx it was handed (it read the answer as an object, say) met
 * infrastructure trouble, not a bug of ours: the answer is named.
 */
function afterServerError(e: unknown, cx: CaseContext): unknown {
  const last = cx.serverErrors.at(-1);
  if (last === undefined || e instanceof ClauseViolation || e instanceof InfrastructureError || e instanceof CheckNotApplicable) return e;
  return new InfrastructureError(
    `${last.request} answered ${last.status} and the check could not go on from that answer (${e instanceof Error ? e.message : String(e)})`,
  );
}
