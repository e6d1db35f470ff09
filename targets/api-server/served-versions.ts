/**
 * Group versions beyond the core ones, served according to the server's release and its
 * `--runtime-config` (rest:9.1.3, rest:9.4): a few deprecated versions from the removal table beside
 * their replacements, sharing storage with them (objects stay reachable through the new version), with
 * the deprecation signals of rest:9.3 on every request to a deprecated one; and events/v1 with the
 * create rules of rest:6.2.
 */
import { namedGroup, type Profile } from '../../reference/profile.ts';
import { apiVersionOf, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { parseRelease } from '../../reference/versioning/release.ts';
import { parseRuntimeConfig, runtimeConfigDecision } from '../../reference/versioning/runtime-config.ts';
import { groupName, removals, removalsFor, servedIn } from '../../reference/versioning/removals.ts';
import { deprecatedGaugeLabels, deprecationWarningText, formatWarning } from '../../reference/versioning/deprecation-signals.ts';
import { validateEventV1Create } from '../../reference/events-v1.ts';
import { isRecord } from '../../reference/objects.ts';
import { comparePreference, parseVersion, stabilityOf } from '../../reference/versioning/stability.ts';
import type { Route } from './router.ts';
import { has, type ServerState } from './state.ts';
import { invalid, type Answer } from './status.ts';
import { recordDeprecatedRequest, recordRequest } from './metrics.ts';
import { DISCOVERY_VERBS } from './custom-discovery.ts';
import { isReview, REVIEW_VERBS } from './reviews.ts';
import { attachVersioning, serverRelease, versioningOf, type Versioning } from './server-versioning.ts';
import { kubectlNames } from './hosted-types.ts';
import { eventRuleSkipped, keptRow } from './fault-families.ts';

export interface VersioningOptions {
  /** The release the server claims (`/version`), default v1.24 (rest:1.9). */
  readonly release?: string;
  /** `--runtime-config` text (rest:9.1.3). */
  readonly runtimeConfig?: string;
}

/** Bad options are a configuration error with one clear line (thrown before the server starts). */
export function parseVersioningOptions(o: VersioningOptions): Versioning {
  const release = parseRelease(o.release ?? '1.24');
  if (!release) throw new RangeError(`release ${JSON.stringify(o.release)} is not a release like 1.24`);
  const rc = parseRuntimeConfig(o.runtimeConfig ?? '');
  if (!rc.ok) throw new RangeError(`--runtime-config: ${rc.errors.join('; ')}`);
  return { release, runtimeConfig: rc.entries };
}

export { attachVersioning, serverRelease };

// Scope of the table's resources (not in the spec's table; as upstream).
const CLUSTER_SCOPED = new Set([
  'storageversions',
  'csidrivers',
  'csinodes',
  'storageclasses',
  'volumeattachments',
  'podsecuritypolicies',
  'runtimeclasses',
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'customresourcedefinitions',
  'apiservices',
  'tokenreviews',
  'subjectaccessreviews',
  'selfsubjectaccessreviews',
  'certificatesigningrequests',
  'ingressclasses',
  'clusterroles',
  'clusterrolebindings',
  'priorityclasses',
  'flowschemas',
  'prioritylevelconfigurations',
]);

/**
 * Every extra type the reference server can serve, before release and runtime-config decide: each
 * row of the removal table and its replacement, except what the core router already serves.
 */
export function extraResourceTypes(profile: Profile): readonly ResourceType[] {
  // A pure function of the profile, and routing asks for it on every request.
  const known = extraTypesByProfile.get(profile);
  if (known) return known;
  const core = Object.values(resourceTypes(profile)) as ResourceType[];
  const out = new Map<string, ResourceType>();
  const add = (group: string, version: string, plural: string, kind: string) => {
    if (core.some((c) => c.group === group && c.version === version && c.plural === plural)) return;
    out.set(`${group}/${version}/${plural}`, { plural, kind, group, version, namespaced: !CLUSTER_SCOPED.has(plural) });
  };
  for (const r of removals) {
    add(groupName(profile, r.group), r.version, r.resource, r.kind);
    if (r.replacement) add(groupName(profile, r.replacement.group), r.replacement.version, r.resource, r.kind);
  }
  // An alpha group version, off by default (rest:9.2): `--runtime-config` turns it on.
  add(namedGroup(profile, 'internal.apiserver'), 'v1alpha1', 'storageversions', 'StorageVersion');
  const types = Object.freeze([...out.values()].map((t) => Object.freeze(t)));
  extraTypesByProfile.set(profile, types);
  return types;
}
const extraTypesByProfile = new WeakMap<Profile, readonly ResourceType[]>();

/** Planted fault removed-version-served/<row> (fault-families.ts): that row's type is served anyway. */
function servedAfterRemoval(st: ServerState, t: ResourceType): boolean {
  for (const f of st.faults) {
    const row = keptRow(f);
    if (row === undefined) continue;
    const r = removals.find((x) => x.clause === row);
    if (r && groupName(st.profile, r.group) === t.group && r.version === t.version && r.resource === t.plural) return true;
  }
  return false;
}

/** Served in the server's release (or anyway, with the removed-version-served faults) and enabled. */
export function isServed(st: ServerState, t: ResourceType): boolean {
  const v = versioningOf(st);
  const removed = servedIn(st.profile, t.group, t.version, t.plural, v.release) === 'removed';
  if (removed && !(has(st, 'removed-version-served') && t.kind === 'Lease' && t.version === 'v1beta1') && !servedAfterRemoval(st, t))
    return false;
  return runtimeConfigDecision(v.runtimeConfig, t.group, t.version, t.plural, stabilityOf(t.version) !== 'alpha');
}

export const servedExtras = (st: ServerState): ResourceType[] => extraResourceTypes(st.profile).filter((t) => isServed(st, t));

/**
 * A route for an extra type's path; `none` for a known extra group version that is not served;
 * undefined for every other path (the core router decides).
 */
export function routeServed(st: ServerState, pathname: string): Route | undefined {
  const r = routeType(st, pathname);
  if (r === undefined || r.kind === 'none' || !has(st, 'replacement-loses-objects')) return r;
  // The planted bug: each deprecated version keeps its own storage, so its objects are not
  // reachable through the replacement (rest:9.4/persisted-objects).
  const deprecated = servedIn(st.profile, r.rt.group, r.rt.version, r.rt.plural, versioningOf(st).release) === 'deprecated';
  return deprecated ? { ...r, rt: { ...r.rt, plural: `${r.rt.plural}.${r.rt.version}` } } : r;
}

/** The extra types by `group/version` (routing looks them up twice per request). */
function extraTypesOf(profile: Profile): ReadonlyMap<string, readonly ResourceType[]> {
  let m = extraByGroupVersion.get(profile);
  if (m === undefined) {
    const built = new Map<string, ResourceType[]>();
    for (const t of extraResourceTypes(profile)) {
      const k = `${t.group}/${t.version}`;
      const list = built.get(k);
      if (list) list.push(t);
      else built.set(k, [t]);
    }
    extraByGroupVersion.set(profile, (m = built));
  }
  return m;
}
const extraByGroupVersion = new WeakMap<Profile, ReadonlyMap<string, readonly ResourceType[]>>();

function routeType(st: ServerState, pathname: string): Route | undefined {
  // Most requests are for the core group (/api/v1/...): no extra type can match.
  if (!pathname.startsWith('/apis/') && !pathname.startsWith('//')) return undefined;
  const segs = pathname.split('/').filter((s) => s !== '');
  if (segs[0] !== 'apis' || segs.length < 4) return undefined;
  const [, group, version, ...rest] = segs;
  const all = extraTypesOf(st.profile).get(`${group}/${version}`) ?? [];
  if (all.length === 0) return undefined;
  const plural = rest[0] === 'namespaces' ? rest[2] : rest[0];
  const t = all.find((x) => x.plural === plural);
  if (!t || !isServed(st, t)) return { kind: 'none' };
  if (rest[0] === 'namespaces' && t.namespaced && rest.length === 3) return { kind: 'collection', rt: t, namespace: rest[1] };
  if (rest[0] === 'namespaces' && t.namespaced && rest.length === 4) return { kind: 'object', rt: t, namespace: rest[1], name: rest[3]! };
  if (rest.length === 1) return { kind: 'collection', rt: t, namespace: undefined };
  if (rest.length === 2 && !t.namespaced) return { kind: 'object', rt: t, namespace: undefined, name: rest[1]! };
  return { kind: 'none' };
}

const VERB: Readonly<Record<string, string>> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/**
 * After the answer: the Warning header and the gauge for a deprecated version (rest:9.3, rest:7.4),
 * and the request counter for every served extra type.
 */
export function decorateServed(st: ServerState, method: string | undefined, url: URL, answer: Answer): Answer {
  const r = routeType(st, url.pathname);
  if (r === undefined || r.kind === 'none') return answer;
  const t = r.rt;
  recordRequest(st, {
    verb: VERB[method ?? ''] ?? 'unknown',
    group: t.group,
    version: t.version,
    resource: t.plural,
    code: String(answer.status),
  });
  // The planted bug: a conversion layer that serves events/v1 with the core Event's field names.
  const body = answer.body;
  if (has(st, 'events-v1-legacy-names') && t.kind === 'Event' && t.version === 'v1' && isRecord(body) && body['kind'] === 'Event') {
    const { regarding, ...rest } = body;
    answer = { ...answer, body: { ...rest, involvedObject: regarding } };
  }
  if (servedIn(st.profile, t.group, t.version, t.plural, versioningOf(st).release) !== 'deprecated') return answer;
  const row = removalsFor(st.profile, t.group, t.version, t.plural)[0]!;
  recordDeprecatedRequest(st, deprecatedGaugeLabels(st.profile, row));
  // The planted bug: a deprecation table keyed by suffixed group names only.
  if (has(st, 'deprecation-warning-missing') && !row.group.suffixed) return answer;
  // The planted bug deprecated-for-alpha: the warning sends clients to an alpha version (rest:9.3 rule 3).
  const told =
    has(st, 'deprecated-for-alpha') && row.replacement ? { ...row, replacement: { ...row.replacement, version: 'v1alpha1' } } : row;
  return { ...answer, headers: { ...(answer.headers ?? {}), warning: formatWarning(deprecationWarningText(st.profile, told)) } };
}

/**
 * The body a write through an extra type stores. Correct: as sent (one storage for every version, so
 * nothing is lost between them: rest:9.3 rule 2). The planted bug conversion-drops-field: writes
 * through a deprecated version lose spec.maxUnavailable, as a conversion missing one field would.
 */
export function convertServedWrite(st: ServerState, t: ResourceType, body: unknown): unknown {
  if (!has(st, 'conversion-drops-field') || !isRecord(body) || !isRecord(body['spec'])) return body;
  if (servedIn(st.profile, t.group, t.version, t.plural, versioningOf(st).release) !== 'deprecated') return body;
  const { maxUnavailable: _dropped, ...spec } = body['spec'];
  return { ...body, spec };
}

/** rest:6.2: a create on events/v1 that breaks the table is refused (422 Invalid, as upstream). */
export function validateServedCreate(st: ServerState, t: ResourceType, body: unknown): Answer | undefined {
  // The core group's Event (hosted-types.ts) keeps its legacy fields; rest:6.2 is about the events group.
  if (t.kind !== 'Event' || t.version !== 'v1' || t.group === '') return undefined;
  const errors = validateEventV1Create(body).filter(
    (e) => !(has(st, 'events-deprecated-fields-accepted') && e.clause === 'rest:6.2/deprecated-fields') && !eventRuleSkipped(st, e.clause),
  );
  return errors.length === 0 ? undefined : invalid(errors.map((e) => `${e.field}: ${e.reason}`).join('; '));
}

/** `/version`, `/apis` (merged with the core document) and the extra groups' discovery documents. */
export function servedDiscovery(st: ServerState, path: string, base: (path: string) => unknown): unknown | undefined {
  const v = versioningOf(st);
  if (path === '/version')
    return {
      major: String(v.release.major),
      minor: String(v.release.minor),
      gitVersion: `v${v.release.major}.${v.release.minor}.0`,
      platform: 'svc-conformance-reference',
    };
  const extras = servedExtras(st);
  const groups = new Map<string, Set<string>>();
  for (const t of extras) groups.set(t.group, (groups.get(t.group) ?? new Set()).add(t.version));
  const core = resourceTypes(st.profile);
  for (const t of Object.values(core)) if (t.group !== '' && groups.has(t.group)) groups.get(t.group)!.add(t.version);
  const groupDoc = (name: string, versions: Set<string>) => {
    const sorted = [...versions]
      .sort((a, b) => comparePreference(parseVersion(a)!, parseVersion(b)!))
      .map((ver) => ({ groupVersion: `${name}/${ver}`, version: ver }));
    return { name, versions: sorted, preferredVersion: sorted[0]! };
  };
  if (path === '/apis') {
    const doc = base(path) as { groups: { name: string }[] } & Record<string, unknown>;
    const known = new Set(doc.groups.map((g) => g.name));
    const merged = doc.groups.map((g) => (groups.has(g.name) ? groupDoc(g.name, groups.get(g.name)!) : g));
    for (const [name, versions] of groups) if (!known.has(name)) merged.push(groupDoc(name, versions));
    // Planted fault version-name-unreadable (clause-faults.ts): a group version whose name has no stability level.
    if (has(st, 'version-name-unreadable')) {
      const gv = { groupVersion: `planted.${st.profile.groupSuffix}/v1rc1`, version: 'v1rc1' };
      merged.push({ name: `planted.${st.profile.groupSuffix}`, versions: [gv], preferredVersion: gv } as (typeof merged)[number]);
    }
    // Planted fault apis-without-groups (clause-faults.ts): the group list is an object, not the list of groups.
    if (has(st, 'apis-without-groups')) return { ...doc, groups: Object.fromEntries(merged.map((g) => [g.name, g])) };
    return { ...doc, groups: merged };
  }
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (!m || !groups.has(m[1]!)) return undefined;
  if (m[2] === undefined) return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(m[1]!, groups.get(m[1]!)!) };
  const here = extras.filter((t) => t.group === m[1] && t.version === m[2]);
  if (here.length === 0) return undefined;
  // kubectl api-resources --verbs=watch (and patch) found nothing: both are served (custom-discovery.ts).
  // Review types are questions: create only, as upstream (the namespace controller deletes what lists `delete`).
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf(here[0]!),
    resources: here.map((t) => ({
      name: t.plural,
      singularName: '',
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: isReview(t) ? REVIEW_VERBS : DISCOVERY_VERBS,
      ...kubectlNames(t),
    })),
  };
}
