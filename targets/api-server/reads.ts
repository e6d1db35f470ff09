/**
 * Reads: get and list, dispatched through the model's decision tables (reference/rv-semantics.ts and
 * reference/query.ts), served from the versioned store. Faults and legal variations bend exactly the
 * step they name.
 */
import { createHash } from 'node:crypto';
import { decideGet, decideList, rvColumn, type Decision } from '../../reference/rv-semantics.ts';
import { classifyList } from '../../reference/query.ts';
import { matchesLabels, parseLabelSelector } from '../../reference/label-selector.ts';
import { apiVersionOf, listKindOf, type ResourceType } from '../../reference/resources.ts';
import { TOO_LARGE_TEXT } from '../../reference/error-rules.ts';
import { badRequest, gone, invalid, notFound, statusAnswer, type Answer } from './status.ts';
import { cellMisread, garbled } from './fault-families.ts';
import { has, varies, type ServerState } from './state.ts';
import type { StoredObject } from './store.ts';
import { fieldFilter } from './field-selectors.ts';

type Pairs = readonly (readonly [string, string | null])[];

export const keyFor = (rt: ResourceType, ns: string | undefined, name: string) => `${rt.plural}/${ns ?? ''}/${name}`;
export const prefixFor = (rt: ResourceType, ns: string | undefined) => (ns === undefined ? `${rt.plural}/` : `${rt.plural}/${ns}/`);

/**
 * The key prefix a collection read scans. Planted fault namespace-prefix-leak: the scan omits the
 * separator after the namespace, so `ns-1` also reads the keys of `ns-10` and `ns-100`.
 */
export const scanPrefixFor = (st: ServerState, rt: ResourceType, ns: string | undefined) =>
  ns !== undefined && has(st, 'namespace-prefix-leak') ? `${rt.plural}/${ns}` : prefixFor(rt, ns);

/** Planted fault page-chain-drift: from this many pages on, every such run of pages repeats one item. */
export const DRIFT_EVERY_PAGES = 40;

/** Objects as sent on the wire: list items without kind/apiVersion (upstream), extras when asked. */
export function present(st: ServerState, rt: ResourceType, obj: StoredObject, inList: boolean): Record<string, unknown> {
  let out: Record<string, unknown> = obj;
  if (inList && !varies(st, 'items-with-kind')) {
    const { kind: _k, apiVersion: _a, ...rest } = obj;
    out = rest;
  } else if (!inList) {
    out = { ...obj, kind: rt.kind, apiVersion: apiVersionOf(rt) };
  }
  if (varies(st, 'extra-fields'))
    out = { ...out, futureField: { note: 'unknown to the suite' }, metadata: { ...(out['metadata'] as object), futureMetadataField: 'x' } };
  // Planted fault list-items-foreign-kind (clause-faults.ts): ConfigMap list items say they are Secrets.
  if (inList && rt.plural === 'configmaps' && has(st, 'list-items-foreign-kind')) out = { ...out, kind: 'Secret', apiVersion: 'v1' };
  return garbled(st, rt.plural, out);
}

async function tooLarge(st: ServerState, text: string, rev: number): Promise<Answer | undefined> {
  if (await st.store.waitForRevision(rev, st.tooLargeWaitMs)) return undefined;
  // Planted faults of clause-faults.ts: a version never reached read as not found; Retry-After as a date.
  if (has(st, 'too-large-as-404')) return statusAnswer(404, 'NotFound', `resource version ${text} not found`);
  const message = has(st, 'too-large-without-text')
    ? 'Timeout: the request did not complete in time'
    : `${TOO_LARGE_TEXT}: ${text}, current: ${st.codec.rv(st.store.currentRevision)}`;
  return statusAnswer(504, 'Timeout', message, {
    'retry-after': has(st, 'retry-after-as-date') ? new Date(Date.now() + 1000).toUTCString() : '1',
  });
}

/**
 * Variation watch-cache-lag-504: like upstream, a Not-older-than read is served by a cache of the
 * resource type that learns revisions only from that type's own writes, so a revision moved on by
 * other types is never reached and the read answers 504 after its wait.
 */
