/**
 * What every REST step of the interpreter (rest-interpreter.ts, rest-reads.ts) shares: the resource
 * types and namespaces of the case, the body of an object, the resourceVersions it learns from an
 * answer, and a picked resourceVersion resolved to what it denotes.
 */
import { readObject, type Content, type ObjectVersion } from '../../reference/objects.ts';
import { collectionPath, objectPath, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { annotationPool, labelPool, type ContentSpec, type ResName, type RvPick } from '../../generators/ops.ts';
import type { TargetResponse } from '../transport/index.ts';
import { CASE_LABEL, judgeNamespaceCreated, type CaseContext } from '../case/index.ts';
import type { Lease } from '../case/index.ts';
import { CheckNotApplicable } from '../case/index.ts';

export const MAX_PAGES = 200;

/** Why a check that follows objects by their resourceVersions is not checked on a target that generates none. */
export const NO_RESOURCE_VERSION =
  'blocked: the target answered a write without metadata.resourceVersion, and this check follows objects by their versions (the absence is failed once, by generated-metadata)';

/** Why a check that refers to objects by uid is not checked on a target that generates none. */
export const NO_UID =
  'blocked: the target answered a create without metadata.uid, and this check refers to objects by uid (the absence is failed once, by generated-metadata)';

/** Why a check that creates and deletes namespaces of its own is not checked with `--namespace`. */
export const NEEDS_OWN_NAMESPACE =
  'creates and deletes namespaces of its own, and the run was given --namespace (the target does not let it create namespaces)';

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
  if (given && i >= cx.env.namespacePool!.givenCount)
    throw new CheckNotApplicable([], `a case needs ${i + 1} namespaces at once and --namespace named ${cx.env.namespacePool!.givenCount}`);
  while (cx.namespaces.length <= i) {
    const own = o.own === true && cx.namespaces.length === i;
    const pool = own ? undefined : cx.env.namespacePool;
    const lease: Lease = pool
      ? await pool.lease(cx.env.exchangeSink)
      : { name: cx.env.nextNamespace(), isNew: true, priorVersions: new Set() };
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
    const r = await cx.send({
      method: 'POST',
      path: collectionPath(rt),
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } },
    });
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
  const r = await cx.send({
    method: 'POST',
    path: collectionPath(rt),
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: cx.ownLabels } },
  });
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

export const is2xx = (s: number) => s >= 200 && s < 300;

export function noteRvs(cx: CaseContext, r: TargetResponse): void {
  const md = (r.json as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata;
  if (typeof md?.resourceVersion === 'string') cx.rvsSeen.add(md.resourceVersion);
}

export function versionOf(cx: CaseContext, rt: ResourceType, r: TargetResponse, content: Content): ObjectVersion {
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

/** Resolves a picked resourceVersion to the parameter to send and the snapshot it denotes. */
export function resolveRv(
  cx: CaseContext,
  res: ResName,
  pick: RvPick | undefined,
): { param: string | undefined; index: number | undefined } {
  if (!pick || pick.kind === 'unset') return { param: undefined, index: undefined };
  if (pick.kind === 'zero') return { param: '0', index: undefined };
  const learned = [...cx.history(res).rvIndex.entries()];
  if (learned.length === 0) return { param: undefined, index: undefined };
  const [rv, index] = learned[pick.pick % learned.length]!;
  return { param: rv, index };
}
