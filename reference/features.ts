/**
 * The capability map's features: what a target may serve or leave out, each with the one
 * clause that speaks of it, and whether the spec requires it. A required feature a target does not
 * serve is one failure of that clause ("not served: PUT", rest:4.1/put), reported once; a feature the
 * spec lets a server leave out (chunking with its gate off, rest:4.4.5; Table, rest:2.5.2) is
 * `notServed`, never a failure. Either way the clauses that need it are `blocked by` it, not judged.
 *
 * Pure: the probe (harness/interpreters/capability-probe.ts) sends the requests and hands their answers here as
 * `ProbeAnswer`s; `decideFeature` says what each shows.
 */
import type { ClauseId } from './catalog/clause-ids.ts';
import type { AnswerAt, AnswerNeed, AnswerTest } from './answer-checks.ts';

export const FEATURE_IDS = [
  'discovery',
  'create',
  'get',
  'list',
  'put',
  'patch-merge',
  'patch-json',
  'apply',
  'delete',
  'generate-name',
  'dry-run',
  'paging',
  'watch-delivery',
  'healthz',
  'livez',
  'readyz',
  'metrics',
  'protobuf',
  'table',
  'crd-serving',
] as const;
export type FeatureId = (typeof FEATURE_IDS)[number];

export interface Feature {
  readonly id: FeatureId;
  /** The report groups the map by area. */
  readonly area: string;
  /** How the report names it: "not served: PUT of an object". */
  readonly title: string;
  /** The clause that requires it, or that lets a server leave it out. */
  readonly clause: ClauseId;
  /** The spec requires it: not served is a failure of `clause` (unless `unbounded`). */
  readonly required: boolean;
  /**
   * The spec requires it but bounds it in no time (a watch's events, rest:6.1): a probe that saw nothing
   * within its bound cannot fail the clause (docs/architecture.md "Verdicts beyond pass and fail": an eventual effect not seen is never a failure),
   * so the finding is `notServed` and the clauses that need it are still blocked.
   */
  readonly unbounded?: true;
}

/** Whether a feature found not served fails its clause, or is recorded `notServed`. */
export const failsWhenNotServed = (f: Feature): boolean => f.required && f.unbounded !== true;

export const FEATURES: readonly Feature[] = [
  {
    id: 'discovery',
    area: 'discovery',
    title: 'discovery of the core group (GET /api/v1 listing configmaps)',
    clause: 'rest:9.1.1',
    required: true,
  },
  { id: 'create', area: 'verbs', title: 'create (POST to a collection)', clause: 'rest:4.1/post', required: true },
  { id: 'get', area: 'verbs', title: 'get (GET of an object)', clause: 'rest:4.1/get-namespaced-object', required: true },
  { id: 'list', area: 'verbs', title: 'list (GET of a collection)', clause: 'rest:4.1/get-namespaced-collection', required: true },
  { id: 'put', area: 'verbs', title: 'PUT of an object', clause: 'rest:4.1/put', required: true },
  { id: 'delete', area: 'verbs', title: 'delete (DELETE of an object)', clause: 'rest:4.1/delete', required: true },
  {
    id: 'patch-merge',
    area: 'patch types',
    title: 'merge patch (application/merge-patch+json)',
    clause: 'rest:4.1/patch-type/merge',
    required: true,
  },
  {
    id: 'patch-json',
    area: 'patch types',
    title: 'JSON patch (application/json-patch+json)',
    clause: 'rest:4.1/patch-type/json',
    required: true,
  },
  {
    id: 'apply',
    area: 'patch types',
    title: 'server-side apply (application/apply-patch+yaml)',
    clause: 'rest:4.1/patch-type/apply',
    required: true,
  },
  {
    id: 'generate-name',
    area: 'names',
    title: 'generateName (the server completes a name)',
    clause: 'rest:2.3/metadata.name',
    required: true,
  },
  { id: 'dry-run', area: 'dry-run', title: 'dry-run (dryRun=All)', clause: 'rest:4.6.1', required: true },
  // rest:4.4.5: chunking is available unless the APIListChunking gate is off: a server may leave it out.
  { id: 'paging', area: 'lists', title: 'paging (limit and continue)', clause: 'rest:4.4.5', required: false },
  { id: 'watch-delivery', area: 'watch', title: 'watch delivery of a later write', clause: 'rest:6.1.1', required: true, unbounded: true },
  { id: 'healthz', area: 'health and metrics', title: 'GET /healthz', clause: 'rest:4.2/healthz', required: true },
  { id: 'livez', area: 'health and metrics', title: 'GET /livez', clause: 'rest:4.2/livez', required: true },
  { id: 'readyz', area: 'health and metrics', title: 'GET /readyz', clause: 'rest:4.2/readyz', required: true },
  { id: 'metrics', area: 'health and metrics', title: 'GET /metrics', clause: 'rest:4.2.4', required: true },
  { id: 'protobuf', area: 'encodings', title: 'protobuf responses for a built-in type', clause: 'rest:4.8/protobuf', required: true },
  // rest:2.5.2: not every type supports Table output.
  { id: 'table', area: 'encodings', title: 'Table responses (as=Table)', clause: 'rest:4.8/table', required: false },
  // The spec speaks of custom resources (rest:4.7.9) but requires no server to serve definitions, and a
  // new type is served "eventually", with no bound: not served within the run's window blocks, never fails.
  {
    id: 'crd-serving',
    area: 'custom resources',
    title: 'a type defined by a CustomResourceDefinition served',
    clause: 'rest:4.7.9',
    required: false,
  },
];

