/**
 * Interprets the REST operations of generators/ops.ts against the target and hands every answer to
 * the model's judges. No expected value is computed here: this file only sends requests, reads
 * answers into the model's types, learns generated values, and asks reference/ what is acceptable.
 */
import { acceptableRange, current, learnRv, recordWrite, taint } from '../../reference/history.ts';
import { keyOf, readObject, type Content, type ObjectVersion } from '../../reference/objects.ts';
import { collectionPath, objectPath, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { decideGet, decideList, rvColumn, type Decision, type ReadSemantic } from '../../reference/rv-semantics.ts';
import { classifyList } from '../../reference/query.ts';
import type { RequestScope } from '../../reference/scope.ts';
import { judgeGet, judgeListSnapshot, learnableIndex, judgeNotCaughtUp, judgePages, type ObservedPage, type ReadContext, type ReadExpectation } from '../../reference/read-oracle.ts';
import { judgeCollectionEnvelope, judgeCreated, judgeObjectEnvelope, judgeUpdated } from '../../reference/envelope-rules.ts';
import { futureResourceVersion, judgeTooLarge } from '../../reference/error-rules.ts';
import type { Judgement } from '../../reference/judgement.ts';
import {
  judgeAfterDelete,
  judgeCompleteList,
  judgeContinuationServed,
  judgeContinueGone,
  judgeCreate,
  judgeCreateOfTerminatingName,
  judgeDeleteAccepted,
  judgeDuplicateCreate,
  judgeEndlessPaging,
  judgeGoneForExact,
  judgeListDecision,
  judgeListNotServed,
  judgeNamespaceCreated,
  judgeUpdate,
  pathClauses as pathJudgements,
  queryClauses as queryJudgements,
} from '../../reference/crud-rules.ts';
import { matchesLabels, parseLabelSelector } from '../../reference/label-selector.ts';
import { annotationPool, labelPool, type ContentSpec, type ListOp, type Op, type ResName, type RvPick, type WriteOp } from '../../generators/ops.ts';
import type { QueryPair, TargetResponse } from '../transport/index.ts';
import { CASE_LABEL, type CaseContext } from '../case/index.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import type { Lease } from '../case/index.ts';
import { CheckNotApplicable } from '../case/index.ts';

const MAX_PAGES = 200;

/** Why a check that follows objects by their resourceVersions is not checked on a target that generates none. */
export const NO_RESOURCE_VERSION =
  'blocked: the target answered a write without metadata.resourceVersion, and this check follows objects by their versions (the absence is failed once, by generated-metadata)';

/** Why a check that refers to objects by uid is not checked on a target that generates none. */
export const NO_UID = 'blocked: the target answered a create without metadata.uid, and this check refers to objects by uid (the absence is failed once, by generated-metadata)';

/** Why a check that creates and deletes namespaces of its own is not checked with `--namespace`. */
export const NEEDS_OWN_NAMESPACE = 'creates and deletes namespaces of its own, and the run was given --namespace (the target does not let it create namespaces)';

export function resourceOf(cx: CaseContext, res: ResName): ResourceType {
  return resourceTypes(cx.env.profile)[res];
}

export function knownKeys(cx: CaseContext): ReadonlySet<string> {
  return new Set<string>([...labelPool, ...annotationPool, cx.env.profile.runLabel, CASE_LABEL]);
}

/**
 * The i-th namespace of the case, on first use (labelled, so the guard lets us write in it). It is
 * leased from the run's pool, exclusively for this case and emptied of the run's objects, unless
 * `own` asks for one the case alone creates (a case that deletes it: rest:2.2.4).
 */
export async function namespaceOf(cx: CaseContext, i: number, o: { own?: boolean } = {}): Promise<string> {
  const given = cx.env.namespacePool?.given === true;
  if (given && o.own === true) throw new CheckNotApplicable([], NEEDS_OWN_NAMESPACE);
  if (given && i >= cx.env.namespacePool!.givenCount) throw new CheckNotApplicable([], `a case needs ${i + 1} namespaces at once and --namespace named ${cx.env.namespacePool!.givenCount}`);
  while (cx.namespaces.length <= i) {
    const own = o.own === true && cx.namespaces.length === i;
    const pool = own ? undefined : cx.env.namespacePool;
    const lease: Lease = pool ? await pool.lease(cx.env.exchangeSink) : { name: cx.env.nextNamespace(), isNew: true, priorVersions: new Set() };
    const name = lease.name;
    const rt = resourceTypes(cx.env.profile).namespaces;
    cx.namespaces.push(name);
    if (pool) cx.leased.push(name);
    if (!lease.isNew) cx.priorVersions.include(lease.priorVersions);
    if (given) {
      cx.setup.push({
        seq: 0,
        request: { method: 'GET', path: objectPath(rt, name) },
        transportError: 'not sent by this case: the namespace was named by --namespace and exists before the run',
        startedAtMs: cx.env.now(),
        durationMs: 0,
      });
      continue;
    }
    if (!lease.isNew) {
      const created = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } };
      cx.setup.push({
        seq: 0,
        request: { method: 'POST', path: collectionPath(rt), body: created },
        transportError: 'not sent by this case: it reused this namespace, created empty earlier in the run',
        startedAtMs: cx.env.now(),
        durationMs: 0,
      });
      // A reused namespace carries this case's label, so case-label selectors find it as before.
      const r = await cx.send({
        method: 'PATCH',
        path: objectPath(rt, name),
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ metadata: { labels: cx.ownLabels } }),
      });
      if (r.status >= 200 && r.status < 300) continue;
      // Gone: the target deleted it (a dry-run delete that was not one, say); the case creates it anew.
      if (r.status !== 404) throw new Error(`relabelling the pooled namespace ${name} answered ${r.status}`);
      cx.setup.pop();
      pool?.lost(name);
    }
    const r = await cx.send({ method: 'POST', path: collectionPath(rt), body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } } });
    if (pool && r.status >= 200 && r.status < 300) pool.created(name);
    // Setup needs the namespace, nothing of its answer: the envelope and generated metadata of a
    // namespace are the generated-metadata check's, so a partial target's answer stops no other check.
    cx.judge(judgeNamespaceCreated(r.status));
  }
  return cx.namespaces[i]!;
}

