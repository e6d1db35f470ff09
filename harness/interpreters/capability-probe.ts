/**
 * The capability probe: before any check, a few bounded requests learn what the target
 * serves, in a namespace of the run's own: discovery, each verb, each patch type, generateName,
 * dry-run, paging, the delivery of a later write to a watch, the health and metrics endpoints,
 * protobuf and Table. About 25 requests and one watch wait. What each answer shows is decided by the
 * model (reference/features.ts); here the requests are sent and their answers kept.
 */
import type { Profile } from '../../reference/profile.ts';
import { tableMediaType } from '../../reference/media-types.ts';
import { crdResource, fixtureResource } from '../../reference/apply/index.ts';
import { collectionPath, objectPath } from '../../reference/resources.ts';
import {
  byStatus,
  capabilityMapOf,
  decideCrdServing,
  decideDiscovery,
  decideDryRun,
  decideEncoding,
  decideGenerateName,
  decidePaging,
  decideWatchDelivery,
  servedNeeds,
  type FeatureFinding,
  type FeatureState,
  type ProbeAnswer,
} from '../../reference/features.ts';
import type { AnswerNeed } from '../../reference/answer-checks.ts';
import { InfrastructureError, queryToString, type Exchange, type Target, type TargetRequest } from '../transport/index.ts';
import { JsonDocumentStream } from '../transport/index.ts';

/** Between watches the server ended before the probe's event came. */
const REOPEN_PAUSE_MS = 50;

/** Statuses that say the route is absent whether or not the object exists (a 404 may be the object's). */
const ROUTE_ABSENT: ReadonlySet<number> = new Set([405, 501]);

/**
 * The requests that showed a feature not served, in the order sent (the namespace and objects it needs
 * first), and what the deciding answer must be once the feature is served: a failure's counterexample
 * and reproducer are made of them (runner/probe-counterexample.ts).
 */
export interface ProbeReproduction {
  readonly server: string;
  readonly exchanges: readonly Exchange[];
  readonly needs: readonly AnswerNeed[];
}

/** A finding of the map, with its reproduction where the feature is not served. */
export interface ProbedFinding extends FeatureFinding {
  readonly reproduction?: ProbeReproduction;
}

export interface ProbeOptions {
  readonly profile: Profile;
  readonly runId: string;
  /** How long the watch may take to deliver the probe's write (the run's watch wait). */
  readonly watchWaitMs: number;
  /** How long a newly defined type may take to be served (the run's eventual window); absent: not asked. */
  readonly typeWaitMs?: number;
  /**
   * A namespace of the run's own that `target`'s guard saw created (the namespace-setup probe's): the
   * probe works and ends there instead of creating one more. Absent: it creates its own.
   */
  readonly namespace?: string;
}

/**
 * `target` is the run's guarded client (writes only in the probe's own namespace), `reader` the plain
 * one for paths outside any resource (health, metrics). Never throws for the target's answers: a step
 * that cannot be asked leaves its features `unknown`.
 */
