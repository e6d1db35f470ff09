/**
 * The reads of the REST interpreter: a get, a list page by page, a list too large to serve, each
 * answer handed to the model's read judges (reference/rv-semantics.ts, reference/read-rules.ts).
 */
import { acceptableRange, learnRv } from '../../reference/history.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { collectionPath, objectPath, type ResourceType } from '../../reference/resources.ts';
import { decideGet, decideList, rvColumn, type Decision, type ReadSemantic } from '../../reference/rv-semantics.ts';
import { classifyList } from '../../reference/query.ts';
import type { RequestScope } from '../../reference/scope.ts';
import { learnableIndex, type ObservedPage, type ReadExpectation } from '../../reference/read-oracle.ts';
import { priorAmong, type ReadScope } from '../../reference/read-judges.ts';
import type { ObservedObject } from '../../reference/objects.ts';
import type { Judgement } from '../../reference/judgement.ts';
import type { ListOp, Op, ResName } from '../../generators/ops.ts';
import type { QueryPair, TargetResponse } from '../transport/index.ts';
import {
  CASE_LABEL,
  judgeCollectionEnvelope,
  judgeCompleteList,
  judgeContinuationServed,
  judgeContinueGone,
  judgeEndlessPaging,
  judgeGetIn,
  judgeGoneForExact,
  judgeListDecision,
  judgeListNotServed,
  judgeListSnapshotIn,
  judgeNotCaughtUpIn,
  judgeObjectEnvelope,
  judgePagesIn,
  pathClauses as pathJudgements,
  queryClauses as queryJudgements,
  type CaseContext,
} from '../case/index.ts';
import { runWrite } from './rest-writes.ts';
import { MAX_PAGES, is2xx, knownKeys, namespaceOf, noteRvs, resolveRv, resourceOf } from './rest-basics.ts';

/** `scope`: the namespace of the path (undefined for all namespaces) and the selector sent, judged on every item. */
/** What a read covered, as data (reference/read-judges.ts): of the case's prior versions, those among the objects shown. */
function readScope(
  cx: CaseContext,
  res: ResName,
  namespaces: readonly string[],
  selector: string | undefined,
  shown: readonly ObservedObject[],
  scope?: RequestScope,
): ReadScope {
  return {
    history: cx.history(res),
    knownKeys: knownKeys(cx),
    priorVersions: priorAmong(cx.priorVersions, shown),
    namespaces,
    selector,
    scope,
  };
}

/** What a list request named: its path's namespace (none for all namespaces) and its selector. */
const scopeOf = (op: Pick<ListOp, 'ns'>, namespaces: readonly string[], selector: string | undefined): RequestScope => ({
  namespace: op.ns === 'all' ? undefined : namespaces[0]!,
  selector,
});

const semanticOf = (d: Decision): ReadSemantic | undefined => (d.outcome === 'serve' ? d.semantic : undefined);

export async function runGet(cx: CaseContext, op: Extract<Op, { op: 'get' }>): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const { param, index } = resolveRv(cx, op.res, op.rv);
  const d = decideGet(rvColumn(param));
  const semantic = semanticOf(d);
  if (semantic !== 'MostRecent' && semantic !== 'Any' && semantic !== 'NotOlderThan')
    throw new Error(`model returned ${semantic} for a get`);
  const query: QueryPair[] = param === undefined ? [] : [['resourceVersion', param]];
  const r = await cx.send({ method: 'GET', path: objectPath(rt, op.name, ns), query });
  noteRvs(cx, r);
  const key = keyOf(ns, op.name);
  if (cx.history(op.res).tainted.has(key)) return;
  const o = is2xx(r.status) ? readObject(rt, r.json) : undefined;
  if (o) cx.judge(judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'));
  const exp: ReadExpectation = { semantic, clause: d.clause, at: index };
  const ctx = readScope(cx, op.res, [ns], undefined, o ? [o] : []);
  const late = judgeNotCaughtUpIn(ctx, exp, param, { status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] });
  if (late) return cx.judge(late);
  cx.judge([
    ...judgeGetIn(ctx, exp, key, { status: r.status, object: o }),
    ...pathClauses(rt, 'object'),
    ...queryJudgements(new Set(query.map(([k]) => k)), 1),
  ]);
}