/**
 * A namespace of the given name (under the run's prefix) made for this case alone and appended to its
 * namespaces, so ops address it by index; deleted when the case ends. Returns its index.
 */
export async function ownNamespace(cx: CaseContext, name: string): Promise<number> {
  if (cx.env.namespacePool?.given === true) throw new CheckNotApplicable([], NEEDS_OWN_NAMESPACE);
  const rt = resourceTypes(cx.env.profile).namespaces;
  const r = await cx.send({ method: 'POST', path: collectionPath(rt), body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } } });
  cx.judge(judgeNamespaceCreated(r.status));
  cx.namespaces.push(name);
  return cx.namespaces.length - 1;
}

/** The content the model predicts for a spec: what the suite sends, in the resource's shape. */
export function contentFor(cx: CaseContext, rt: ResourceType, c: ContentSpec): Content {
  const labels = { ...c.labels, ...cx.ownLabels };
  if (rt.kind === 'Lease') {
    const spec: Record<string, unknown> = {};
    if (c.data['k1'] !== undefined) spec['holderIdentity'] = c.data['k1'];
    if (c.data['k2'] !== undefined) spec['leaseDurationSeconds'] = c.data['k2'].length + 1;
    return { labels, annotations: c.annotations, body: spec };
  }
  return { labels, annotations: c.annotations, body: { ...c.data } };
}

export function bodyFor(rt: ResourceType, name: string, namespace: string, content: Content, rv?: string): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name, namespace, labels: content.labels, annotations: content.annotations };
  if (rv !== undefined) metadata['resourceVersion'] = rv;
  const apiVersion = rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
  return { apiVersion, kind: rt.kind, metadata, [rt.kind === 'Lease' ? 'spec' : 'data']: content.body };
}

const is2xx = (s: number) => s >= 200 && s < 300;