export function featureById(id: FeatureId): Feature {
  return FEATURES.find((f) => f.id === id)!;
}

/**
 * served: the target does it; notServed: it answers as a server without the feature (404, 405, 415 or
 * 501 where the spec defines the request, a missing discovery entry, a watch silent within the bound);
 * servedWrongly: it answers, but not as the spec says (the checks judge how); unknown: the probe could
 * not ask (a step before it failed).
 */
export type FeatureState = 'served' | 'notServed' | 'servedWrongly' | 'unknown';

export interface FeatureFinding {
  readonly feature: FeatureId;
  readonly state: FeatureState;
  /** One line: the request and what it got ("PUT /api/v1/namespaces/x/configmaps/a answered 405"). */
  readonly evidence: string;
}

/** What one probe request got: its line for the report and the parts the decisions read. */
export interface ProbeAnswer {
  /** "PUT /api/v1/namespaces/x/configmaps/a". */
  readonly request: string;
  /** 0: no answer (transport failure, or the probe's bound ran out). */
  readonly status: number;
  readonly body?: unknown;
  readonly contentType?: string;
}

/** Statuses that say "this server has no such thing" for a request the spec defines. */
const ABSENT = new Set([404, 405, 415, 501]);

const line = (a: ProbeAnswer, more = ''): string => `${a.request} ${a.status === 0 ? 'got no answer' : `answered ${a.status}`}${more}`;

/** A request the spec defines, answered: 2xx served, an "absent" status not served, anything else wrong. */
export function byStatus(feature: FeatureId, a: ProbeAnswer | undefined, absent: ReadonlySet<number> = ABSENT): FeatureFinding {
  if (a === undefined) return { feature, state: 'unknown', evidence: 'not asked: a step before it failed' };
  if (a.status === 0) return { feature, state: 'unknown', evidence: line(a) };
  if (a.status >= 200 && a.status < 300) return { feature, state: 'served', evidence: line(a) };
  if (absent.has(a.status)) return { feature, state: 'notServed', evidence: line(a) };
  return { feature, state: 'servedWrongly', evidence: line(a) };
}

const metadataOf = (body: unknown): Record<string, unknown> => {
  const md = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['metadata'] : undefined;
  return typeof md === 'object' && md !== null ? (md as Record<string, unknown>) : {};
};

/**
 * A create that names only a generateName prefix: a name starting with it is served; refused as if
 * no name were given (400, 422), or a route the server lacks, is not served; stored under another
 * name is served wrongly.
 */
export function decideGenerateName(a: ProbeAnswer | undefined, prefix: string): FeatureFinding {
  const f = byStatus('generate-name', a, new Set([...ABSENT, 400, 422]));
  if (f.state !== 'served') return f;
  const name = metadataOf(a!.body)['name'];
  if (typeof name === 'string' && name.startsWith(prefix) && name.length > prefix.length)
    return { ...f, evidence: line(a!, ` with name ${name}`) };
  return {
    feature: 'generate-name',
    state: 'servedWrongly',
    evidence: line(a!, ` with name ${JSON.stringify(name)}, not one completed from ${prefix}`),
  };
}

/**
 * A dry-run create: rest:4.6.1 defines `dryRun=All`, so a 400 refusing it says the feature is off (as
 * upstream answered with its gate off). A 2xx is served here; whether it stored anything is the
 * dry-run checks' to judge (a stored dry-run is a bug, not an absent feature): `stored` says so early.
 */
export function decideDryRun(a: ProbeAnswer | undefined, stored: boolean | undefined): FeatureFinding {
  const f = byStatus('dry-run', a, new Set([...ABSENT, 400]));
  if (f.state === 'served' && stored === true)
    return { ...f, state: 'servedWrongly', evidence: `${f.evidence}, and the object was stored` };
  return f;
}

/**
 * A list with limit=1 over a namespace holding `present` (at least 3) objects: at most one item and a
 * continue token is served; every item without a token is a server that ignores limit (not served,
 * rest:4.4.5); anything else is served wrongly.
 */
export function decidePaging(a: ProbeAnswer | undefined, present: number): FeatureFinding {
  const f = byStatus('paging', a);
  if (f.state !== 'served') return f;
  const items = (a!.body as { items?: unknown } | undefined)?.items;
  const count = Array.isArray(items) ? items.length : undefined;
  const cont = metadataOf(a!.body)['continue'];
  const token = typeof cont === 'string' && cont !== '';
  if (count !== undefined && count <= 1 && token) return f;
  if (count !== undefined && count >= present && !token)
    return {
      feature: 'paging',
      state: 'notServed',
      evidence: line(a!, ` with all ${count} items and no continue token: limit is ignored`),
    };
  return {
    feature: 'paging',
    state: 'servedWrongly',
    evidence: line(a!, ` with ${count ?? 'no'} items and ${token ? 'a' : 'no'} continue token for limit=1 over ${present} objects`),
  };
}