const pathClauses = (rt: ResourceType, shape: 'object' | 'collection' | 'all'): Judgement[] => pathJudgements(rt.group === '', shape);
const queryClauses = (query: readonly QueryPair[], pages: number): Judgement[] => queryJudgements(new Set(query.map(([k]) => k)), pages);

function listQuery(op: Pick<ListOp, 'match' | 'limit'>, rv: string | undefined, selector: string | undefined): QueryPair[] {
  const q: QueryPair[] = [];
  if (selector !== undefined) q.push(['labelSelector', selector]);
  if (rv !== undefined) q.push(['resourceVersion', rv]);
  if (op.match !== 'unset') q.push(['resourceVersionMatch', op.match]);
  if (op.limit !== undefined) q.push(['limit', String(op.limit)]);
  return q;
}

/** The rest:4.5 decision for the query actually sent, classified by the model (rest:4.3). */
function decisionFor(query: readonly QueryPair[]): Decision {
  const q = classifyList(query);
  return q.ok ? decideList(q.cell) : { outcome: 'unspecified', clause: q.clause, why: q.why };
}

interface ListBody {
  kind?: unknown;
  apiVersion?: unknown;
  metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown };
  items?: unknown;
}

export function pageOf(rt: ResourceType, r: TargetResponse): ObservedPage {
  const b = (r.json ?? {}) as ListBody;
  return {
    collectionRv: b.metadata?.resourceVersion,
    continueToken: b.metadata?.continue,
    remainingItemCount: b.metadata?.remainingItemCount,
    items: Array.isArray(b.items) ? b.items.map((it) => readObject(rt, it)) : [],
  };
}

export async function runList(cx: CaseContext, op: ListOp): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const namespaces = op.ns === 'all' ? [await namespaceOf(cx, 0), ...cx.namespaces.slice(1)] : [await namespaceOf(cx, op.ns)];
  // All-namespace lists reach objects of other runs and clusters: narrow them to this case.
  const selector = op.ns === 'all' ? [`${CASE_LABEL}=${cx.caseId}`, op.selector].filter(Boolean).join(',') : op.selector;
  const path = op.ns === 'all' ? collectionPath(rt) : collectionPath(rt, namespaces[0]);
  const { param, index } = resolveRv(cx, op.res, op.rv);
  const query = listQuery(op, param, selector);
  const d = decisionFor(query);
  const startedAt = cx.env.now();
  const r = await cx.send({ method: 'GET', path, query });
  noteRvs(cx, r);

  const refused = judgeListDecision(d, r.status);
  if (refused || d.outcome !== 'serve') return cx.judge(refused ?? []);
  const semantic = d.semantic as 'MostRecent' | 'Any' | 'NotOlderThan' | 'Exact';
  if (r.status === 410 && semantic === 'Exact')
    return cx.judge(judgeGoneForExact(cx.history(op.res), index, d.clause, cx.env.now(), cx.env.settings.historyWindowMs));
  const lateExp: ReadExpectation = { semantic, clause: d.clause, at: index };
  const late =
    op.limit === undefined
      ? judgeNotCaughtUpIn(readScope(cx, op.res, namespaces, selector, []), lateExp, param, {
          status: r.status,
          bodyText: r.bodyText,
          retryAfter: r.headers['retry-after'],
        })
      : undefined;
  if (late) return cx.judge(late);
  if (!is2xx(r.status)) return cx.judge(judgeListNotServed(d.clause, `200 with the list (${semantic})`, r.status, r.bodyText));
  cx.judge(judgeCollectionEnvelope(rt, (r.json ?? {}) as ListBody, 'elsewhere'));

  const range = acceptableRange(cx.history(op.res), semantic, index);
  const exp: ReadExpectation = { semantic, clause: d.clause, range, at: index };
  const requested = semantic === 'Exact' && param !== undefined ? { requestedRv: param } : {};
  const first = pageOf(rt, r);

  const shape = op.ns === 'all' ? ('all' as const) : ('collection' as const);
  if (op.limit === undefined) {
    const js = judgeListSnapshotWithRemaining(cx, op.res, namespaces, selector, exp, first, requested, scopeOf(op, namespaces, selector));
    return learnFromList(cx, op.res, first.collectionRv, semantic, {
      ...js,
      judgements: [...js.judgements, ...pathClauses(rt, shape), ...queryClauses(query, 1)],
    });
  }

  const followed = await followPages(cx, rt, path, op, selector, first, { startedAt, semantic });
  if (followed === undefined) return;
  const { pages, pageSeqs } = followed;
  const ctx = readScope(
    cx,
    op.res,
    namespaces,
    selector,
    pages.flatMap((p) => p.items),
    scopeOf(op, namespaces, selector),
  );
  const res = judgePagesIn(ctx, exp, pages, {
    limit: op.limit,
    selector: selector !== undefined,
    ...requested,
    limitClause: semantic === 'Any' ? d.clause : undefined,
  });
  learnFromList(
    cx,
    op.res,
    first.collectionRv,
    semantic,
    { ...res, judgements: [...res.judgements, ...pathClauses(rt, shape), ...queryClauses(query, pages.length)] },
    pageSeqs,
  );
}

