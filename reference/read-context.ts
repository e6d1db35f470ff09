/**
 * What the read oracle judges a read against: the history, the suite's own keys, which of the suite's
 * objects the request covers, and the expectation a rest:4.5 cell set (its semantic and snapshot range).
 * Also what a read in a reused namespace may show of the time before its case (Any serves any past state).
 */
import type { History } from './history.ts';
import type { ObjectVersion, ObservedObject } from './objects.ts';
import type { Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import type { RequestScope } from './scope.ts';

export type ListSemantic = 'MostRecent' | 'Any' | 'NotOlderThan' | 'Exact' | 'ContinueExact';

export interface ReadContext {
  readonly history: History;
  /** Label and annotation keys the suite sets: the only ones compared. */
  readonly knownKeys: ReadonlySet<string>;
  /** Which of the suite's objects the request covers (namespace, selector). */
  readonly inScope: (v: ObjectVersion) => boolean;
  /**
   * Object resourceVersions from before this case, in a namespace it reused: a read that may be served
   * from any past state (Any) may show them, and the model holds no such state.
   */
  readonly priorVersions?: { has(v: string): boolean; readonly size: number };
  /**
   * The namespace and selector the request named: every item the target sent, the suite's or not, is
   * judged against it first (reference/scope.ts), so an item from outside is a failure of the scope
   * clause rather than silently dropped as foreign.
   */
  readonly scope?: RequestScope;
}

export interface ReadExpectation {
  readonly semantic: ListSemantic;
  /** Snapshot index of the rv the request named (NotOlderThan, Exact) or of the first page. */
  readonly at?: number;
  /** The cell of rest:4.5 that chose the semantic: failures are reported against it. */
  readonly clause: ClauseId;
  /**
   * Range fixed when the read started (a paged list is judged after writes between its pages, but
   * its snapshot range is that of the first page).
   */
  readonly range?: { readonly lo: number; readonly hi: number };
}

export interface ListJudgement {
  readonly judgements: Judgement[];
  /** The snapshot the read was matched to, to learn the collection rv. */
  readonly matchedIndex?: number;
}

/** The meaning clause of rest:4.5 each semantic promises: a read that holds it passes there too. */
export const meaningClause: Record<ListSemantic, ClauseId> = {
  MostRecent: 'rest:4.5/meaning/most-recent',
  Any: 'rest:4.5/meaning/any',
  NotOlderThan: 'rest:4.5/meaning/not-older-than',
  Exact: 'rest:4.5/meaning/exact',
  ContinueExact: 'rest:4.5/meaning/continue-exact',
};

export const describeRange = (r: { lo: number; hi: number }): string =>
  r.lo === r.hi ? `snapshot #${r.lo}` : `a snapshot in #${r.lo}..#${r.hi}`;

/** The suite's own, non-tainted items of a response. */
export function oursOf(ctx: ReadContext, items: readonly ObservedObject[]): ObservedObject[] {
  return items.filter((o) => ctx.history.everKeys.has(o.key) && !ctx.history.tainted.has(o.key));
}

export const BEFORE_CASE = 'a state from before this case reused the namespace (Any allows any past state; the model holds none of them)';

/**
 * Any (rv="0") may serve any past state, also one from before this case leased its reused namespace:
 * objects at versions of that time prove nothing either way (inconclusive, never a pass).
 */
export function servedFromBeforeCase(ctx: ReadContext, semantic: string, objects: readonly ObservedObject[]): boolean {
  if (semantic !== 'Any' && semantic !== 'GetStateAndStartAtAny') return false;
  const prior = ctx.priorVersions;
  return prior !== undefined && prior.size > 0 && objects.some((o) => typeof o.rv === 'string' && prior.has(o.rv));
}

/**
 * The snapshot a list's collection resourceVersion may be learned as. An Any read that shows the
 * case's starting state (#0) may have been served from before the case leased a reused namespace:
 * #0 stands for "before the case's first write", which then reaches back into earlier lessees' time,
 * and a later Exact read at that version may rightly show their objects. Such a version is not learned.
 */
export function learnableIndex(
  ctx: Pick<ReadContext, 'priorVersions'>,
  semantic: string,
  matchedIndex: number | undefined,
): number | undefined {
  if (matchedIndex === 0 && (semantic === 'Any' || semantic === 'GetStateAndStartAtAny') && (ctx.priorVersions?.size ?? 0) > 0)
    return undefined;
  return matchedIndex;
}