function cacheLags(st: ServerState, rt: ResourceType, text: string, rev: number): Answer | undefined {
  if (has(st, 'not-older-than-always-504')) return statusAnswer(504, 'Timeout', `${TOO_LARGE_TEXT}: ${text}`, { 'retry-after': '1' });
  if (!varies(st, 'watch-cache-lag-504')) return undefined;
  const seen = st.store.lastRevisionUnder(prefixFor(rt, undefined));
  if (rev <= seen) return undefined;
  return statusAnswer(504, 'Timeout', `${TOO_LARGE_TEXT}: ${text}, current: ${st.codec.rv(seen)}`, { 'retry-after': '1' });
}

/** A requested revision, or the answer that refuses it. */
async function requested(st: ServerState, text: string | undefined): Promise<{ rev: number } | { answer: Answer }> {
  const rev = text === undefined ? undefined : st.codec.parseRv(text);
  if (rev === undefined) return { answer: badRequest(`invalid resource version ${JSON.stringify(text)}`) };
  const late = await tooLarge(st, text!, rev);
  return late ? { answer: late } : { rev };
}

export async function getObject(st: ServerState, rt: ResourceType, ns: string | undefined, name: string, pairs: Pairs): Promise<Answer> {
  const text = pairs.find(([k]) => k === 'resourceVersion')?.[1] ?? undefined;
  const d = decideGet(rvColumn(text));
  if (d.outcome === 'serve' && cellMisread(st, d.clause))
    return badRequest(`resourceVersion ${JSON.stringify(text ?? '')} is not accepted here (${d.clause})`);
  let at = st.store.currentRevision;
  if (d.outcome === 'serve' && d.semantic === 'Any' && varies(st, 'stale-any')) at = st.store.oldestRetained;
  if (d.outcome === 'serve' && d.semantic === 'NotOlderThan') {
    const r = await requested(st, text ?? undefined);
    if ('answer' in r) return r.answer;
    const lag = cacheLags(st, rt, text!, r.rev);
    if (lag) return lag;
    at = st.store.currentRevision;
  }
  const obj = st.store.get(keyFor(rt, ns, name), at);
  return obj ? { status: 200, body: present(st, rt, obj, false) } : notFound(rt.plural, name);
}

function orderKey(st: ServerState, key: string): string {
  return varies(st, 'shuffled-order') ? createHash('sha256').update(key).digest('hex') + key : key;
}

/**
 * A query whose parameter is repeated (a form rest:4.3 does not describe) is read as its first values,
 * as upstream's query decoding does; refused by classifyList (422) under variation
 * repeated-parameter-refused; under fault repeated-limit-ignored a repeated limit is dropped altogether.
 */
function repeatedParameters(st: ServerState, pairs: Pairs): Pairs {
  const names = pairs.map(([k]) => k);
  if (new Set(names).size === names.length) return pairs;
  if (has(st, 'repeated-limit-ignored') && names.filter((k) => k === 'limit').length > 1) return pairs.filter(([k]) => k !== 'limit');
  if (varies(st, 'repeated-parameter-refused')) return pairs;
  return pairs.filter(([k], i) => names.indexOf(k) === i);
}

export async function listObjects(st: ServerState, rt: ResourceType, ns: string | undefined, given: Pairs): Promise<Answer> {
  const pairs = repeatedParameters(st, given);
  const q = classifyList(pairs);
  if (!q.ok) return invalid(q.why);
  let d: Decision = decideList(q.cell);
  if (d.outcome === 'unspecified') return invalid(d.why);
  // Planted fault cell-misread/<cell> (fault-families.ts): the cell's row read the other way round.
  if (cellMisread(st, d.clause)) {
    if (d.outcome === 'serve')
      return badRequest(`this combination of resourceVersion, resourceVersionMatch and limit is not accepted (${d.clause})`);
    d = { outcome: 'serve', semantic: 'MostRecent', clause: d.clause };
  }
  if (d.outcome === 'reject') {
    if (d.statuses !== '4xx' && has(st, 'accept-400-cell')) d = { outcome: 'serve', semantic: 'ContinueExact', clause: d.clause };
    else if (d.statuses === '4xx' && has(st, 'invalid-cell-accepted')) d = { outcome: 'serve', semantic: 'MostRecent', clause: d.clause };
    else if (d.statuses === '4xx')
      return varies(st, 'invalid-as-400')
        ? badRequest(`resourceVersionMatch is forbidden here (${d.clause})`)
        : invalid(`resourceVersionMatch is forbidden here (${d.clause})`);
    else return badRequest('specifying resource version is not allowed when using continue');
  }
  const labels = q.labelSelector === undefined ? undefined : parseLabelSelector(q.labelSelector);
  if (labels && !labels.ok) return badRequest(`unable to parse requirement: ${labels.error}`);
  const fieldText = pairs.find(([k]) => k === 'fieldSelector')?.[1] ?? undefined;
  const fields = fieldFilter(fieldText, rt);
  if (typeof fields !== 'function') return badRequest(fields.error);
  const selected = labels !== undefined || (fieldText !== undefined && fieldText.trim() !== '');
  // Planted fault label-selector-ignored (clause-faults.ts): lists of ConfigMaps hold every item whatever the selector.
  const selectorIgnored = rt.plural === 'configmaps' && has(st, 'label-selector-ignored');
  return listAtVersion(st, rt, ns, { q, d, labels, fields, selected, selectorIgnored });
}

