/**
 * A list read against the snapshots of the history (rest:4.5): the suite's objects it returned must be
 * exactly those of one snapshot in the range its semantic allows, and its collection resourceVersion,
 * when the suite knows what that denotes, a snapshot in range too. Foreign and tainted objects are left
 * out; an item outside the request's scope fails the scope clause first (reference/scope.ts).
 */
import { acceptableRange, visibleObjects } from './history.ts';
import type { ObservedObject } from './objects.ts';
import { fail, inconclusive, pass, rule, type Judgement } from './judgement.ts';
import type { ObservationClassName } from './observations.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { judgeScope } from './scope.ts';
import { withAgeMeaning } from './read-age.ts';
import { diffObjects, readValues } from './read-diff.ts';
import {
  BEFORE_CASE,
  describeRange,
  meaningClause,
  oursOf,
  servedFromBeforeCase,
  type ListJudgement,
  type ReadContext,
  type ReadExpectation,
} from './read-context.ts';

/** Snapshot indices whose in-scope objects equal `items` exactly (ascending). */
export function matchingSnapshots(ctx: ReadContext, items: readonly ObservedObject[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ctx.history.snapshots.length; i++) {
    if (diffObjects(visibleObjects(ctx.history, i).filter(ctx.inScope), items, ctx.knownKeys).length === 0) out.push(i);
  }
  return out;
}

/** Where a list's items sit among the snapshots, against the range its semantic allows. */
interface Placement {
  readonly range: { readonly lo: number; readonly hi: number };
  /** The suite's own items of the answer. */
  readonly ours: readonly ObservedObject[];
  /** The snapshot the collection resourceVersion denotes, when the suite knows it. */
  readonly known: number | undefined;
  /** Every snapshot whose in-scope objects equal the items (ascending). */
  readonly matches: readonly number[];
  readonly expectText: string;
}

/**
 * A complete (unpaged) list, or the union of all pages of one paged list: the suite's objects must be
 * exactly those of one snapshot in the semantic's range; the collection rv, when the suite knows what
 * it denotes, must denote a snapshot in range too (and equal the requested rv for Exact).
 *
 * `missingOnly`: the class of a failure whose items differ from the closest snapshot only by items
 * missing (none extra, none changed); judgePages names it for selector lists.
 */
export function judgeListSnapshot(
  ctx: ReadContext,
  exp: ReadExpectation,
  observed: { collectionRv: unknown; items: readonly ObservedObject[]; requestedRv?: string },
  unionClause?: ClauseId,
  missingOnly?: ObservationClassName,
): ListJudgement {
  const range = exp.range ?? acceptableRange(ctx.history, exp.semantic, exp.at);
  const scoped = judgeScope(ctx.scope, observed.items, 'list');
  if (scoped.some((j) => j.verdict === 'fail')) return { judgements: scoped };
  const js: Judgement[] = [...scoped];
  const expectText = `the suite's objects exactly as in ${describeRange(range)} (${exp.semantic})`;

  if (exp.semantic === 'Exact' && observed.requestedRv !== undefined) {
    const same = observed.collectionRv === observed.requestedRv;
    js.push(
      rule(
        exp.clause,
        same,
        `collection resourceVersion equal to the requested ${JSON.stringify(observed.requestedRv)}`,
        `collection resourceVersion ${JSON.stringify(observed.collectionRv)}`,
      ),
    );
    if (!same) return { judgements: js };
  }
  const ours = oursOf(ctx, observed.items);
  const known = typeof observed.collectionRv === 'string' ? ctx.history.rvIndex.get(observed.collectionRv) : undefined;
  const at: Placement = { range, ours, known, matches: matchingSnapshots(ctx, ours), expectText };
  const inRange = at.matches.filter((i) => i >= range.lo && i <= range.hi);
  const chosen = known !== undefined ? (inRange.includes(known) ? known : undefined) : inRange[inRange.length - 1];
  if (known !== undefined && (known < range.lo || known > range.hi)) {
    js.push(
      fail(
        exp.clause,
        `collection resourceVersion denoting ${describeRange(range)}`,
        `collection resourceVersion ${JSON.stringify(observed.collectionRv)} is that of snapshot #${known}`,
      ),
    );
    return { judgements: withAgeMeaning(exp, js, { lo: range.lo, at: [known] }) };
  }
  // Learn what the collection rv denotes only when one snapshot alone fits: a selector, or a create
  // and delete of the same name, can make several snapshots look the same.
  if (chosen !== undefined) return matchedList(ctx, exp, js, expectText, known !== undefined || inRange.length === 1 ? chosen : undefined);
  if (servedFromBeforeCase(ctx, exp.semantic, ours)) {
    return { judgements: [...js, inconclusive(exp.clause, expectText, `items at versions answered before this case: ${BEFORE_CASE}`)] };
  }
  js.push(unmatchedList(ctx, exp, at, observed.collectionRv, unionClause, missingOnly));
  return { judgements: js };
}

/** A list whose items are a snapshot in range: its passes, and that snapshot when it may be learned. */
function matchedList(
  ctx: ReadContext,
  exp: ReadExpectation,
  js: Judgement[],
  expectText: string,
  learned: number | undefined,
): ListJudgement {
  js.push(pass(exp.clause, expectText), pass(meaningClause[exp.semantic], expectText));
  // An older version read exactly shows the history is still there (rest:6.1.4).
  if (exp.semantic === 'Exact' && exp.at !== undefined && exp.at < ctx.history.snapshots.length - 1)
    js.push(pass('rest:6.1.4', 'a retained older version served exactly'));
  return learned === undefined ? { judgements: js } : { judgements: js, matchedIndex: learned };
}

/**
 * The failure of a list whose items are no snapshot in range, diffed against the closest one (the
 * snapshot its collection resourceVersion denotes, else the newest in range).
 */
function unmatchedList(
  ctx: ReadContext,
  exp: ReadExpectation,
  at: Placement,
  collectionRv: unknown,
  unionClause?: ClauseId,
  missingOnly?: ObservationClassName,
): Judgement {
  const { known, matches, ours, expectText } = at;
  const closest = known ?? at.range.hi;
  const closestObjects = visibleObjects(ctx.history, closest).filter(ctx.inScope);
  const diff = diffObjects(closestObjects, ours, ctx.knownKeys);
  const values = {
    ...readValues(closestObjects, ours, ctx.knownKeys),
    class: diff.length > 0 && diff.every((d) => d.startsWith('missing ')) ? missingOnly : undefined,
  };
  if (known !== undefined) {
    return fail(
      exp.clause,
      expectText,
      `collection resourceVersion ${JSON.stringify(collectionRv)} is that of snapshot #${known}, but the items differ from it: ${diff.join('; ')}`,
      values,
    );
  }
  if (matches.length > 0)
    return fail(
      exp.clause,
      expectText,
      `items are snapshot #${matches[matches.length - 1]}, outside the range; vs #${closest}: ${diff.join('; ')}`,
      values,
    );
  // No snapshot at all has these items: a torn read (pages) or corrupted objects.
  return fail(
    unionClause ?? exp.clause,
    expectText,
    `items match no snapshot the suite produced; vs #${closest}: ${diff.join('; ')}`,
    values,
  );
}