function noteRvs(cx: CaseContext, r: TargetResponse): void {
  const md = (r.json as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata;
  if (typeof md?.resourceVersion === 'string') cx.rvsSeen.add(md.resourceVersion);
}

function versionOf(cx: CaseContext, rt: ResourceType, r: TargetResponse, content: Content): ObjectVersion {
  const o = readObject(rt, r.json);
  // The model follows every object by the versions the target gives it; without one it cannot judge
  // what later reads show. The absence is failed once, by generated-metadata; this check is blocked.
  if (typeof o.rv !== 'string' || o.rv === '') throw new CheckNotApplicable([], NO_RESOURCE_VERSION);
  return {
    key: o.key,
    name: o.name ?? '',
    namespace: o.namespace,
    uid: String(o.uid),
    rv: String(o.rv),
    creationTimestamp: typeof o.creationTimestamp === 'string' ? o.creationTimestamp : undefined,
    content,
  };
}

export async function runOp(cx: CaseContext, op: Op): Promise<void> {
  switch (op.op) {
    case 'create':
    case 'update':
    case 'delete':
      return runWrite(cx, op);
    case 'get':
      return runGet(cx, op);
    case 'list':
      return runList(cx, op);
    case 'tooLarge':
      return runTooLarge(cx, op);
  }
}

export async function runWrite(cx: CaseContext, op: WriteOp): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const key = keyOf(ns, op.name);
  const h = cx.history(op.res);
  const live = current(h).objects.get(key);
  const tainted = h.tainted.has(key);

  if (op.op === 'create') {
    const content = contentFor(cx, rt, op.content);
    const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), body: bodyFor(rt, op.name, ns, content) });
    noteRvs(cx, r);
    if (tainted) {
      cx.judge(judgeCreateOfTerminatingName(r.status));
      if (is2xx(r.status))
        cx.setHistory(op.res, recordWrite({ ...h, tainted: new Set([...h.tainted].filter((k) => k !== key)) }, { op: 'put', version: versionOf(cx, rt, r, content), atMs: cx.writeSentAtMs }));
      return;
    }
    if (live) {
      cx.judge(judgeDuplicateCreate(key, r.status));
      return;
    }
    const reused = h.everKeys.has(key);
    cx.judge(judgeCreate({ key, reused, status: r.status, body: r.bodyText }));
    const o = readObject(rt, r.json);
    cx.judge([...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'), ...judgeCreated(o, content, cx.learned, knownKeys(cx))]);
    const v = versionOf(cx, rt, r, content);
    cx.uids.set(v.uid, key);
    cx.writeRvs.add(v.rv);
    cx.setHistory(op.res, recordWrite(h, { op: 'put', version: v, atMs: cx.writeSentAtMs }));
    return;
  }

  if (!live || tainted) return; // nothing to update or delete: the operation is a no-op for this case.

  if (op.op === 'update') {
    const content = contentFor(cx, rt, op.content);
    const r = await cx.send({ method: 'PUT', path: objectPath(rt, op.name, ns), body: bodyFor(rt, op.name, ns, content, live.rv) });
    noteRvs(cx, r);
    cx.judge(judgeUpdate({ key, status: r.status, body: r.bodyText }));
    const o = readObject(rt, r.json);
    cx.judge([...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'), ...judgeUpdated(o, live, content, cx.learned, knownKeys(cx))]);
    const v = versionOf(cx, rt, r, content);
    if (v.rv !== live.rv) {
      cx.writeRvs.add(v.rv);
      cx.setHistory(op.res, recordWrite(h, { op: 'put', version: v, atMs: cx.writeSentAtMs }));
    }
    return;
  }

  const r = await cx.send({ method: 'DELETE', path: objectPath(rt, op.name, ns) });
  cx.judge(judgeDeleteAccepted(key, r.status));
  // Deletion of an object without finalizers is "not shown" (rest:3.1): learn what the target did.
  const probe = await cx.send({ method: 'GET', path: objectPath(rt, op.name, ns) });
  const after = judgeAfterDelete(key, { status: probe.status, deletionTimestamp: is2xx(probe.status) ? readObject(rt, probe.json).deletionTimestamp : undefined });
  cx.judge(after.judgements);
  cx.setHistory(op.res, after.removed ? recordWrite(h, { op: 'remove', key, atMs: cx.writeSentAtMs }) : taint(h, key));
}

/** Resolves a picked resourceVersion to the parameter to send and the snapshot it denotes. */
export function resolveRv(cx: CaseContext, res: ResName, pick: RvPick | undefined): { param: string | undefined; index: number | undefined } {
  if (!pick || pick.kind === 'unset') return { param: undefined, index: undefined };
  if (pick.kind === 'zero') return { param: '0', index: undefined };
  const learned = [...cx.history(res).rvIndex.entries()];
  if (learned.length === 0) return { param: undefined, index: undefined };
  const [rv, index] = learned[pick.pick % learned.length]!;
  return { param: rv, index };
}

/** `scope`: the namespace of the path (undefined for all namespaces) and the selector sent, judged on every item. */
function readContext(cx: CaseContext, res: ResName, namespaces: readonly string[], selector: string | undefined, scope?: RequestScope): ReadContext {
  const parsed = selector === undefined ? undefined : parseLabelSelector(selector);
  if (parsed && !parsed.ok) throw new Error(`generator produced an invalid selector ${selector}: ${parsed.error}`);
  return {
    history: cx.history(res),
    knownKeys: knownKeys(cx),
    priorVersions: cx.priorVersions,
    inScope: (v) => namespaces.includes(v.namespace ?? '') && (parsed === undefined || (parsed.ok && matchesLabels(parsed.selector, v.content.labels))),
    ...(scope ? { scope } : {}),
  };
}

/** What a list request named: its path's namespace (none for all namespaces) and its selector. */
const scopeOf = (op: Pick<ListOp, 'ns'>, namespaces: readonly string[], selector: string | undefined): RequestScope => ({
  ...(op.ns === 'all' ? {} : { namespace: namespaces[0]! }),
  ...(selector !== undefined ? { selector } : {}),
});

const semanticOf = (d: Decision): ReadSemantic | undefined => (d.outcome === 'serve' ? d.semantic : undefined);

export async function runGet(cx: CaseContext, op: Extract<Op, { op: 'get' }>): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const { param, index } = resolveRv(cx, op.res, op.rv);
  const d = decideGet(rvColumn(param));
  const semantic = semanticOf(d);
  if (semantic !== 'MostRecent' && semantic !== 'Any' && semantic !== 'NotOlderThan') throw new Error(`model returned ${semantic} for a get`);
  const query: QueryPair[] = param === undefined ? [] : [['resourceVersion', param]];
  const r = await cx.send({ method: 'GET', path: objectPath(rt, op.name, ns), query });
  noteRvs(cx, r);
  const key = keyOf(ns, op.name);
  if (cx.history(op.res).tainted.has(key)) return;
  const o = is2xx(r.status) ? readObject(rt, r.json) : undefined;
  if (o) cx.judge(judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }, 'elsewhere'));
  const exp: ReadExpectation = { semantic, clause: d.clause, ...(index !== undefined ? { at: index } : {}) };
  const ctx = readContext(cx, op.res, [ns], undefined);
  const late = judgeNotCaughtUp(ctx, exp, param, { status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] });
  if (late) return cx.judge(late);
  cx.judge([...judgeGet(ctx, exp, key, { status: r.status, ...(o ? { object: o } : {}) }), ...pathClauses(rt, 'object'), ...queryJudgements(new Set(query.map(([k]) => k)), 1)]);
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
  if (r.status === 410 && semantic === 'Exact') return cx.judge(judgeGoneForExact(cx.history(op.res), index, d.clause, cx.env.now(), cx.env.settings.historyWindowMs));
  const lateExp: ReadExpectation = { semantic, clause: d.clause, ...(index !== undefined ? { at: index } : {}) };
  const late =
    op.limit === undefined
      ? judgeNotCaughtUp(readContext(cx, op.res, namespaces, selector), lateExp, param, { status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] })
      : undefined;
  if (late) return cx.judge(late);
  if (!is2xx(r.status)) return cx.judge(judgeListNotServed(d.clause, `200 with the list (${semantic})`, r.status, r.bodyText));
  cx.judge(judgeCollectionEnvelope(rt, (r.json ?? {}) as ListBody, 'elsewhere'));

  const range = acceptableRange(cx.history(op.res), semantic, index);
  const exp: ReadExpectation = { semantic, clause: d.clause, range, ...(index !== undefined ? { at: index } : {}) };
  const requested = semantic === 'Exact' && param !== undefined ? { requestedRv: param } : {};
  const first = pageOf(rt, r);

  const shape = op.ns === 'all' ? ('all' as const) : ('collection' as const);
  if (op.limit === undefined) {
    const js = judgeListSnapshotWithRemaining(cx, op.res, namespaces, selector, exp, first, requested, scopeOf(op, namespaces, selector));
    return learnFromList(cx, op.res, first.collectionRv, semantic, { ...js, judgements: [...js.judgements, ...pathClauses(rt, shape), ...queryClauses(query, 1)] });
  }

  const pages: ObservedPage[] = [first];
  // Which answers the pages are, for the needs of the page judgements (a reproducer checks them).
  const pageSeqs: number[] = [cx.env.transcript.lastSeq()];
  let token = first.continueToken;
  for (let i = 0; typeof token === 'string' && token !== ''; i++) {
    if (pages.length >= MAX_PAGES) return cx.judge(judgeEndlessPaging(MAX_PAGES));
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
    if (refusedNext) return cx.judge(refusedNext);
    if (next.status === 410) return cx.judge(judgeContinueGone(cx.env.now() - startedAt, cx.env.settings.continueTtlMs, semantic));
    if (!is2xx(next.status)) return cx.judge(judgeListNotServed(cd.clause, '200 with the next page of the snapshot', next.status, next.bodyText));
    cx.judge(judgeCollectionEnvelope(rt, (next.json ?? {}) as ListBody, 'elsewhere'));
    const p = pageOf(rt, next);
    pages.push(p);
    pageSeqs.push(cx.env.transcript.lastSeq());
    token = p.continueToken;
    cx.judge(judgeContinuationServed(cd.clause));
  }
  const ctx = readContext(cx, op.res, namespaces, selector, scopeOf(op, namespaces, selector));
  const res = judgePages(ctx, exp, pages, { limit: op.limit, selector: selector !== undefined, ...requested, ...(semantic === 'Any' ? { limitClause: d.clause } : {}) });
  learnFromList(cx, op.res, first.collectionRv, semantic, { ...res, judgements: [...res.judgements, ...pathClauses(rt, shape), ...queryClauses(query, pages.length)] }, pageSeqs);
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
  const ctx = readContext(cx, res, namespaces, selector, scope);
  cx.judge(judgeCompleteList(page, selector !== undefined));
  return judgeListSnapshot(ctx, exp, { collectionRv: page.collectionRv, items: page.items, ...requested });
}

