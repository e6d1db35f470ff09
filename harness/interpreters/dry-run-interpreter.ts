/**
 * Interprets the dry-run steps of generators/dry-run-ops.ts: sends the write with `dryRun`, judges
 * the answer against what the real write would do (reference/dry-run.ts), then reads the key back to
 * see that nothing was persisted. The history is left untouched by dry-runs.
 */
import {
  judgeDryRunAnswer,
  judgeDryRunPersistence,
  judgeDryRunWrite,
  judgeGeneratedDryRun,
  judgeInvalidDryRunWrite,
  judgeNamespaceDryRunDelete,
  judgeNamespaceKept,
  judgeNotPersisted,
} from '../case/index.ts';
import { current, taint } from '../../reference/history.ts';
import { keyOf, readObject } from '../../reference/objects.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { statusReasonOf } from '../../reference/judgement.ts';
import { dryRunPair, expectDryRunBadBody, expectDryRunPatch, type DryRunExpectation } from '../../reference/dry-run.ts';
import type { DryRunStep } from '../../generators/dry-run-ops.ts';
import { labelValues, type WriteOp } from '../../generators/ops.ts';
import type { QueryPair, TargetRequest } from '../transport/index.ts';
import type { CaseContext } from '../case/index.ts';
import { bodyFor, contentFor, knownKeys, namespaceOf, resourceOf, runOp } from './rest-interpreter.ts';

type Prepared = { req: TargetRequest; exp: DryRunExpectation } | undefined;

/** The request a write would send, and what the real write would do; undefined: nothing to try. */
async function prepare(cx: CaseContext, w: WriteOp, query: readonly QueryPair[], staleRv: boolean): Promise<Prepared> {
  const rt = resourceOf(cx, w.res);
  const ns = await namespaceOf(cx, w.ns);
  const h = cx.history(w.res);
  const key = keyOf(ns, w.name);
  if (h.tainted.has(key)) return undefined;
  const live = current(h).objects.get(key);
  if (w.op === 'create') {
    const content = contentFor(cx, rt, w.content);
    const req: TargetRequest = { method: 'POST', path: collectionPath(rt, ns), query, body: bodyFor(rt, w.name, ns, content) };
    return {
      req,
      exp: live
        ? { outcome: 'refused', verb: 'create', why: `${key} exists` }
        : { outcome: 'success', verb: 'create', wouldStore: content },
    };
  }
  if (!live) {
    // A real delete of a missing object is refused (404); a PUT may create (rest:4.1/put): not tried.
    if (w.op !== 'delete') return undefined;
    return {
      req: { method: 'DELETE', path: objectPath(rt, w.name, ns), query },
      exp: { outcome: 'refused', verb: 'delete', why: `${key} does not exist` },
    };
  }
  if (w.op === 'update' && staleRv) {
    // With the rv the object had before a real update, the real update is refused, so the dry-run is too.
    const note = live.content.annotations['note'] === 'one' ? 'two' : 'one';
    await runOp(cx, { ...w, content: { ...w.content, labels: { ...w.content.labels }, annotations: { note } } });
    const now = current(cx.history(w.res)).objects.get(key);
    if (!now || now.rv === live.rv) return undefined;
    const body = bodyFor(rt, w.name, ns, contentFor(cx, rt, w.content), live.rv);
    return {
      req: { method: 'PUT', path: objectPath(rt, w.name, ns), query, body },
      exp: {
        outcome: 'refused',
        verb: 'update',
        why: `resourceVersion ${live.rv} is stale`,
        open: 'a write carrying a stale resourceVersion: refused upstream (409), but the spec has no preconditions',
      },
    };
  }
  if (w.op === 'update') {
    const content = contentFor(cx, rt, w.content);
    return {
      req: { method: 'PUT', path: objectPath(rt, w.name, ns), query, body: bodyFor(rt, w.name, ns, content, live.rv) },
      exp: { outcome: 'success', verb: 'update', wouldStore: content },
    };
  }
  return {
    req: { method: 'DELETE', path: objectPath(rt, w.name, ns), query },
    exp: { outcome: 'success', verb: 'delete', wouldStore: undefined },
  };
}

