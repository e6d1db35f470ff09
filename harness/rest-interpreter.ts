/**
 * Interprets the REST operations of generators/ops.ts against the target and hands every answer to
 * the model's judges. No expected value is computed here: this file only sends requests, reads
 * answers into the model's types, learns generated values, and asks reference/ what is acceptable.
 */
import { acceptableRange, current, learnRv, mayHaveBeenCompacted, recordWrite, taint } from '../reference/history.ts';
import { keyOf, readObject, type Content, type ObjectVersion } from '../reference/objects.ts';
import { collectionPath, objectPath, resourceTypes, type ResourceType } from '../reference/resources.ts';
import { decideGet, decideList, rvColumn, statusAccepted, type Decision, type ReadSemantic } from '../reference/rv-semantics.ts';
import { classifyList } from '../reference/query.ts';
import { judgeGet, judgeListSnapshot, judgePages, type ObservedPage, type ReadContext, type ReadExpectation } from '../reference/read-oracle.ts';
import { judgeCollectionEnvelope, judgeCreated, judgeObjectEnvelope, judgeUpdated } from '../reference/envelope-rules.ts';
import { futureResourceVersion, judgeTooLarge } from '../reference/error-rules.ts';
import { fail, pass, rule, unspecified, type Judgement } from '../reference/judgement.ts';
import { matchesLabels, parseLabelSelector } from '../reference/label-selector.ts';
import { annotationPool, labelPool, type ContentSpec, type ListOp, type Op, type ResName, type RvPick, type WriteOp } from '../generators/ops.ts';
import type { QueryPair, TargetResponse } from './exchange.ts';
import { CASE_LABEL, type CaseContext } from './case-context.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

const MAX_PAGES = 200;

export function resourceOf(cx: CaseContext, res: ResName): ResourceType {
  return resourceTypes(cx.env.profile)[res];
}

export function knownKeys(cx: CaseContext): ReadonlySet<string> {
  return new Set<string>([...labelPool, ...annotationPool, cx.env.profile.runLabel, CASE_LABEL]);
}