export async function probeCapabilities(target: Target, reader: Target, o: ProbeOptions): Promise<ProbedFinding[]> {
  const ns = o.namespace ?? `svc-conformance-${o.runId}-capabilities`;
  const label = { [o.profile.runLabel]: o.runId };
  const p = probing(target.server);
  const discovery = await p.ask(reader, { method: 'GET', path: '/api/v1' });
  p.add(decideDiscovery(discovery, 'configmaps'), [discovery], { resource: 'configmaps' });
  for (const [feature, path] of [
    ['healthz', '/healthz'],
    ['livez', '/livez'],
    ['readyz', '/readyz'],
    ['metrics', '/metrics'],
  ] as const) {
    const got = await p.ask(reader, { method: 'GET', path });
    p.add(byStatus(feature, got), [got]);
  }

  const nsCreate: TargetRequest = {
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: label } },
  };
  // A namespace the setup probe made is still the first step of every reproduction: the script makes its own.
  const namespace = o.namespace === undefined ? await p.ask(target, nsCreate) : madeBefore(p.sent, nsCreate);
  if (namespace.status < 200 || namespace.status >= 300)
    return capabilityMapOf(p.found.concat(unaskedBecause(`${namespace.request} answered ${namespace.status}`)));
  try {
    await probeInNamespace(p, target, reader, o, { ns, label, namespace });
  } finally {
    // The run's sweep removes it too, by its label, should this fail.
    await p.ask(target, { method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
  }
  return capabilityMapOf(p.found);
}

/** The probe's requests and findings so far: each answer keeps the exchange a reproduction is made of. */
interface Probing {
  readonly sent: Map<ProbeAnswer, Exchange>;
  readonly found: ProbedFinding[];
  ask(t: Target, req: TargetRequest): Promise<ProbeAnswer>;
  /** `steps`: the answers the finding rests on, the deciding one last (its needs are read there). */
  add(f: FeatureFinding, steps?: readonly ProbeAnswer[], more?: { resource?: string; mediaType?: string }): void;
}

function probing(server: string): Probing {
  const sent = new Map<ProbeAnswer, Exchange>();
  const found: ProbedFinding[] = [];
  const ask = async (t: Target, req: TargetRequest): Promise<ProbeAnswer> => {
    const request = `${req.method} ${req.path}${queryToString(req.query)}`;
    const startedAtMs = Date.now();
    try {
      const r = await t.send(req);
      const a = { request, status: r.status, body: r.json, contentType: r.headers['content-type'] };
      sent.set(a, { seq: sent.size + 1, request: req, response: r, startedAtMs, durationMs: Date.now() - startedAtMs });
      return a;
    } catch (e) {
      if (e instanceof InfrastructureError) return { request, status: 0 };
      throw e;
    }
  };
  const add = (f: FeatureFinding, steps: readonly ProbeAnswer[] = [], more: { resource?: string; mediaType?: string } = {}): void => {
    const exchanges = steps.map((a) => sent.get(a));
    if (f.state !== 'notServed' || steps.length === 0 || exchanges.some((e) => e === undefined)) found.push(f);
    else
      found.push({
        ...f,
        reproduction: { server, exchanges: exchanges as Exchange[], needs: servedNeeds(f.feature, { request: steps.length - 1 }, more) },
      });
  };
  return { sent, found, ask, add };
}

/** Each verb, patch type, encoding, generateName, dry-run, watch delivery and custom type, in the probe's namespace. */
async function probeInNamespace(
  p: Probing,
  target: Target,
  reader: Target,
  o: ProbeOptions,
  where: { ns: string; label: Record<string, string>; namespace: ProbeAnswer },
): Promise<void> {
  const { ns, label, namespace } = where;
  const { ask, add } = p;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const cm = (name: string, data: Record<string, string> = { k: 'v' }) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: label },
    data,
  });
  const created = await ask(target, { method: 'POST', path: cms, body: cm('probe-a') });
  // A 404 may be the namespace's (a server that answered its create and kept nothing): not "no route".
  add(byStatus('create', created, ROUTE_ABSENT), [namespace, created]);
  if (created.status < 200 || created.status >= 300) return;
  // Three objects: a server that pages wrongly (limit+1 items and a token) is told from one that ignores limit.
  const createdB = await ask(target, { method: 'POST', path: cms, body: cm('probe-b') });
  await ask(target, { method: 'POST', path: cms, body: cm('probe-c') });
  const got = await ask(target, { method: 'GET', path: `${cms}/probe-a` });
  add(byStatus('get', got, ROUTE_ABSENT), [namespace, created, got]);
  // A 404 says "no such route" only of an object known to exist; otherwise the object may be missing.
  const onObject = got.status === 200 ? undefined : ROUTE_ABSENT;
  const listed = await ask(target, { method: 'GET', path: cms });
  add(byStatus('list', listed, ROUTE_ABSENT), [namespace, created, listed]);
  add(decidePaging(await ask(target, { method: 'GET', path: cms, query: [['limit', '1']] }), 3));
  const protobuf = await ask(reader, { method: 'GET', path: `${cms}/probe-b`, headers: { accept: o.profile.protobufMediaType } });
  add(
    decideEncoding('protobuf', protobuf, (ct) => (ct?.startsWith(o.profile.protobufMediaType) === true ? 'served' : 'notServed')),
    [namespace, createdB, protobuf],
    { mediaType: o.profile.protobufMediaType },
  );
  add(
    decideEncoding(
      'table',
      await ask(reader, { method: 'GET', path: `${cms}/probe-b`, headers: { accept: tableMediaType(o.profile) } }),
      tableState,
    ),
  );

  const put = await ask(target, { method: 'PUT', path: `${cms}/probe-a`, body: cm('probe-a', { k: 'put' }) });
  add(byStatus('put', put, onObject), [namespace, created, put]);
  const patch = (type: string, body: unknown, query: TargetRequest['query'] = []) =>
    ask(target, { method: 'PATCH', path: `${cms}/probe-a`, query, headers: { 'content-type': type }, body });
  const merge = await patch('application/merge-patch+json', { data: { merge: 'yes' } });
  add(byStatus('patch-merge', merge, onObject), [namespace, created, merge]);
  const json = await patch('application/json-patch+json', [{ op: 'add', path: '/data/json', value: 'yes' }]);
  add(byStatus('patch-json', json, onObject), [namespace, created, json]);
  const apply = await patch(
    'application/apply-patch+yaml',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe-a' }, data: { applied: 'yes' } },
    [['fieldManager', 'svc-conformance-probe']],
  );
  add(byStatus('apply', apply), [namespace, created, apply]);

  const prefix = 'probe-g-';
  const generated = await ask(target, {
    method: 'POST',
    path: cms,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: prefix, labels: label } },
  });
  add(decideGenerateName(generated, prefix), [namespace, generated]);

  const dry = await ask(target, { method: 'POST', path: cms, query: [['dryRun', 'All']], body: cm('probe-dry') });
  const after = dry.status >= 200 && dry.status < 300 ? await ask(target, { method: 'GET', path: `${cms}/probe-dry` }) : undefined;
  add(decideDryRun(dry, after === undefined ? undefined : after.status === 200), [namespace, dry]);

  // From the version of now, so that only the probe's own writes are owed; two of them, so that a
  // stream that holds one event back until the next, or drops every third, still shows delivery.
  const now = await ask(target, { method: 'GET', path: cms });
  add(await probeWatch(target, cms, now, [cm('probe-w1'), cm('probe-w2')], o.watchWaitMs));
  const deleted = await ask(target, { method: 'DELETE', path: `${cms}/probe-b` });
  add(byStatus('delete', deleted, onObject), [namespace, createdB, deleted]);
  if (o.typeWaitMs !== undefined) add(await probeCustomType(target, ns, o));
}