/**
 * The pages after the first of a limited list, each asked with the previous page's continue token (and
 * the op's writes between pages); undefined when a page was refused or gone, which is then judged.
 */
async function followPages(
  cx: CaseContext,
  rt: ResourceType,
  path: string,
  op: ListOp,
  selector: string | undefined,
  first: ObservedPage,
  { startedAt, semantic }: { startedAt: number; semantic: 'MostRecent' | 'Any' | 'NotOlderThan' | 'Exact' },
): Promise<{ pages: ObservedPage[]; pageSeqs: number[] } | undefined> {
  const pages: ObservedPage[] = [first];
  // Which answers the pages are, for the needs of the page judgements (a reproducer checks them).
  const pageSeqs: number[] = [cx.env.transcript.lastSeq()];
  let token = first.continueToken;
  for (let i = 0; typeof token === 'string' && token !== ''; i++) {
    if (pages.length >= MAX_PAGES) {
      cx.judge(judgeEndlessPaging(MAX_PAGES));
      return undefined;
    }
    const between = op.between?.[i];
    if (between) await runWrite(cx, between);
    const c = resolveRv(cx, op.res, op.continueRv);
    const q: QueryPair[] = [];
    if (selector !== undefined) q.push(['labelSelector', selector]);
    if (c.param !== undefined) q.push(['resourceVersion', c.param]);
    q.push(['limit', String(op.limit)], ['continue', token]);
    const cd = decisionFor(q);
    const next = await cx.send({ method: 'GET', path, query: q });
    noteRvs(cx, next);
    const refusedNext = judgeListDecision(cd, next.status);
    if (refusedNext) {
      cx.judge(refusedNext);
      return undefined;
    }
    if (next.status === 410) {
      cx.judge(judgeContinueGone(cx.env.now() - startedAt, cx.env.settings.continueTtlMs, semantic));
      return undefined;
    }
    if (!is2xx(next.status)) {
      cx.judge(judgeListNotServed(cd.clause, '200 with the next page of the snapshot', next.status, next.bodyText));
      return undefined;
    }
    cx.judge(judgeCollectionEnvelope(rt, (next.json ?? {}) as ListBody, 'elsewhere'));
    const p = pageOf(rt, next);
    pages.push(p);
    pageSeqs.push(cx.env.transcript.lastSeq());
    token = p.continueToken;
    cx.judge(judgeContinuationServed(cd.clause));
  }
  return { pages, pageSeqs };
}

function judgeListSnapshotWithRemaining(
  cx: CaseContext,
  res: ResName,
  namespaces: readonly string[],
  selector: string | undefined,
  exp: ReadExpectation,
  page: ObservedPage,
  requested: { requestedRv?: string },
  scope: RequestScope,
) {
  const ctx = readScope(cx, res, namespaces, selector, page.items, scope);
  cx.judge(judgeCompleteList(page, selector !== undefined));
  return judgeListSnapshotIn(ctx, exp, { collectionRv: page.collectionRv, items: page.items, ...requested });
}

function learnFromList(
  cx: CaseContext,
  res: ResName,
  collectionRv: unknown,
  semantic: string,
  result: { judgements: Judgement[]; matchedIndex?: number },
  pages?: readonly number[],
): void {
  cx.judge(result.judgements, undefined, pages ? { pages } : {});
  const index = learnableIndex({ priorVersions: cx.priorVersions }, semantic, result.matchedIndex);
  if (typeof collectionRv === 'string' && index !== undefined) cx.setHistory(res, learnRv(cx.history(res), collectionRv, index));
}
