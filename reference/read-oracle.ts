/**
 * The oracle for reads (rest:4.5 meanings, rest:4.4 paging): given the history and the index range a
 * semantic allows, decide whether an observed object, list or page sequence is one of the acceptable
 * observations. The acceptable set is "the suite's objects exactly as in some snapshot i in [lo, hi]";
 * foreign objects (not written by the suite) are ignored, tainted keys too.
 *
 * This module judges single-object reads and the 504 of a read at a version not yet reached; it is also
 * the door to the rest of the read oracle, by meaning:
 *   reference/read-context.ts   what a read is judged against (history, scope, the cell's expectation)
 *   reference/read-diff.ts      how returned objects compare with the model's
 *   reference/read-snapshot.ts  a list against the snapshots in range
 *   reference/read-pages.ts     the pages of a paged list, remainingItemCount
 *   reference/read-age.ts       a Not-older-than read answered from before the version it named
 */
import { acceptableRange } from './history.ts';
import { showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { fail, inconclusive, pass, rule, type Judgement } from './judgement.ts';
import { judgeTooLargeMessage, type TooLargeAnswer } from './error-rules.ts';
import { getAnswerAge, withAgeMeaning } from './read-age.ts';
import { versionMismatch, readValues } from './read-diff.ts';
import { BEFORE_CASE, describeRange, meaningClause, servedFromBeforeCase, type ReadContext, type ReadExpectation } from './read-context.ts';

export { learnableIndex, oursOf, servedFromBeforeCase } from './read-context.ts';
export type { ListJudgement, ListSemantic, ReadContext, ReadExpectation } from './read-context.ts';
export { comparable, diffObjects, readValues, versionMismatch } from './read-diff.ts';
export { judgeListSnapshot, matchingSnapshots } from './read-snapshot.ts';
export { judgePages, judgeRemaining } from './read-pages.ts';
export type { ObservedPage, PagedRequest } from './read-pages.ts';

/**
 * A single-object read: status 2xx must return the object as in some snapshot in range; a 4xx is
 * acceptable only if the object is absent in some snapshot in range (the code itself is not fixed).
 */
export function judgeGet(
  ctx: ReadContext,
  exp: ReadExpectation,
  key: string,
  observed: { status: number; object?: ObservedObject },
): Judgement[] {
  const range = exp.range ?? acceptableRange(ctx.history, exp.semantic, exp.at);
  const states: (ObjectVersion | undefined)[] = [];
  for (let i = range.lo; i <= range.hi; i++) states.push(ctx.history.snapshots[i]!.objects.get(key));
  const expectText = `${key} as in ${describeRange(range)} (${exp.semantic}): ${[...new Set(states.map((v) => (v ? showVersion(v) : 'absent (4xx)')))].join(' or ')}`;
  if (observed.status >= 200 && observed.status < 300) {
    const o = observed.object;
    const reasons = states.map((v) => (v === undefined ? 'absent' : o ? versionMismatch(v, o, ctx.knownKeys) : 'no object in body'));
    const ok = reasons.some((r) => r === undefined);
    if (ok) return [pass(exp.clause, expectText), pass(meaningClause[exp.semantic], expectText)];
    if (o && servedFromBeforeCase(ctx, exp.semantic, [o]))
      return [inconclusive(exp.clause, expectText, `${o.key}@${String(o.rv)}: ${BEFORE_CASE}`)];
    // The diff is against the newest acceptable version (the one a correct Most Recent read returns).
    const values = readValues(states.filter((v): v is ObjectVersion => v !== undefined).slice(-1), o ? [o] : [], ctx.knownKeys);
    const failed = fail(
      exp.clause,
      expectText,
      `${observed.status} with ${o ? `${o.key}@${String(o.rv)}` : 'no object'}: ${reasons.filter(Boolean).join('; ')}`,
      values,
    );
    return withAgeMeaning(exp, [failed], getAnswerAge(ctx.history, key, range.lo, observed));
  }
  if (observed.status >= 400 && observed.status < 500) {
    // Which 4xx says "absent" is open (404, 410 for a removed object), but 400 Bad Request refuses the
    // read itself, which the cell serves: accepting it would excuse a server that refuses the cell.
    const ok = observed.status !== 400 && states.some((v) => v === undefined);
    return withAgeMeaning(
      exp,
      [rule(exp.clause, ok, expectText, `status ${observed.status}`)],
      getAnswerAge(ctx.history, key, range.lo, observed),
    );
  }
  return [fail(exp.clause, expectText, `status ${observed.status}`)];
}

/**
 * A Not-older-than read (get rv=other, list rv=other without limit) answered 504 after the server
 * waited for the version. rest:7 allows 504 for a version "that did not appear", and the developers'
 * guide counts "whether a read at a version it has not caught up with waits and answers 504" among
 * the legal differences of real servers: upstream serves these reads from a watch cache per resource
 * type, which learns a revision only from that type's events, so a collection resourceVersion moved
 * on by writes to other types may never be reached (the read answers 504 after ~3 s).
 *
 * The answer is therefore inconclusive (neither pass nor fail) when the requested version was learned
 * from a collection; when it is the resourceVersion of a write of this very type the server returned,
 * the version has appeared for that type and a 504 breaks the cell. Anything else than 504 is not for
 * this judge (undefined). The message rules (rest:7.1, 7.2) apply either way.
 *
 *   judgeNotCaughtUp(ctx, { semantic: 'NotOlderThan', at: 3, clause }, '812', { status: 504, ... })
 *     -> inconclusive when snapshot #3 was not made by the write that returned "812"
 */
export function judgeNotCaughtUp(
  ctx: ReadContext,
  exp: ReadExpectation,
  requestedRv: string | undefined,
  r: TooLargeAnswer,
): Judgement[] | undefined {
  if (r.status !== 504 || exp.semantic !== 'NotOlderThan') return undefined;
  const at = exp.at === undefined ? undefined : ctx.history.snapshots[exp.at];
  const expected = `the read served Not older than ${JSON.stringify(requestedRv)}; or 504 once waited for a version the type's cache may not have reached (learned from a collection)`;
  const observed = `504 ${r.bodyText.slice(0, 160)}`;
  const ownWrite = at !== undefined && requestedRv !== undefined && at.rv === requestedRv;
  const verdict = ownWrite
    ? fail(
        exp.clause,
        expected,
        `${observed}: ${JSON.stringify(requestedRv)} is the resourceVersion of a write of this type the server already returned`,
      )
    : inconclusive(exp.clause, expected, observed);
  return [verdict, ...judgeTooLargeMessage(r)];
}