/**
 * Defines a type of the run's own fixture group (a CustomResourceDefinition labelled for the run, not
 * the apply suite's own fixture) and waits, once for the whole run, until its collection is served.
 * The definition is deleted after; the run's cleanup removes it too.
 */
async function probeCustomType(target: Target, ns: string, o: ProbeOptions): Promise<FeatureFinding> {
  const crd = crdResource(o.profile);
  const group = fixtureResource(o.profile, o.runId).group;
  const rt = { plural: 'capabilityprobes', kind: 'CapabilityProbe', group, version: 'v1', namespaced: true };
  const name = `${rt.plural}.${group}`;
  const body = {
    apiVersion: `${crd.group}/${crd.version}`,
    kind: crd.kind,
    metadata: { name, labels: { [o.profile.runLabel]: o.runId } },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: rt.plural, singular: 'capabilityprobe', kind: rt.kind, listKind: `${rt.kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
  const request = `POST ${collectionPath(crd)}`;
  const bound = o.typeWaitMs!;
  let created: ProbeAnswer;
  try {
    const r = await target.send({ method: 'POST', path: collectionPath(crd), body });
    created = { request, status: r.status };
  } catch (e) {
    if (!(e instanceof InfrastructureError)) throw e;
    return decideCrdServing({ request, status: 0 }, false, bound, `${rt.plural}.${group}`);
  }
  if (created.status < 200 || created.status >= 300) return decideCrdServing(created, false, bound, `${rt.plural}.${group}`);
  let served = false;
  try {
    const deadline = Date.now() + bound;
    for (let wait = 50; !served; wait = Math.min(wait * 2, 1000)) {
      served = await target
        .send({ method: 'GET', path: collectionPath(rt, ns) })
        .then((r) => r.status === 200)
        .catch(() => false);
      if (served || Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadline - Date.now()))));
    }
  } finally {
    await target.send({ method: 'DELETE', path: objectPath(crd, name) }).catch(() => undefined);
  }
  return decideCrdServing(created, served, bound, `${rt.plural}.${group}`);
}

/** A Table is served as one; another answer claiming Table (as=Table in its type) is served wrongly; a plain list is the fallback. */
function tableState(contentType: string | undefined, body: unknown): FeatureState {
  if ((body as { kind?: unknown } | undefined)?.kind === 'Table') return 'served';
  return /as=Table/i.test(contentType ?? '') ? 'servedWrongly' : 'notServed';
}

function unaskedBecause(why: string): FeatureFinding[] {
  const features = [
    'create',
    'get',
    'list',
    'put',
    'delete',
    'patch-merge',
    'patch-json',
    'apply',
    'generate-name',
    'dry-run',
    'paging',
    'watch-delivery',
    'protobuf',
    'table',
    'crd-serving',
  ] as const;
  return features.map((feature) => ({
    feature,
    state: 'unknown' as const,
    evidence: `not asked: the probe's namespace could not be created (${why})`,
  }));
}

