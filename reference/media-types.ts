/**
 * rest:4.8 content negotiation as data: the representations the spec names, how an Accept list maps
 * onto them, and the set of answers the model accepts.
 *
 *   acceptableAnswers(profile, 'application/json;as=Table;g=meta.svc.io;v=v1, application/json', { builtIn: true })
 *     -> { matched: table or json (or anything else the list allows), required: [json], may406: false }
 *
 * Rules the spec fixes: JSON is always supported (rest:4.8/default); protobuf is supported for built-in
 * types (rest:4.8/protobuf, rest:1.7); a type may lack Table support (rest:2.5.2); 406 only when none of
 * the requested types is supported (rest:4.8/unsupported). Rules it does not fix, so any choice is
 * accepted: which of several matching types wins (quality values, order), what a wildcard resolves to,
 * and types the spec never names (a server may support YAML: serving it for a YAML request is fine).
 * A Table is only ever an answer to a range that asks for it (`as=Table`), never to `*\/*` or plain JSON.
 */
import { parse } from 'content-type';
import type { Profile } from './profile.ts';

export interface MediaRange {
  /** Lower-cased `type/subtype`, wildcards kept (`*\/*`, `application/*`). */
  readonly type: string;
  /** Parameters other than `q`, names lower-cased. */
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

/** Parses an Accept header (comma-separated ranges with parameters); unusable entries are dropped. */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  let i = 0;
  while (i < header.length) {
    const r = parse(header, { comma: true, start: i });
    const next = r.index + 1;
    if (next <= i) break;
    i = next;
    const type = r.type.trim().toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/.test(type)) continue;
    const { q: qText, ...params } = r.parameters;
    const q = qText === undefined ? 1 : Number(qText);
    out.push({ type, params, q: Number.isFinite(q) ? q : 1 });
  }
  return out;
}

/** Parses one Content-Type value; undefined when it names no media type. */
export function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } | undefined {
  if (value === undefined) return undefined;
  const r = parse(value);
  const type = r.type.trim().toLowerCase();
  return /^[^/\s]+\/[^/\s]+$/.test(type) ? { type, params: r.parameters } : undefined;
}

/** The representations the spec names, plus anything else a server may support. */
export type Representation = 'json' | 'protobuf' | 'table' | { readonly other: string; readonly params: Readonly<Record<string, string>> };

export function tableMediaType(profile: Profile): string {
  return `application/json;as=Table;g=${profile.metaGroup};v=v1`;
}

const showRep = (r: Representation): string =>
  typeof r === 'string' ? r : [r.other, ...Object.entries(r.params).map(([k, v]) => `${k}=${v}`)].join(';');

/** The JSON body is a Table (rest:2.5): its `kind` says so; the apiVersion is judged by judgeTable. */
const isTableBody = (body: unknown): boolean => typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Table';

/**
 * What a response served: the format from its Content-Type (rest:4.8/response: "Content-Type states
 * the chosen format"), and, within JSON, the representation from the body itself. The spec fixes the
 * format, not the parameters echoed back: upstream answers `Accept: application/json;as=Table;...`
 * with a Table whose Content-Type is plain `application/json` (apiserver's negotiation writes the
 * media type without the `as` parameters), and a Table that calls itself one is a Table.
 *
 *   representationOf(p, 'application/json', { kind: 'Table', ... })            -> 'table'
 *   representationOf(p, 'application/json;as=Table;g=...;v=v1', { kind: 'ConfigMap' }) -> 'json'
 */
export function representationOf(profile: Profile, contentType: string | undefined, body: unknown): Representation | undefined {
  const ct = parseContentType(contentType);
  if (!ct) return undefined;
  const { charset: _c, ...params } = ct.params;
  if (ct.type === 'application/json') {
    if (isTableBody(body)) return 'table';
    // Parameters naming another representation (as=PartialObjectMetadata) are taken at their word only
    // when they do not claim a Table the body is not.
    if (params['as'] === undefined || params['as'] === 'Table') return 'json';
    return { other: ct.type, params };
  }
  if (ct.type === profile.protobufMediaType) return 'protobuf';
  return { other: ct.type, params };
}