/**
 * A watch opened before a write: the write's event within the bound is served; an open stream that
 * stays silent, or a watch route the server lacks, is not served.
 */
export function decideWatchDelivery(opened: ProbeAnswer | undefined, delivered: boolean, boundMs: number, name: string): FeatureFinding {
  const f = byStatus('watch-delivery', opened);
  if (f.state !== 'served') return f;
  if (delivered) return { ...f, evidence: `${f.evidence}; the event of ${name}, created after it opened, came` };
  return {
    feature: 'watch-delivery',
    state: 'notServed',
    evidence: `${f.evidence}; no event of ${name}, created after it opened, came within ${boundMs} ms`,
  };
}

/** A discovery document of the core group: served when it lists `resource`. */
export function decideDiscovery(a: ProbeAnswer | undefined, resource: string): FeatureFinding {
  const f = byStatus('discovery', a);
  if (f.state !== 'served') return f;
  const resources = (a!.body as { resources?: unknown } | undefined)?.resources;
  const listed =
    Array.isArray(resources) && resources.some((r) => typeof r === 'object' && r !== null && (r as { name?: unknown }).name === resource);
  return listed ? f : { feature: 'discovery', state: 'notServed', evidence: line(a!, ` without ${resource} in its resources`) };
}

/**
 * A read asking for one representation only: `judge` says whether the answer is in it (served), is
 * another representation (not served: the fallback of a server without it), or claims it and is not
 * (served wrongly). 406, or a route the server lacks, is not served.
 */
export function decideEncoding(
  feature: 'protobuf' | 'table',
  a: ProbeAnswer | undefined,
  judge: (contentType: string | undefined, body: unknown) => FeatureState,
): FeatureFinding {
  const f = byStatus(feature, a, new Set([...ABSENT, 406]));
  if (f.state !== 'served') return f;
  const state = judge(a!.contentType, a!.body);
  return state === 'served'
    ? f
    : {
        feature,
        state,
        evidence: line(a!, ` in ${a!.contentType ?? 'no declared type'}${state === 'notServed' ? ': another representation' : ''}`),
      };
}

/**
 * A CustomResourceDefinition created: its type's collection answered 200 within the bound is served;
 * a definition the target stores but whose type it never serves within the bound is not served; a
 * definition refused as a route the target lacks is not served either.
 */
export function decideCrdServing(created: ProbeAnswer | undefined, served: boolean, boundMs: number, type: string): FeatureFinding {
  const f = byStatus('crd-serving', created);
  if (f.state !== 'served') return f;
  if (served) return { ...f, evidence: `${f.evidence}; ${type} served` };
  return { feature: 'crd-serving', state: 'notServed', evidence: `${f.evidence}; ${type} not served within ${boundMs} ms` };
}

/** The map's features in catalog order, one finding each (`unknown` where the probe said nothing). */
export function capabilityMapOf<F extends FeatureFinding>(found: readonly F[]): (F | FeatureFinding)[] {
  return FEATURES.map((f) => found.find((x) => x.feature === f.id) ?? { feature: f.id, state: 'unknown', evidence: 'not probed' });
}

/** The features a map says are not served. */
export const notServedOf = (map: readonly FeatureFinding[]): FeatureId[] =>
  map.filter((f) => f.state === 'notServed').map((f) => f.feature);

/**
 * What the answer to a feature's deciding request must be for the feature to be served, as data a
 * reproducer checks (reference/answer-checks.ts): the script of a "not served" finding exits 1 while
 * the target still answers as a server without it, 0 once it serves it. `at` is that request.
 * `resource`: the resource discovery must list; `mediaType`: the representation an encoding must have.
 */
export function servedNeeds(
  feature: FeatureId,
  at: AnswerAt,
  o: { readonly resource?: string; readonly mediaType?: string } = {},
): AnswerNeed[] {
  const title = featureById(feature).title;
  const ok2xx: AnswerTest = { kind: 'statusClass', at, cls: 2 };
  if (feature === 'discovery')
    return [
      {
        says: `the discovery document lists ${o.resource ?? 'the resource'}`,
        test: { kind: 'includes', at, path: ['resources'], where: ['name'], equals: o.resource ?? '' },
      },
    ];
  if (feature === 'generate-name')
    return [
      {
        says: 'a create naming only generateName is answered 2xx with a name completed by the server',
        test: { kind: 'allOf', tests: [ok2xx, { kind: 'value', at, path: ['metadata', 'name'], present: true }] },
      },
    ];
  if ((feature === 'protobuf' || feature === 'table') && o.mediaType !== undefined)
    return [{ says: `${title}: answered 2xx in ${o.mediaType}`, test: { kind: 'contentType', at, ranges: [o.mediaType] } }];
  return [{ says: `${title}: answered 2xx`, test: ok2xx }];
}