function learnFromList(cx: CaseContext, res: ResName, collectionRv: unknown, semantic: string, result: { judgements: Judgement[]; matchedIndex?: number }, pages?: readonly number[]): void {
  cx.judge(result.judgements, undefined, pages ? { pages } : {});
  const index = learnableIndex({ priorVersions: cx.priorVersions }, semantic, result.matchedIndex);
  if (typeof collectionRv === 'string' && index !== undefined) cx.setHistory(res, learnRv(cx.history(res), collectionRv, index));
}

export async function runTooLarge(cx: CaseContext, op: Extract<Op, { op: 'tooLarge' }>): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const future = futureResourceVersion(cx.rvsSeen);
  if (future === undefined) {
    cx.tally.notCheckedBecause('rest:7/504', "the target's resourceVersions are not all decimal integers, so the suite cannot name one it has not issued yet");
    return;
  }
  const query: QueryPair[] = [['resourceVersion', future]];
  if (op.via === 'list-exact') query.push(['resourceVersionMatch', 'Exact']);
  if (op.via === 'list-limit') query.push(['limit', '1']);
  const path = op.via === 'get' ? objectPath(rt, 'alpha', ns) : collectionPath(rt, ns);
  const r = await cx.send({ method: 'GET', path, query });
  // Exact lists (resourceVersionMatch=Exact, or limit with a resourceVersion) have a row of their own:
  // upstream hands their revision to etcd, which refuses a future one (see the expectations file).
  const exact = op.via === 'list-exact' || op.via === 'list-limit';
  cx.judge(judgeTooLarge({ status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] }, exact ? 'rest:7/504/exact' : 'rest:7/504'));
}
