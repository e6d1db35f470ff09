/**
 * The oracle for reads (rest:4.5 meanings, rest:4.4 paging): given the history and the index range a
 * semantic allows, decide whether an observed object, list or page sequence is one of the acceptable
 * observations. The acceptable set is "the suite's objects exactly as in some snapshot i in [lo, hi]";
 * foreign objects (not written by the suite) are ignored, tainted keys too.
 */
import { acceptableRange, visibleObjects, type History } from './history.ts';
import { contentMismatch, showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { diffValues, type JudgementValues } from './value-diff.ts';
import { fail, inconclusive, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import type { ObservationClassName } from './observations.ts';
import { judgeTooLargeMessage, type TooLargeAnswer } from './error-rules.ts';
import type { AnswerAt, AnswerTest } from './answer-checks.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { judgeScope, type RequestScope } from './scope.ts';
import { getAnswerAge, withAgeMeaning } from './read-age.ts';

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
export function learnableIndex(ctx: Pick<ReadContext, 'priorVersions'>, semantic: string, matchedIndex: number | undefined): number | undefined {
  if (matchedIndex === 0 && (semantic === 'Any' || semantic === 'GetStateAndStartAtAny') && (ctx.priorVersions?.size ?? 0) > 0) return undefined;
  return matchedIndex;
}

const BEFORE_CASE = 'a state from before this case reused the namespace (Any allows any past state; the model holds none of them)';

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

const meaningClause: Record<ListSemantic, ClauseId> = {
  MostRecent: 'rest:4.5/meaning/most-recent',
  Any: 'rest:4.5/meaning/any',
  NotOlderThan: 'rest:4.5/meaning/not-older-than',
  Exact: 'rest:4.5/meaning/exact',
  ContinueExact: 'rest:4.5/meaning/continue-exact',
};

const describeRange = (r: { lo: number; hi: number }): string => (r.lo === r.hi ? `snapshot #${r.lo}` : `a snapshot in #${r.lo}..#${r.hi}`);

/** Differences between the suite's objects in a snapshot and what the target returned (empty = equal). */
export function diffObjects(expected: readonly ObjectVersion[], observed: readonly ObservedObject[], knownKeys: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const want = new Map(expected.map((v) => [v.key, v]));
  const seen = new Set<string>();
  for (const o of observed) {
    if (seen.has(o.key)) out.push(`${o.key} listed twice`);
    seen.add(o.key);
    const v = want.get(o.key);
    if (!v) {
      out.push(`unexpected ${o.key}@${String(o.rv)}`);
      continue;
    }
    const d = versionMismatch(v, o, knownKeys);
    if (d) out.push(`${o.key}: ${d}`);
  }
  for (const v of expected) if (!seen.has(v.key)) out.push(`missing ${showVersion(v)}`);
  return out;
}

/**
 * The compared part of objects, keyed by object (`ns/name`): what the model predicts of each (its
 * resourceVersion, uid and the content the suite set, labels and annotations restricted to the suite's
 * own keys) and nothing the server may add. Both sides of a read's structured diff.
 */
export function comparable(objs: readonly (ObjectVersion | ObservedObject)[], knownKeys: ReadonlySet<string>): Record<string, unknown> {
  const own = (m: Readonly<Record<string, string>>) =>
    Object.fromEntries(
      [...knownKeys]
        .filter((k) => Object.hasOwn(m, k))
        .sort()
        .map((k) => [k, m[k]]),
    );
  const body = (b: unknown) => (b === undefined || b === null || (typeof b === 'object' && !Array.isArray(b) && Object.keys(b).length === 0) ? null : b);
  const out: Record<string, unknown> = {};
  for (const x of objs) {
    const c = 'content' in x ? x.content : x;
    out[x.key] = { resourceVersion: x.rv, uid: x.uid, labels: own(c.labels), annotations: own(c.annotations), body: body(c.body) };
  }
  return out;
}

/** Expected and observed objects of a read, and their field-path diff, for a failing judgement. */
export function readValues(expected: readonly ObjectVersion[], observed: readonly ObservedObject[], knownKeys: ReadonlySet<string>): JudgementValues {
  const expectedValue = comparable(expected, knownKeys);
  const observedValue = comparable(observed, knownKeys);
  return { expectedValue, observedValue, diff: diffValues(expectedValue, observedValue) };
}

/** Why an observed object is not the given version (undefined when it is). */
export function versionMismatch(v: ObjectVersion, o: ObservedObject, knownKeys: ReadonlySet<string>): string | undefined {
  if (o.rv !== v.rv) return `resourceVersion ${JSON.stringify(o.rv)}, expected ${JSON.stringify(v.rv)}`;
  if (o.uid !== v.uid) return `uid ${JSON.stringify(o.uid)}, expected ${JSON.stringify(v.uid)}`;
  return contentMismatch(v.content, o, knownKeys);
}

/** The suite's own, non-tainted items of a response. */
export function oursOf(ctx: ReadContext, items: readonly ObservedObject[]): ObservedObject[] {
  return items.filter((o) => ctx.history.everKeys.has(o.key) && !ctx.history.tainted.has(o.key));
}

/** Snapshot indices whose in-scope objects equal `items` exactly (ascending). */
export function matchingSnapshots(ctx: ReadContext, items: readonly ObservedObject[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ctx.history.snapshots.length; i++) {
    if (diffObjects(visibleObjects(ctx.history, i).filter(ctx.inScope), items, ctx.knownKeys).length === 0) out.push(i);
  }
  return out;
}

export interface ListJudgement {
  readonly judgements: Judgement[];
  /** The snapshot the read was matched to, to learn the collection rv. */
  readonly matchedIndex?: number;
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
  const ours = oursOf(ctx, observed.items);
  const js: Judgement[] = [...scoped];
  const expectText = `the suite's objects exactly as in ${describeRange(range)} (${exp.semantic})`;

  if (exp.semantic === 'Exact' && observed.requestedRv !== undefined) {
    const same = observed.collectionRv === observed.requestedRv;
    js.push(rule(exp.clause, same, `collection resourceVersion equal to the requested ${JSON.stringify(observed.requestedRv)}`, `collection resourceVersion ${JSON.stringify(observed.collectionRv)}`));
    if (!same) return { judgements: js };
  }
  const known = typeof observed.collectionRv === 'string' ? ctx.history.rvIndex.get(observed.collectionRv) : undefined;
  const matches = matchingSnapshots(ctx, ours);
  const inRange = matches.filter((i) => i >= range.lo && i <= range.hi);
  const chosen = known !== undefined ? (inRange.includes(known) ? known : undefined) : inRange[inRange.length - 1];
  if (known !== undefined && (known < range.lo || known > range.hi)) {
    js.push(fail(exp.clause, `collection resourceVersion denoting ${describeRange(range)}`, `collection resourceVersion ${JSON.stringify(observed.collectionRv)} is that of snapshot #${known}`));
    return { judgements: withAgeMeaning(exp, js, { lo: range.lo, at: [known] }) };
  }
  if (chosen !== undefined) {
    js.push(pass(exp.clause, expectText), pass(meaningClause[exp.semantic], expectText));
    // An older version read exactly shows the history is still there (rest:6.1.4).
    if (exp.semantic === 'Exact' && exp.at !== undefined && exp.at < ctx.history.snapshots.length - 1) js.push(pass('rest:6.1.4', 'a retained older version served exactly'));
    // Learn what the collection rv denotes only when one snapshot alone fits: a selector, or a create
    // and delete of the same name, can make several snapshots look the same.
    return known === undefined && inRange.length !== 1 ? { judgements: js } : { judgements: js, matchedIndex: chosen };
  }
  if (servedFromBeforeCase(ctx, exp.semantic, ours)) {
    return { judgements: [...js, inconclusive(exp.clause, expectText, `items at versions answered before this case: ${BEFORE_CASE}`)] };
  }
  const closest = known ?? range.hi;
  const closestObjects = visibleObjects(ctx.history, closest).filter(ctx.inScope);
  const diff = diffObjects(closestObjects, ours, ctx.knownKeys);
  const values = { ...readValues(closestObjects, ours, ctx.knownKeys), ...(missingOnly !== undefined && diff.length > 0 && diff.every((d) => d.startsWith('missing ')) ? { class: missingOnly } : {}) };
  if (known !== undefined) {
    js.push(
      fail(exp.clause, expectText, `collection resourceVersion ${JSON.stringify(observed.collectionRv)} is that of snapshot #${known}, but the items differ from it: ${diff.join('; ')}`, values),
    );
  } else if (matches.length > 0) {
    js.push(fail(exp.clause, expectText, `items are snapshot #${matches[matches.length - 1]}, outside the range; vs #${closest}: ${diff.join('; ')}`, values));
  } else {
    // No snapshot at all has these items: a torn read (pages) or corrupted objects.
    js.push(fail(unionClause ?? exp.clause, expectText, `items match no snapshot the suite produced; vs #${closest}: ${diff.join('; ')}`, values));
  }
  return { judgements: js };
}

export interface ObservedPage {
  readonly collectionRv: unknown;
  readonly continueToken: unknown;
  readonly remainingItemCount: unknown;
  readonly items: readonly ObservedObject[];
}

/**
 * `limitClause`: the page-size rule is reported against the rest:4.5 cell instead of rest:4.4.1 for
 * rv="0" reads, because upstream servers answer those from a cache that ignores `limit`
 * (kubernetes/kubernetes#118394): a known, separately listable departure, not a paging regression.
 *
 * rest:4.4 rules over the pages of one paged list (all fetched, the last with an empty continue),
 * then the union against the snapshot rules of the first page's semantic.
 */
export function judgePages(
  ctx: ReadContext,
  exp: ReadExpectation,
  pages: readonly ObservedPage[],
  opts: { limit: number; selector: boolean; requestedRv?: string; limitClause?: ClauseId },
): ListJudgement {
  const js: Judgement[] = [];
  const first = pages[0];
  if (!first) throw new Error('model misuse: judgePages needs at least one page');
  // Only a list with more items than its limit can show a server ignoring the limit.
  const overLimit = pages.reduce((n, p) => n + p.items.length, 0) > opts.limit;
  pages.forEach((p, i) => {
    const atMost = { needs: [{ says: `page ${i + 1} holds at most ${opts.limit} item(s)`, test: { kind: 'length', at: { page: i }, path: ['items'], atMost: opts.limit } } as const] };
    const size = rule(opts.limitClause ?? 'rest:4.4.1', p.items.length <= opts.limit, `at most limit=${opts.limit} items per page`, `page ${i + 1} has ${p.items.length} items`, atMost);
    // limit-ignored: the rest of the list in this one page, no continue (what a cache that ignores limit
    // answers); a page one item too large with a token after it is another departure.
    const whole = typeof p.continueToken !== 'string' || p.continueToken === '';
    js.push(...(overLimit ? tagged([size], { input: 'limit-below-count', observedStatus: 200, ...(whole ? { class: 'limit-ignored' as const } : {}) }) : [size]));
    if (i > 0) {
      const samePath = ['metadata', 'resourceVersion'];
      const sameRv = {
        needs: [{ says: `page ${i + 1} reports page 1's metadata.resourceVersion`, test: { kind: 'same', at: { page: i }, path: samePath, other: { at: { page: 0 }, path: samePath } } } as const],
      };
      js.push(
        rule(
          'rest:4.4.3',
          p.collectionRv === first.collectionRv,
          `every page reports the first page's collection resourceVersion ${JSON.stringify(first.collectionRv)}`,
          `page ${i + 1} reports ${JSON.stringify(p.collectionRv)}`,
          sameRv,
        ),
      );
    }
    const later = pages.slice(i + 1).reduce((n, q) => n + q.items.length, 0);
    const last = i === pages.length - 1;
    const hasToken = typeof p.continueToken === 'string' && p.continueToken !== '';
    if (!last && hasToken && later === 0) {
      const expected = 'continue empty on the page after which no items remain';
      const observed = `page ${i + 1} carried a continue token, and the pages after it held no items`;
      // With a selector an upstream server may stop short of knowing nothing matches further on.
      js.push(
        opts.selector
          ? unspecified('rest:2.3/metadata.continue', expected, observed)
          : fail('rest:2.3/metadata.continue', expected, observed, {
              needs: [{ says: `page ${i + 1}, after which no items remain, has an empty metadata.continue`, test: { kind: 'value', at: { page: i }, path: ['metadata', 'continue'], absent: true } }],
            }),
      );
    } else if (last) {
      js.push(pass('rest:2.3/metadata.continue', 'empty continue on the last page'));
    }
    js.push(...judgeRemaining(p, { later, last, selector: opts.selector, paged: true, page: i + 1, pages: pages.length }));
  });
  if (js.some((j) => j.verdict === 'fail')) return { judgements: js };
  const union = pages.flatMap((p) => p.items);
  const snap = judgeListSnapshot(
    ctx,
    exp,
    { collectionRv: first.collectionRv, items: union, ...(opts.requestedRv !== undefined ? { requestedRv: opts.requestedRv } : {}) },
    'rest:4.4.3',
    opts.selector ? 'selector-page-lost-items' : undefined,
  );
  // Every verdict on the union of a selector list's pages is one on that kind of input.
  js.push(...(opts.selector ? tagged(snap.judgements, { input: 'paged-selector-list', observedStatus: 200 }) : snap.judgements));
  if (snap.matchedIndex !== undefined && pages.length > 1) {
    js.push(
      ...tagged([pass('rest:4.4.3', 'union of pages is one snapshot')], opts.selector ? { input: 'paged-selector-list' } : {}),
      pass('rest:4.4.2', 'pages followed until continue was empty'),
      pass('rest:4.5/meaning/continue-exact', "continuation pages served at the first page's version"),
    );
  }
  return snap.matchedIndex !== undefined ? { judgements: js, matchedIndex: snap.matchedIndex } : { judgements: js };
}

/** rest:4.4.6: remainingItemCount is the exact number of further items, and omitted where stated. */
export function judgeRemaining(p: Pick<ObservedPage, 'remainingItemCount'>, at: { later: number; last: boolean; selector: boolean; paged: boolean; page: number; pages?: number }): Judgement[] {
  const c = 'rest:4.4.6';
  const r = p.remainingItemCount;
  const present = r !== undefined && r !== null;
  // Pages are counted from 1 here; a paged list's pages are answers 0.. of the judged chain.
  const where: AnswerAt = at.paged ? { page: at.page - 1 } : 'judged';
  const path = ['metadata', 'remainingItemCount'];
  const absent = (says: string) => ({ needs: [{ says, test: { kind: 'value', at: where, path, absent: true } } as const] });
  if (at.selector)
    return [
      rule(
        c,
        !present,
        'no remainingItemCount when the request has a selector',
        `page ${at.page}: remainingItemCount ${JSON.stringify(r)}`,
        absent(`page ${at.page} (a selector was sent) carries no remainingItemCount`),
      ),
    ];
  if (!at.paged || at.last)
    return [
      rule(
        c,
        !present,
        'no remainingItemCount on a complete list or the last page',
        `page ${at.page}: remainingItemCount ${JSON.stringify(r)}`,
        absent(`page ${at.page} (the last) carries no remainingItemCount`),
      ),
    ];
  if (!present) return [pass(c, 'remainingItemCount absent or exact', 'absent')];
  const exact = r === at.later;
  const expected = `remainingItemCount ${at.later} (items on the later pages)`;
  const observed = `page ${at.page}: remainingItemCount ${JSON.stringify(r)}`;
  // The rule relates this page to the later ones: a reproducer counts the later pages it gets itself.
  const later: readonly { at: AnswerAt; path: readonly string[] }[] =
    at.pages === undefined ? [] : Array.from({ length: at.pages - at.page }, (_, k) => ({ at: { page: at.page + k }, path: ['items'] }));
  const exactTest: AnswerTest = at.pages === undefined ? { kind: 'value', at: where, path, equals: at.later } : { kind: 'countOf', at: where, path, of: later };
  const needs = {
    needs: [
      {
        says: `page ${at.page}: remainingItemCount absent or the number of items on the later pages (${at.later} in the failing case)`,
        test: { kind: 'anyOf', tests: [{ kind: 'value', at: where, path, absent: true }, exactTest] },
      } as const,
    ],
  };
  return [rule(c, exact, expected, observed, needs), rule('rest:2.3/metadata.remainingItemCount', exact, expected, observed, needs)];
}

/**
 * A single-object read: status 2xx must return the object as in some snapshot in range; a 4xx is
 * acceptable only if the object is absent in some snapshot in range (the code itself is not fixed).
 */
export function judgeGet(ctx: ReadContext, exp: ReadExpectation, key: string, observed: { status: number; object?: ObservedObject }): Judgement[] {
  const range = exp.range ?? acceptableRange(ctx.history, exp.semantic, exp.at);
  const states: (ObjectVersion | undefined)[] = [];
  for (let i = range.lo; i <= range.hi; i++) states.push(ctx.history.snapshots[i]!.objects.get(key));
  const expectText = `${key} as in ${describeRange(range)} (${exp.semantic}): ${[...new Set(states.map((v) => (v ? showVersion(v) : 'absent (4xx)')))].join(' or ')}`;
  if (observed.status >= 200 && observed.status < 300) {
    const o = observed.object;
    const reasons = states.map((v) => (v === undefined ? 'absent' : o ? versionMismatch(v, o, ctx.knownKeys) : 'no object in body'));
    const ok = reasons.some((r) => r === undefined);
    if (ok) return [pass(exp.clause, expectText), pass(meaningClause[exp.semantic], expectText)];
    if (o && servedFromBeforeCase(ctx, exp.semantic, [o])) return [inconclusive(exp.clause, expectText, `${o.key}@${String(o.rv)}: ${BEFORE_CASE}`)];
    // The diff is against the newest acceptable version (the one a correct Most Recent read returns).
    const values = readValues(states.filter((v): v is ObjectVersion => v !== undefined).slice(-1), o ? [o] : [], ctx.knownKeys);
    const failed = fail(exp.clause, expectText, `${observed.status} with ${o ? `${o.key}@${String(o.rv)}` : 'no object'}: ${reasons.filter(Boolean).join('; ')}`, values);
    return withAgeMeaning(exp, [failed], getAnswerAge(ctx.history, key, range.lo, observed));
  }
  if (observed.status >= 400 && observed.status < 500) {
    // Which 4xx says "absent" is open (404, 410 for a removed object), but 400 Bad Request refuses the
    // read itself, which the cell serves: accepting it would excuse a server that refuses the cell.
    const ok = observed.status !== 400 && states.some((v) => v === undefined);
    return withAgeMeaning(exp, [rule(exp.clause, ok, expectText, `status ${observed.status}`)], getAnswerAge(ctx.history, key, range.lo, observed));
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
export function judgeNotCaughtUp(ctx: ReadContext, exp: ReadExpectation, requestedRv: string | undefined, r: TooLargeAnswer): Judgement[] | undefined {
  if (r.status !== 504 || exp.semantic !== 'NotOlderThan') return undefined;
  const at = exp.at === undefined ? undefined : ctx.history.snapshots[exp.at];
  const expected = `the read served Not older than ${JSON.stringify(requestedRv)}; or 504 once waited for a version the type's cache may not have reached (learned from a collection)`;
  const observed = `504 ${r.bodyText.slice(0, 160)}`;
  const ownWrite = at !== undefined && requestedRv !== undefined && at.rv === requestedRv;
  const verdict = ownWrite
    ? fail(exp.clause, expected, `${observed}: ${JSON.stringify(requestedRv)} is the resourceVersion of a write of this type the server already returned`)
    : inconclusive(exp.clause, expected, observed);
  return [verdict, ...judgeTooLargeMessage(r)];
}