/** The i-th namespace of the case, created on first use (labelled, so the guard lets us write in it). */
export async function namespaceOf(cx: CaseContext, i: number): Promise<string> {
  while (cx.namespaces.length <= i) {
    const name = cx.env.nextNamespace();
    const rt = resourceTypes(cx.env.profile).namespaces;
    const r = await cx.send({ method: 'POST', path: collectionPath(rt), body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } } });
    cx.judge([rule('rest:4.1/post', r.status >= 200 && r.status < 300, 'a new namespace is created (2xx)', `status ${r.status}`)]);
    cx.judge(judgeObjectEnvelope(rt, readObject(rt, r.json), { name, namespace: undefined }));
    cx.namespaces.push(name);
  }
  return cx.namespaces[i]!;
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
  return { key: o.key, name: o.name ?? '', namespace: o.namespace, uid: String(o.uid), rv: String(o.rv), creationTimestamp: typeof o.creationTimestamp === 'string' ? o.creationTimestamp : undefined, content };
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
      // Whether a name is free again while its object may still be terminating is not shown (rest:3.1).
      cx.judge([unspecified('rest:2.2.2', 'reuse of a name whose object may still be terminating: not shown', `status ${r.status}`)]);
      if (is2xx(r.status)) cx.setHistory(op.res, recordWrite({ ...h, tainted: new Set([...h.tainted].filter((k) => k !== key)) }, { op: 'put', version: versionOf(cx, rt, r, content), atMs: cx.writeSentAtMs }));
      return;
    }
    if (live) {
      // One name, one object: repeating a create must not make a second one or replace the first.
      const refused = r.status >= 400 && r.status < 500;
      cx.judge([rule('rest:2.2.2', refused, `create of an existing name ${key} refused (4xx)`, `status ${r.status}`), rule('rest:2.2.1', refused, `a repeated create of ${key} is refused (names make creation idempotent)`, `status ${r.status}`)]);
      return;
    }
    const reused = h.everKeys.has(key);
    cx.judge([rule(reused ? 'rest:2.2.2' : 'rest:4.1/post', is2xx(r.status), reused ? `create succeeds: the name ${key} was freed by deletion` : `create of ${key} succeeds (2xx)`, `status ${r.status} ${r.bodyText.slice(0, 160)}`)]);
    const o = readObject(rt, r.json);
    cx.judge([...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }), ...judgeCreated(o, content, cx.learned, knownKeys(cx))]);
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
    cx.judge([rule('rest:4.1/put', is2xx(r.status), `update of ${key} at its current resourceVersion succeeds (2xx)`, `status ${r.status} ${r.bodyText.slice(0, 160)}`)]);
    const o = readObject(rt, r.json);
    cx.judge([...judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }), ...judgeUpdated(o, live, content, cx.learned, knownKeys(cx))]);
    const v = versionOf(cx, rt, r, content);
    if (v.rv !== live.rv) {
      cx.writeRvs.add(v.rv);
      cx.setHistory(op.res, recordWrite(h, { op: 'put', version: v, atMs: cx.writeSentAtMs }));
    }
    return;
  }

  const r = await cx.send({ method: 'DELETE', path: objectPath(rt, op.name, ns) });
  cx.judge([rule('rest:4.1/delete', is2xx(r.status), `delete of ${key} accepted (2xx)`, `status ${r.status}`)]);
  // Deletion of an object without finalizers is "not shown" (rest:3.1): learn what the target did.
  const probe = await cx.send({ method: 'GET', path: objectPath(rt, op.name, ns) });
  if (probe.status >= 400 && probe.status < 500) {
    cx.judge([unspecified('rest:3.1/no-finalizers-not-shown', 'deletion without finalizers: not shown', 'removed at once')]);
    cx.setHistory(op.res, recordWrite(h, { op: 'remove', key, atMs: cx.writeSentAtMs }));
    return;
  }
  const o = readObject(rt, probe.json);
  cx.judge([rule('rest:3.1/live-to-terminating', is2xx(probe.status) && typeof o.deletionTimestamp === 'string', `after an accepted delete ${key} is removed or Terminating (deletionTimestamp set)`, `status ${probe.status}, deletionTimestamp ${JSON.stringify(o.deletionTimestamp)}`)]);
  cx.judge([unspecified('rest:3.1/no-finalizers-not-shown', 'deletion without finalizers: not shown', 'left Terminating')]);
  cx.setHistory(op.res, taint(h, key));
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

function readContext(cx: CaseContext, res: ResName, namespaces: readonly string[], selector: string | undefined): ReadContext {
  const parsed = selector === undefined ? undefined : parseLabelSelector(selector);
  if (parsed && !parsed.ok) throw new Error(`generator produced an invalid selector ${selector}: ${parsed.error}`);
  return {
    history: cx.history(res),
    knownKeys: knownKeys(cx),
    inScope: (v) => namespaces.includes(v.namespace ?? '') && (parsed === undefined || (parsed.ok && matchesLabels(parsed.selector, v.content.labels))),
  };
}

const semanticOf = (d: Decision): ReadSemantic | undefined => (d.outcome === 'serve' ? d.semantic : undefined);

/**
 * 410 Gone on an Exact read is acceptable only if the version may have left the target's history
 * (older than the window it is configured with); younger versions must be served (rest:6.1.4).
 */
function judgeGoneForExact(cx: CaseContext, res: ResName, index: number | undefined, clause: ClauseId): Judgement[] {
  const h = cx.history(res);
  const at = index === undefined ? undefined : h.snapshots[index]?.atMs;
  const age = at === undefined ? Infinity : cx.env.now() - at;
  const mayBeGone = index === undefined || mayHaveBeenCompacted(h, index, cx.env.now(), cx.env.settings.historyWindowMs);
  return mayBeGone
    ? [pass('rest:7/410', '410 Gone for a version older than the retained history'), pass(clause, 'Exact: the snapshot or 410 Gone once it may have been dropped')]
    : [fail('rest:6.1.4', `a version ${Math.round(age)} ms old is still retained (history window ${cx.env.settings.historyWindowMs} ms)`, '410 Gone'), fail(clause, 'the exact snapshot', '410 Gone for a version the target must still retain')];
}

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
  if (o) cx.judge(judgeObjectEnvelope(rt, o, { name: op.name, namespace: ns }));
  const exp: ReadExpectation = { semantic, clause: d.clause, ...(index !== undefined ? { at: index } : {}) };
  cx.judge([...judgeGet(readContext(cx, op.res, [ns], undefined), exp, key, { status: r.status, ...(o ? { object: o } : {}) }), ...pathClauses(rt, 'object'), ...(param !== undefined ? [pass('rest:4.3/resourceVersion', 'resourceVersion honoured as rest:4.5 says')] : [])]);
}