/** What a list asks, read and checked: its query, the row of the rv table it falls in, its selectors. */
interface ListRequest {
  readonly q: Extract<ReturnType<typeof classifyList>, { ok: true }>;
  readonly d: Extract<Decision, { outcome: 'serve' }>;
  readonly labels: Extract<ReturnType<typeof parseLabelSelector>, { ok: true }> | undefined;
  readonly fields: (obj: StoredObject) => boolean;
  /** A label or field selector was given: no remainingItemCount. */
  readonly selected: boolean;
  readonly selectorIgnored: boolean;
}

/** The version a list reads at (its semantic's), then the items there. */
async function listAtVersion(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  { q, d, labels, fields, selected, selectorIgnored }: ListRequest,
): Promise<Answer> {
  const now = st.clock();
  // watch-cache-lag-504: like a real cluster, other components keep writing other types, so the
  // collection resourceVersion of a list runs ahead of this type's own writes.
  if (varies(st, 'watch-cache-lag-504')) st.store.write(`background-writes/${st.store.nextRevision}`, { metadata: {} }, now);
  const cur = st.store.currentRevision;
  const point = await readPoint(st, rt, q, d, now, cur);
  if ('answer' in point) return point.answer;
  const { at, after, issuedAt, continuation } = point;

  const items = st.store
    .list(scanPrefixFor(st, rt, ns), at)
    .filter(
      ({ obj }) =>
        (labels === undefined ||
          selectorIgnored ||
          (labels.ok && matchesLabels(labels.selector, (obj.metadata['labels'] ?? {}) as Record<string, string>))) &&
        fields(obj),
    )
    .map((e) => ({ ...e, order: orderKey(st, e.key) }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  let rest = after === undefined ? items : items.filter((e) => e.order > after!);
  if (has(st, 'page-chain-drift') && after !== undefined && q.limit !== undefined) {
    // Every DRIFT_EVERY_PAGES pages the continuation restarts at the last item of the previous page.
    const served = items.length - rest.length;
    if (served > 0 && served % q.limit === 0 && (served / q.limit) % DRIFT_EVERY_PAGES === 0) rest = items.slice(served - 1);
  }
  return listPage(st, rt, { q, d, selected }, { at, cur, continuation, issuedAt }, rest);
}

/** Where a read of the list's semantic stands: the revision it reads at, and for a continuation the key it goes on after. */
interface ReadPoint {
  readonly at: number;
  readonly after: string | undefined;
  /** When the first page of the chain was served (a continuation's token carries it). */
  readonly issuedAt: number;
  readonly continuation: boolean;
}

/** The revision a list reads at, by its semantic (and the planted faults and variations on it), or what it answers instead. */
async function readPoint(
  st: ServerState,
  rt: ResourceType,
  q: ListRequest['q'],
  d: ListRequest['d'],
  now: number,
  cur: number,
): Promise<ReadPoint | { answer: Answer }> {
  let at = cur;
  let after: string | undefined;
  let issuedAt = now;
  let continuation = false;
  switch (d.semantic) {
    case 'MostRecent':
      // A list that claims the newest version while its items lag one write behind it.
      if (has(st, 'list-watch-disagree') && q.limit === undefined) at = Math.max(st.store.oldestRetained, cur - 1);
      break;
    case 'Any':
      if (varies(st, 'stale-any')) at = st.store.oldestRetained;
      break;
    case 'NotOlderThan': {
      const r = await requested(st, q.resourceVersion);
      if ('answer' in r) return { answer: r.answer };
      const lag = q.limit === undefined ? cacheLags(st, rt, q.resourceVersion!, r.rev) : undefined;
      if (lag) return { answer: lag };
      at =
        has(st, 'stale-not-older-than') && q.limit === undefined
          ? Math.max(0, Math.max(st.store.oldestRetained, r.rev - 1))
          : st.store.currentRevision;
      break;
    }
    case 'Exact': {
      const r = await requested(st, q.resourceVersion);
      // Planted fault exact-too-large-as-404 (clause-faults.ts): an Exact list at a version never reached is "not found".
      if ('answer' in r && r.answer.status === 504 && has(st, 'exact-too-large-as-404'))
        return { answer: statusAnswer(404, 'NotFound', `resource version ${q.resourceVersion} not found`) };
      if ('answer' in r) return { answer: r.answer };
      // Planted fault exact-too-old-served-now (clause-faults.ts): a version the history lost is read as the newest.
      if (r.rev < st.store.oldestRetained && !has(st, 'exact-too-old-served-now'))
        return { answer: gone(`too old resource version: ${q.resourceVersion} (${st.codec.rv(st.store.oldestRetained)})`) };
      if (r.rev < st.store.oldestRetained) {
        at = cur;
        break;
      }
      if (has(st, 'exact-410-too-early') && r.rev !== st.store.currentRevision)
        return { answer: gone(`too old resource version: ${q.resourceVersion}`) };
      at = has(st, 'ignore-exact') ? st.store.currentRevision : r.rev;
      break;
    }
    case 'ContinueExact': {
      const t = q.continueToken === undefined ? undefined : st.codec.parseToken(q.continueToken);
      if (!t) return { answer: badRequest('continue key is not valid') };
      const expired = now - t.issuedAt > st.continueTtlMs && !has(st, 'continue-never-expires');
      if (expired || t.rev < st.store.oldestRetained)
        return {
          answer: gone(
            'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
          ),
        };
      at = has(st, 'continuation-sees-new-writes') ? cur : t.rev;
      after = t.after;
      issuedAt = t.issuedAt;
      continuation = true;
      break;
    }
    default:
      return { answer: invalid(`unsupported read semantic ${d.semantic}`) };
  }
  return { at, after, issuedAt, continuation };
}

/** The list answer: a page of `rest` (the items after the continue key) with its metadata. */
function listPage(
  st: ServerState,
  rt: ResourceType,
  { q, d, selected }: Pick<ListRequest, 'q' | 'd' | 'selected'>,
  { at, cur, continuation, issuedAt }: { at: number; cur: number; continuation: boolean; issuedAt: number },
  rest: readonly { obj: StoredObject; order: string }[],
): Answer {
  const claimed =
    (has(st, 'page-rv-drift') && continuation) || (has(st, 'list-watch-disagree') && d.semantic === 'MostRecent' && q.limit === undefined)
      ? cur
      : at;
  const metadata: Record<string, unknown> = { resourceVersion: st.codec.rv(claimed) };
  let page = rest;
  if (q.limit !== undefined) {
    const size = has(st, 'page-overflow') ? q.limit + 1 : varies(st, 'short-pages') && q.limit > 1 ? q.limit - 1 : q.limit;
    page = rest.slice(0, size);
    const more = rest.length > page.length;
    const last = page[page.length - 1];
    if ((more || (has(st, 'continue-on-last-page') && last)) && last)
      metadata['continue'] = st.codec.token({ rev: at, after: last.order, issuedAt });
    const remaining = rest.length - page.length + (has(st, 'remaining-off-by-one') ? 1 : 0);
    // Asked of every limited list, not only one with more to come: which lists have more depends on what else the store holds.
    const countOmitted = varies(st, 'no-remaining-count');
    if (more && (!selected || has(st, 'remaining-with-selector')) && !countOmitted) metadata['remainingItemCount'] = remaining;
  }
  if (varies(st, 'extra-fields')) metadata['futureListField'] = true;
  return {
    status: 200,
    body: {
      kind: has(st, 'wrong-list-kind') ? 'List' : listKindOf(rt),
      apiVersion: apiVersionOf(rt),
      metadata,
      items: page.map((e) => present(st, rt, e.obj, true)),
    },
  };
}