async function runGenerate(cx: CaseContext, step: Extract<DryRunStep, { op: 'dryRunGenerate' }>): Promise<void> {
  const rt = resourceOf(cx, step.res);
  const ns = await namespaceOf(cx, 0);
  const body = bodyFor(rt, '', ns, contentFor(cx, rt, { labels: {}, annotations: {}, data: {} }));
  const { name: _unused, ...rest } = body['metadata'] as Record<string, unknown>;
  const metadata = { ...rest, generateName: step.prefix };
  const r = await cx.send({ method: 'POST', path: collectionPath(rt, ns), query: [dryRunPair('All')], body: { ...body, metadata } });
  const name = r.status < 300 ? readObject(rt, r.json).name : undefined;
  const back =
    typeof name === 'string' && name !== '' ? (await cx.send({ method: 'GET', path: objectPath(rt, name, ns) })).status : undefined;
  cx.judge(judgeGeneratedDryRun(step.prefix, r.status, name, back));
}

async function runDeleteNamespace(cx: CaseContext): Promise<void> {
  // A namespace named by --namespace is the user's: not even a dry-run delete is sent to it.
  if (cx.env.namespacePool?.given === true) return;
  const rt = resourceTypes(cx.env.profile).namespaces;
  const ns = await namespaceOf(cx, 0);
  const r = await cx.send({ method: 'DELETE', path: objectPath(rt, ns), query: [dryRunPair('All')] });
  cx.judge([judgeNamespaceDryRunDelete(r.status)]);
  const back = await cx.send({ method: 'GET', path: objectPath(rt, ns) });
  cx.judge([judgeNamespaceKept(ns, back.status, readObject(rt, back.json).deletionTimestamp)]);
}

/** The request of a dry-run PATCH: a body of its type setting one label, or one it cannot take. */
function patchRequest(
  cx: CaseContext,
  step: Extract<DryRunStep, { op: 'dryRunPatch' }>,
  path: string,
  query: readonly QueryPair[],
  ns: string,
): TargetRequest {
  const rt = resourceOf(cx, step.res);
  const apiVersion = rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
  switch (step.patch) {
    case 'merge':
      return {
        method: 'PATCH',
        path,
        query,
        headers: { 'content-type': 'application/merge-patch+json' },
        body: step.invalid ? '{"metadata": {"labels": ' : JSON.stringify({ metadata: { labels: { tier: step.value } } }),
      };
    case 'json':
      // Invalid: an object where RFC 6902 wants an array of operations.
      return {
        method: 'PATCH',
        path,
        query,
        headers: { 'content-type': 'application/json-patch+json' },
        body: step.invalid
          ? JSON.stringify({ op: 'add', path: '/metadata/labels/tier', value: step.value })
          : JSON.stringify([{ op: 'add', path: '/metadata/labels/tier', value: step.value }]),
      };
    case 'apply':
      return {
        method: 'PATCH',
        path,
        query: [...query, ['fieldManager', 'svc-conformance-dry-run'], ['force', 'true']],
        headers: { 'content-type': 'application/apply-patch+yaml' },
        // Invalid: YAML that does not parse (an unclosed flow sequence).
        body: step.invalid
          ? 'metadata:\n  labels: [tier\n'
          : JSON.stringify({
              apiVersion,
              kind: rt.kind,
              metadata: { name: step.name, namespace: ns, labels: { ...cx.ownLabels, tier: step.value } },
            }),
      };
  }
}

async function runPatch(cx: CaseContext, step: Extract<DryRunStep, { op: 'dryRunPatch' }>): Promise<void> {
  const rt = resourceOf(cx, step.res);
  const ns = await namespaceOf(cx, step.ns);
  const key = keyOf(ns, step.name);
  if (step.ensure && !current(cx.history(step.res)).objects.has(key))
    await runOp(cx, { op: 'create', res: step.res, ns: step.ns, name: step.name, content: { labels: {}, annotations: {}, data: {} } });
  const h = cx.history(step.res);
  if (h.tainted.has(key)) return;
  const before = current(h).objects.get(key);
  // A patch that changes nothing cannot show whether it was persisted: set a value the label lacks.
  const value =
    before?.content.labels['tier'] === step.value
      ? labelValues[(labelValues.indexOf(step.value as (typeof labelValues)[number]) + 1) % labelValues.length]!
      : step.value;
  step = { ...step, value };
  const exp = expectDryRunPatch(before?.content, step.patch, step.invalid, ['tier', step.value]);
  if (exp === undefined) return;
  const path = objectPath(rt, step.name, ns);
  const r = await cx.send(patchRequest(cx, step, path, [dryRunPair(step.form), ...(step.pretty ? [['pretty', 'true'] as const] : [])], ns));
  const obj = r.json !== undefined && (r.json as { kind?: unknown }).kind !== 'Status' ? readObject(rt, r.json) : undefined;
  cx.judge(judgeDryRunWrite(exp, step.form, r.status, obj, knownKeys(cx), `a ${step.patch} patch`, step.pretty, statusReasonOf(r.json)));
  if (r.status >= 300) return;
  const probe = await cx.send({ method: 'GET', path });
  const persisted = judgeDryRunPersistence(
    step.form,
    before,
    { status: probe.status, object: probe.status === 200 ? readObject(rt, probe.json) : undefined },
    knownKeys(cx),
  );
  cx.judge(persisted.judgements);
  if (persisted.unpredictable) cx.setHistory(step.res, taint(cx.history(step.res), key));
}