/** rest:4.1 path shapes (and the core group's) exercised by a read the model accepted. */
function pathClauses(rt: ResourceType, shape: 'object' | 'collection' | 'all'): Judgement[] {
  const clause = shape === 'object' ? 'rest:4.1/get-namespaced-object' : shape === 'collection' ? 'rest:4.1/get-namespaced-collection' : 'rest:4.1/get-collection';
  const js = [pass(clause, 'the path shape of rest:4.1 answers as the model predicts')];
  if (rt.group === '') js.push(pass('rest:4.1/get-core', 'the core group serves the same shapes under /api/v1'));
  return js;
}

/** rest:4.3 rows of the parameters a list used, once the model accepted the answer. */
function queryClauses(query: readonly QueryPair[], pages: number): Judgement[] {
  const used = new Set(query.map(([k]) => k));
  const js: Judgement[] = [];
  for (const [k, clause] of [['resourceVersion', 'rest:4.3/resourceVersion'], ['resourceVersionMatch', 'rest:4.3/resourceVersionMatch'], ['limit', 'rest:4.3/limit']] as const) {
    if (used.has(k)) js.push(pass(clause, `${k} honoured as rest:4.4/4.5 say`));
  }
  if (pages > 1) js.push(pass('rest:4.3/continue', 'continue tokens lead through the snapshot'), pass('rest:4.4.5', 'chunking is available'));
  return js;
}

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

function pageOf(rt: ResourceType, r: TargetResponse): ObservedPage {
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

  if (d.outcome === 'unspecified') return cx.judge([unspecified(d.clause, d.why, `status ${r.status}`)]);
  if (d.outcome === 'reject') {
    const ok = statusAccepted(d.statuses, r.status);
    const expected = d.statuses === '4xx' ? 'refused as invalid (any 4xx)' : `status ${d.statuses.join(' or ')}`;
    return cx.judge([rule(d.clause, ok, expected, `status ${r.status}`), ...(d.statuses === '4xx' ? [rule('rest:4.3/resourceVersionMatch', ok, expected, `status ${r.status}`)] : [rule('rest:7/400', ok, expected, `status ${r.status}`)])]);
  }
  const semantic = d.semantic as 'MostRecent' | 'Any' | 'NotOlderThan' | 'Exact';
  if (r.status === 410 && semantic === 'Exact') return cx.judge(judgeGoneForExact(cx, op.res, index, d.clause));
  if (!is2xx(r.status)) return cx.judge([fail(d.clause, `200 with the list (${semantic})`, `status ${r.status} ${r.bodyText.slice(0, 160)}`)]);
  cx.judge(judgeCollectionEnvelope(rt, (r.json ?? {}) as ListBody));

  const range = acceptableRange(cx.history(op.res), semantic, index);
  const exp: ReadExpectation = { semantic, clause: d.clause, range, ...(index !== undefined ? { at: index } : {}) };
  const requested = semantic === 'Exact' && param !== undefined ? { requestedRv: param } : {};
  const first = pageOf(rt, r);

  const shape = op.ns === 'all' ? ('all' as const) : ('collection' as const);
  if (op.limit === undefined) {
    const js = judgeListSnapshotWithRemaining(cx, op.res, namespaces, selector, exp, first, requested);
    return learnFromList(cx, op.res, first.collectionRv, { ...js, judgements: [...js.judgements, ...pathClauses(rt, shape), ...queryClauses(query, 1)] });
  }

  const pages: ObservedPage[] = [first];
  let token = first.continueToken;
  for (let i = 0; typeof token === 'string' && token !== ''; i++) {
    if (pages.length >= MAX_PAGES) return cx.judge([fail('rest:4.4.2', 'continue becomes empty once the snapshot is exhausted', `still non-empty after ${MAX_PAGES} pages`)]);
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
    if (cd.outcome === 'unspecified') return cx.judge([unspecified(cd.clause, cd.why, `status ${next.status}`)]);
    if (cd.outcome === 'reject') {
      const ok = statusAccepted(cd.statuses, next.status);
      const expected = `status ${cd.statuses === '4xx' ? '4xx' : cd.statuses.join(' or ')}`;
      return cx.judge([rule(cd.clause, ok, expected, `status ${next.status}`), rule('rest:7/400', ok, expected, `status ${next.status}`)]);
    }
    if (next.status === 410) {
      const age = cx.env.now() - startedAt;
      const expired = age >= cx.env.settings.continueTtlMs;
      return cx.judge([rule('rest:4.4.4', expired, `a continue token ${Math.round(age)} ms old is still valid (lifetime ${cx.env.settings.continueTtlMs} ms)`, '410 Gone')]);
    }
    if (!is2xx(next.status)) return cx.judge([fail(cd.clause, '200 with the next page of the snapshot', `status ${next.status} ${next.bodyText.slice(0, 160)}`)]);
    cx.judge(judgeCollectionEnvelope(rt, (next.json ?? {}) as ListBody));
    const p = pageOf(rt, next);
    pages.push(p);
    token = p.continueToken;
    cx.judge([pass(cd.clause, 'continuation served from the token')]);
  }
  const ctx = readContext(cx, op.res, namespaces, selector);
  const res = judgePages(ctx, exp, pages, { limit: op.limit, selector: selector !== undefined, ...requested, ...(semantic === 'Any' ? { limitClause: d.clause } : {}) });
  learnFromList(cx, op.res, first.collectionRv, { ...res, judgements: [...res.judgements, ...pathClauses(rt, shape), ...queryClauses(query, pages.length)] });
}