export function rangeMatches(profile: Profile, range: MediaRange, rep: Representation): boolean {
  if (rep === 'table')
    return (
      range.type === 'application/json' &&
      range.params['as'] === 'Table' &&
      range.params['g'] === profile.metaGroup &&
      range.params['v'] === 'v1'
    );
  const wildcard = range.type === '*/*' || range.type === 'application/*';
  if (rep === 'json') return (range.type === 'application/json' && range.params['as'] === undefined) || wildcard;
  if (rep === 'protobuf') return range.type === profile.protobufMediaType || wildcard;
  // A type the spec never names: its own range (same parameters), or a wildcard over its top-level type.
  const t = rep.other;
  const sameParams = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) =>
    Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
  if (range.type === t) return sameParams(range.params, rep.params);
  return (
    Object.keys(rep.params).length === 0 && (range.type === '*/*' || (range.type.endsWith('/*') && t.startsWith(range.type.slice(0, -1))))
  );
}

export type Operation = 'get' | 'list' | 'write';

export interface Answers {
  /** Representations any of whose answers is acceptable (the order or q of the list is not fixed). */
  readonly matched: (rep: Representation) => boolean;
  /** Matched representations the target must support for this resource (so 406 is wrong). */
  readonly required: readonly Representation[];
  /** 406 is acceptable: nothing requested is a representation the target must support. */
  readonly may406: boolean;
  readonly ranges: readonly MediaRange[];
}

/**
 * The acceptable answers to a request with this Accept header, for a built-in type (`builtIn`) or
 * not (protobuf is not available for custom or aggregated types, rest:4.8/protobuf). Table is
 * optional per type (rest:2.5.2) and per operation (rest:4.8 shows it for GET only).
 */
export function acceptableAnswers(profile: Profile, accept: string | undefined, opts: { builtIn: boolean }): Answers {
  const ranges = accept === undefined || accept.trim() === '' ? [{ type: '*/*', params: {}, q: 1 }] : parseAccept(accept);
  // rest:4.8 names Table for GET; whether a write may answer a Table-only Accept with a Table is not
  // fixed (upstream converts any response it can), so a Table is allowed there too, never required.
  const matched = (rep: Representation) => ranges.some((r) => rangeMatches(profile, r, rep));
  const mustSupport: Representation[] = ['json', ...(opts.builtIn ? (['protobuf'] as const) : [])];
  // q=0 is HTTP's "not acceptable" (RFC 9110 12.4.2); the spec says nothing of quality values, so a
  // q=0 range neither obliges the target to serve that type nor forbids it. Likewise a subtype
  // wildcard (`application/*`): rest:4.8 names media types and the default, never partial ranges, so
  // one allows JSON or protobuf but obliges nothing. Upstream answers 406 to it: its go-restful routes
  // match only `*/*` and exact types (emicklei/go-restful route.go matchesAccept).
  const obliging = (r: MediaRange) => r.q > 0 && !isSubtypeWildcard(r);
  const required = mustSupport.filter((rep) => ranges.some((r) => obliging(r) && rangeMatches(profile, r, rep)));
  return { matched, required, may406: required.length === 0, ranges };
}

/** `application/*` and the like: a wildcard over the subtype only (`*\/*` is the default, not this). */
const isSubtypeWildcard = (r: MediaRange): boolean => r.type.endsWith('/*') && r.type !== '*/*';

export type NegotiationVerdict =
  | { readonly ok: true; readonly representation: Representation | 'none' }
  | { readonly ok: false; readonly why: string };

/** Judges one answer: its status, Content-Type (format) and body (representation) against the acceptable set. */
export function judgeNegotiated(
  profile: Profile,
  answers: Answers,
  status: number,
  contentType: string | undefined,
  body: unknown,
): NegotiationVerdict {
  if (status === 406)
    return answers.may406
      ? { ok: true, representation: 'none' }
      : { ok: false, why: `406 although ${answers.required.map(showRep).join(' and ')} was requested and must be supported` };
  if (status < 200 || status >= 300) return { ok: true, representation: 'none' };
  const rep = representationOf(profile, contentType, body);
  if (rep === undefined) return { ok: false, why: `a ${status} answer without a usable Content-Type (${JSON.stringify(contentType)})` };
  if (!answers.matched(rep))
    return {
      ok: false,
      why: `answered ${showRep(rep)} (Content-Type ${JSON.stringify(contentType)}, body kind ${JSON.stringify(kindOf(body))}), which none of the requested types allows${answers.may406 ? '; 406 was due' : ''}`,
    };
  return { ok: true, representation: rep };
}

const kindOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as { kind?: unknown }).kind : undefined);

export { showRep };