async function runBadBody(cx: CaseContext, step: Extract<DryRunStep, { op: 'dryRunBadBody' }>): Promise<void> {
  const rt = resourceOf(cx, step.res);
  const ns = await namespaceOf(cx, step.ns);
  const key = keyOf(ns, step.name);
  const h = cx.history(step.res);
  if (h.tainted.has(key)) return;
  const before = current(h).objects.get(key);
  // A PUT needs an object to replace; a POST of a name that exists would be refused anyway.
  if ((step.verb === 'update') !== (before !== undefined)) return;
  const path = step.verb === 'create' ? collectionPath(rt, ns) : objectPath(rt, step.name, ns);
  // A well-formed object (the guard reads its labels) whose annotations are not all strings (rest:2.3).
  const good = bodyFor(rt, step.name, ns, contentFor(cx, rt, { labels: {}, annotations: {}, data: {} }), before?.rv);
  const body = { ...good, metadata: { ...(good['metadata'] as Record<string, unknown>), annotations: { note: 5 } } };
  const r = await cx.send({ method: step.verb === 'create' ? 'POST' : 'PUT', path, query: [dryRunPair(step.form)], body });
  cx.judge(judgeDryRunAnswer(expectDryRunBadBody(step.verb), step.form, r.status, undefined, knownKeys(cx)));
  const probe = await cx.send({ method: 'GET', path: objectPath(rt, step.name, ns) });
  cx.judge([
    judgeNotPersisted(
      before,
      { status: probe.status, object: probe.status === 200 ? readObject(rt, probe.json) : undefined },
      knownKeys(cx),
    ),
  ]);
}

export async function runDryRunStep(cx: CaseContext, step: DryRunStep): Promise<void> {
  if (step.op === 'dryRunGenerate') return runGenerate(cx, step);
  if (step.op === 'dryRunBadBody') return runBadBody(cx, step);
  if (step.op === 'dryRunPatch') return runPatch(cx, step);
  if (step.op === 'dryRunDeleteNamespace') return runDeleteNamespace(cx);
  if (step.op !== 'dryRun' && step.op !== 'dryRunInvalid') return runOp(cx, step);
  const w = step.write;
  // rest:4.3: `pretty` is combinable with dryRun (the spec's own example is `?dryRun&pretty=true`).
  const query: QueryPair[] =
    step.op === 'dryRun' ? [dryRunPair(step.form), ...(step.pretty ? [['pretty', 'true'] as const] : [])] : [['dryRun', step.value]];
  const p = await prepare(cx, w, query, step.op === 'dryRun' && step.staleRv);
  if (!p) return;
  const rt = resourceOf(cx, w.res);
  const r = await cx.send(p.req);
  if (step.op === 'dryRunInvalid') return cx.judge(judgeInvalidDryRunWrite(step.value, r.status));
  const obj = r.json !== undefined && (r.json as { kind?: unknown }).kind !== 'Status' ? readObject(rt, r.json) : undefined;
  cx.judge(judgeDryRunWrite(p.exp, step.form, r.status, obj, knownKeys(cx), w.op, step.pretty, statusReasonOf(r.json)));
  if (r.status >= 300) return;

  // Nothing persisted: the key reads as the model had it before the dry-run.
  const ns = await namespaceOf(cx, w.ns);
  const key = keyOf(ns, w.name);
  const before = current(cx.history(w.res)).objects.get(key);
  const probe = await cx.send({ method: 'GET', path: objectPath(rt, w.name, ns) });
  const read = { status: probe.status, object: probe.status === 200 ? readObject(rt, probe.json) : undefined };
  const persisted = judgeDryRunPersistence(step.form, before, read, knownKeys(cx));
  cx.judge(persisted.judgements);
  // The flag form's persistence is open: it is recorded, and this key is no longer predicted if it changed.
  if (persisted.unpredictable) cx.setHistory(w.res, taint(cx.history(w.res), key));
}
