/**
 * The pages of one paged list (rest:4.4): each page's size against the limit, the collection
 * resourceVersion every page repeats, the continue token, remainingItemCount; then the union of the
 * pages against the snapshot rules of the first page's semantic (reference/read-snapshot.ts).
 */
import type { ObservedObject } from './objects.ts';
import { fail, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import type { AnswerAt, AnswerTest } from './answer-checks.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import type { ListJudgement, ReadContext, ReadExpectation } from './read-context.ts';
import { judgeListSnapshot } from './read-snapshot.ts';

export interface ObservedPage {
  readonly collectionRv: unknown;
  readonly continueToken: unknown;
  readonly remainingItemCount: unknown;
  readonly items: readonly ObservedObject[];
}

/** How the pages were asked for. */
export interface PagedRequest {
  readonly limit: number;
  readonly selector: boolean;
  readonly requestedRv?: string;
  readonly limitClause?: ClauseId;
}

/**
 * `limitClause`: the page-size rule is reported against the rest:4.5 cell instead of rest:4.4.1 for
 * rv="0" reads, because upstream servers answer those from a cache that ignores `limit`
 * (kubernetes/kubernetes#118394): a known, separately listable departure, not a paging regression.
 *
 * rest:4.4 rules over the pages of one paged list (all fetched, the last with an empty continue),
 * then the union against the snapshot rules of the first page's semantic.
 */
export function judgePages(ctx: ReadContext, exp: ReadExpectation, pages: readonly ObservedPage[], opts: PagedRequest): ListJudgement {
  if (!pages[0]) throw new Error('model misuse: judgePages needs at least one page');
  // Only a list with more items than its limit can show a server ignoring the limit.
  const overLimit = pages.reduce((n, p) => n + p.items.length, 0) > opts.limit;
  const js = pages.flatMap((_, i) => judgePage(pages, i, opts, overLimit));
  if (js.some((j) => j.verdict === 'fail')) return { judgements: js };
  return judgeUnion(ctx, exp, pages, opts, js);
}

/** The rest:4.4 rules on page `i` of a paged list, in the order they are reported. */
function judgePage(pages: readonly ObservedPage[], i: number, opts: PagedRequest, overLimit: boolean): Judgement[] {
  const p = pages[i]!;
  const js = pageSize(p, i, opts, overLimit);
  if (i > 0) js.push(sameCollectionVersion(p, i, pages[0]!));
  const later = pages.slice(i + 1).reduce((n, q) => n + q.items.length, 0);
  const last = i === pages.length - 1;
  js.push(...continueRule(p, i, later, last, opts.selector));
  js.push(...judgeRemaining(p, { later, last, selector: opts.selector, paged: true, page: i + 1, pages: pages.length }));
  return js;
}

function pageSize(p: ObservedPage, i: number, opts: PagedRequest, overLimit: boolean): Judgement[] {
  const atMost = {
    needs: [
      {
        says: `page ${i + 1} holds at most ${opts.limit} item(s)`,
        test: { kind: 'length', at: { page: i }, path: ['items'], atMost: opts.limit },
      } as const,
    ],
  };
  const size = rule(
    opts.limitClause ?? 'rest:4.4.1',
    p.items.length <= opts.limit,
    `at most limit=${opts.limit} items per page`,
    `page ${i + 1} has ${p.items.length} items`,
    atMost,
  );
  // limit-ignored: the rest of the list in this one page, no continue (what a cache that ignores limit
  // answers); a page one item too large with a token after it is another departure.
  const whole = typeof p.continueToken !== 'string' || p.continueToken === '';
  return overLimit
    ? tagged([size], { input: 'limit-below-count', observedStatus: 200, class: whole ? 'limit-ignored' : undefined })
    : [size];
}

/** rest:4.4.3: a later page reports the first page's collection resourceVersion. */
function sameCollectionVersion(p: ObservedPage, i: number, first: ObservedPage): Judgement {
  const samePath = ['metadata', 'resourceVersion'];
  const sameRv = {
    needs: [
      {
        says: `page ${i + 1} reports page 1's metadata.resourceVersion`,
        test: { kind: 'same', at: { page: i }, path: samePath, other: { at: { page: 0 }, path: samePath } },
      } as const,
    ],
  };
  return rule(
    'rest:4.4.3',
    p.collectionRv === first.collectionRv,
    `every page reports the first page's collection resourceVersion ${JSON.stringify(first.collectionRv)}`,
    `page ${i + 1} reports ${JSON.stringify(p.collectionRv)}`,
    sameRv,
  );
}

/** rest:2.3/metadata.continue: empty on the last page, and on a page after which no items remain. */
function continueRule(p: ObservedPage, i: number, later: number, last: boolean, selector: boolean): Judgement[] {
  const hasToken = typeof p.continueToken === 'string' && p.continueToken !== '';
  if (last) return [pass('rest:2.3/metadata.continue', 'empty continue on the last page')];
  if (!hasToken || later > 0) return [];
  const expected = 'continue empty on the page after which no items remain';
  const observed = `page ${i + 1} carried a continue token, and the pages after it held no items`;
  // With a selector an upstream server may stop short of knowing nothing matches further on.
  if (selector) return [unspecified('rest:2.3/metadata.continue', expected, observed)];
  return [
    fail('rest:2.3/metadata.continue', expected, observed, {
      needs: [
        {
          says: `page ${i + 1}, after which no items remain, has an empty metadata.continue`,
          test: { kind: 'value', at: { page: i }, path: ['metadata', 'continue'], absent: true },
        },
      ],
    }),
  ];
}

/** The union of the pages against the snapshot rules (rest:4.4.3), after the page rules all held. */
function judgeUnion(
  ctx: ReadContext,
  exp: ReadExpectation,
  pages: readonly ObservedPage[],
  opts: PagedRequest,
  js: Judgement[],
): ListJudgement {
  const union = pages.flatMap((p) => p.items);
  const snap = judgeListSnapshot(
    ctx,
    exp,
    { collectionRv: pages[0]!.collectionRv, items: union, requestedRv: opts.requestedRv },
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
export function judgeRemaining(
  p: Pick<ObservedPage, 'remainingItemCount'>,
  at: { later: number; last: boolean; selector: boolean; paged: boolean; page: number; pages?: number },
): Judgement[] {
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
  const exactTest: AnswerTest =
    at.pages === undefined ? { kind: 'value', at: where, path, equals: at.later } : { kind: 'countOf', at: where, path, of: later };
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