/**
 * Opens a watch at the list's version, writes one object, and waits (bounded) for its event. A stream
 * the server ends early (as upstream ends each at its request timeout) is opened again from the same
 * version, as a client does: the event is still owed to it.
 */
async function probeWatch(
  target: Target,
  cms: string,
  listed: ProbeAnswer,
  objects: readonly { metadata: { name: string } }[],
  boundMs: number,
): Promise<FeatureFinding> {
  const rv = (listed.body as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  const query: [string, string][] = [
    ['watch', '1'],
    ...(typeof rv === 'string' && rv !== '' ? ([['resourceVersion', rv]] as [string, string][]) : []),
  ];
  const request = `GET ${cms}${queryToString(query)}`;
  const names = new Set(objects.map((o) => o.metadata.name));
  const name = [...names].join(' or ');
  const open = target.openStream?.bind(target);
  if (open === undefined) return decideWatchDelivery(undefined, false, boundMs, name);
  const deadline = Date.now() + boundMs;
  let opened: ProbeAnswer | undefined;
  let written = false;
  let delivered = false;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
  try {
    while (!delivered && Date.now() < deadline) {
      let stream;
      try {
        stream = await open({ method: 'GET', path: cms, query, stream: true });
      } catch (e) {
        if (e instanceof InfrastructureError) return decideWatchDelivery(opened ?? { request, status: 0 }, false, boundMs, name);
        throw e;
      }
      opened ??= { request, status: stream.status };
      if (stream.status < 200 || stream.status >= 300) {
        stream.close();
        return decideWatchDelivery({ request, status: stream.status }, false, boundMs, name);
      }
      const docs = new JsonDocumentStream();
      const reading = (async () => {
        for await (const chunk of stream.chunks) {
          for (const doc of docs.push(chunk)) {
            const got = (doc as { object?: { metadata?: { name?: unknown } } }).object?.metadata?.name;
            if (typeof got === 'string' && names.has(got)) return (delivered = true);
          }
        }
        return false;
      })().catch(() => false);
      if (!written) {
        written = true;
        for (const body of objects) await target.send({ method: 'POST', path: cms, body }).catch(() => undefined);
      }
      await Promise.race([reading, bound]);
      stream.close();
      // A stream that ends at once is not reopened in a tight loop.
      if (!delivered) await Promise.race([new Promise((resolve) => setTimeout(resolve, REOPEN_PAUSE_MS)), bound]);
    }
  } finally {
    clearTimeout(timer);
  }
  return decideWatchDelivery(opened, delivered, boundMs, name);
}

/** The namespace's creation as the setup probe sent it, recorded as the probe's first step. */
function madeBefore(sent: Map<ProbeAnswer, Exchange>, req: TargetRequest): ProbeAnswer {
  const a: ProbeAnswer = { request: `${req.method} ${req.path}`, status: 201 };
  const response = { status: 201, headers: {}, bodyText: '', json: undefined };
  sent.set(a, { seq: sent.size + 1, request: req, response, startedAtMs: Date.now(), durationMs: 0 });
  return a;
}