function judgeListSnapshotWithRemaining(cx: CaseContext, res: ResName, namespaces: readonly string[], selector: string | undefined, exp: ReadExpectation, page: ObservedPage, requested: { requestedRv?: string }) {
  const ctx = readContext(cx, res, namespaces, selector);
  const remaining: Judgement = page.remainingItemCount === undefined || page.remainingItemCount === null
    ? pass('rest:4.4.6', 'no remainingItemCount on a complete list')
    : fail('rest:4.4.6', 'no remainingItemCount on a complete list', `remainingItemCount ${JSON.stringify(page.remainingItemCount)}`);
  const continueEmpty = rule('rest:2.3/metadata.continue', page.continueToken === undefined || page.continueToken === '', 'empty continue on an unpaged list', `continue ${JSON.stringify(page.continueToken)}`);
  cx.judge([remaining, continueEmpty]);
  return judgeListSnapshot(ctx, exp, { collectionRv: page.collectionRv, items: page.items, ...requested });
}

function learnFromList(cx: CaseContext, res: ResName, collectionRv: unknown, result: { judgements: Judgement[]; matchedIndex?: number }): void {
  cx.judge(result.judgements);
  if (typeof collectionRv === 'string' && result.matchedIndex !== undefined) cx.setHistory(res, learnRv(cx.history(res), collectionRv, result.matchedIndex));
}

export async function runTooLarge(cx: CaseContext, op: Extract<Op, { op: 'tooLarge' }>): Promise<void> {
  const rt = resourceOf(cx, op.res);
  const ns = await namespaceOf(cx, op.ns);
  const future = futureResourceVersion(cx.rvsSeen);
  if (future === undefined) {
    cx.tally.notCheckedBecause('rest:7/504', 'the target\'s resourceVersions are not all decimal integers, so the suite cannot name one it has not issued yet');
    return;
  }
  const query: QueryPair[] = [['resourceVersion', future]];
  if (op.via === 'list-exact') query.push(['resourceVersionMatch', 'Exact']);
  const path = op.via === 'get' ? objectPath(rt, 'alpha', ns) : collectionPath(rt, ns);
  const r = await cx.send({ method: 'GET', path, query });
  cx.judge(judgeTooLarge({ status: r.status, bodyText: r.bodyText, retryAfter: r.headers['retry-after'] }));
}

