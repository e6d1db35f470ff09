/**
 * Content negotiation of the reference server (rest:4.8): which representation answers a request
 * (JSON, Table, protobuf), 406 when none of the requested types is served, request bodies in JSON or
 * protobuf, and the response writer. Decisions use the model's media-type rules (reference/).
 */
import type { IncomingMessage } from 'node:http';
import { apiVersionOf, listKindOf, type ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import { parseAccept, parseContentType, rangeMatches, type MediaRange } from '../../reference/media-types.ts';
import { defaultColumns, defaultTable, tableApiVersion } from '../../reference/table.ts';
import { decodeEnvelope, encodeEnvelope } from '../../reference/protobuf-envelope.ts';
import { parseDryRun } from '../../reference/dry-run.ts';
import { route, type Route } from './router.ts';
import { badRequest, statusAnswer, type Answer } from './status.ts';
import { has, varies, type ServerState } from './state.ts';
import { decodeObject, encodeObject, hasProtobufMessage, hasProtobufSchema } from './protobuf-objects.ts';
import { profiles } from '../../reference/profile.ts';
import { customSchema } from './crds.ts';
import type { VersionedStore } from './store.ts';

export type Rep = 'json' | 'protobuf' | 'table';
type Op = 'get' | 'list' | 'write';

const MAX_BODY = 3 * 1024 * 1024;

function opOf(method: string | undefined, r: Route): Op {
  if (method === 'GET') return r.kind === 'collection' ? 'list' : 'get';
  return 'write';
}

/** What this server can produce for one range, by its own preference (JSON for wildcards). */
function servedFor(st: ServerState, range: MediaRange, op: Op): Rep | undefined {
  // The decision point only where a Table is asked for: a check that never asks is served the same bytes.
  if (op !== 'write' && rangeMatches(st.profile, range, 'table') && !varies(st, 'no-table-support')) return 'table';
  // Upstream's go-restful routes refuse `application/*` (406); the spec does not say how such a range is read.
  if (range.type === 'application/*' && varies(st, 'subtype-wildcard-406')) return undefined;
  const wildcard = range.type === '*/*' || range.type === 'application/*';
  if (wildcard && varies(st, 'protobuf-on-wildcard')) return 'protobuf';
  if (rangeMatches(st.profile, range, 'json')) return 'json';
  // `as=PartialObjectMetadata[List]` (the metadata client of the namespace controller) is a conversion this
  // server does not make: skip the range, so the client's plain application/json fallback answers.
  if (rangeMatches(st.profile, range, 'protobuf') && (wildcard || range.params['as'] === undefined)) return 'protobuf';
  return undefined;
}

/** Choices made, per server state: clients send the same few Accept headers on every request. */
const chosen = new WeakMap<ServerState, Map<string, Rep | undefined>>();
const CHOSEN_KEPT = 256;

/** The highest-quality range this server serves wins; ties keep the client's order. */
export function chooseRepresentation(st: ServerState, accept: string | undefined, op: Op): Rep | undefined {
  if (accept === undefined || accept.trim() === '') return 'json';
  let memo = chosen.get(st);
  if (!memo) chosen.set(st, (memo = new Map()));
  const key = `${op} ${accept}`;
  // A server that reports its variation points decides afresh: a remembered choice passes none.
  if (memo.has(key) && st.onVariationPoint === undefined) return memo.get(key);
  const rep = choose(st, accept, op);
  if (memo.size >= CHOSEN_KEPT) memo.clear();
  memo.set(key, rep);
  return rep;
}

function choose(st: ServerState, accept: string, op: Op): Rep | undefined {
  const ranges = parseAccept(accept)
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.q > 0)
    .sort((a, b) => b.r.q - a.r.q || a.i - b.i);
  if (has(st, 'accept-first-only')) ranges.splice(1);
  for (const { r } of ranges) {
    const rep = servedFor(st, r, op);
    if (rep !== undefined) return rep;
  }
  return has(st, '406-replaced-by-json') ? 'json' : undefined;
}

/** rest:4.8/unsupported, rest:7/406: refused before anything runs, so a refused write changes nothing. */
export function refuseUnacceptable(st: ServerState, req: IncomingMessage, r: Route): Answer | undefined {
  if (r.kind === 'none') return undefined;
  if (chooseRepresentation(st, req.headers.accept, opOf(req.method, r)) !== undefined) return undefined;
  return statusAnswer(406, 'NotAcceptable', `none of the media types in Accept (${req.headers.accept ?? ''}) is supported`);
}

/**
 * The whole request body. By its events rather than an async iterator: every request is read, and the
 * iterator's promise per chunk cost more than most handlers. As the iterator did, a body over the limit
 * or a request that ends early destroys the request and rejects.
 */
export function readBytes(req: IncomingMessage): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > MAX_BODY) {
        done();
        req.destroy();
        reject(new RangeError('request body too large'));
        return;
      }
      chunks.push(c);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (e: Error): void => {
      done();
      reject(e);
    };
    const onClose = (): void => {
      done();
      reject(Object.assign(new Error('request closed before its body ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * The profile's protobuf media type; in the svc profile also the upstream one, because real clients
 * (kubectl, client-go) send only that, whatever the server's product name (same envelope, rest:2.7).
 */
function isProtobufBody(st: ServerState, type: string): boolean {
  return type === st.profile.protobufMediaType || type === profiles.k8s.protobufMediaType;
}

/** A request body in JSON (default) or, for built-in kinds, in the protobuf envelope (rest:4.8/protobuf). */
export async function decodeRequestBody(st: ServerState, req: IncomingMessage, rt: ResourceType): Promise<{ body: unknown } | Answer> {
  const ct = parseContentType(req.headers['content-type'] ?? 'application/json');
  const type = ct?.type ?? String(req.headers['content-type']);
  const bytes = await readBytes(req).catch(() => Buffer.alloc(0));
  if (type === 'application/json') {
    try {
      return { body: JSON.parse(bytes.toString('utf8')) };
    } catch (e) {
      return badRequest(`could not decode the request body as JSON: ${(e as Error).message}`);
    }
  }
  if (isProtobufBody(st, type) && customSchema(st, rt) !== undefined) {
    return statusAnswer(
      415,
      'UnsupportedMediaType',
      `the body media type "${type}" is not supported: protobuf is not available for custom resources (rest:4.8)`,
    );
  }
  if (isProtobufBody(st, type) && !varies(st, 'no-protobuf-writes') && hasProtobufMessage(rt)) {
    const d = decodeEnvelope(bytes);
    if (!d.ok) return badRequest(`could not decode the protobuf body: ${d.why}`);
    const { typeMeta, raw } = d.envelope;
    if (typeMeta.kind !== '' && typeMeta.kind !== rt.kind) return badRequest(`kind ${typeMeta.kind} does not match ${rt.kind}`);
    try {
      return { body: { ...decodeObject(rt.kind, raw), apiVersion: typeMeta.apiVersion || apiVersionOf(rt), kind: rt.kind } };
    } catch (e) {
      return badRequest(`could not decode the ${rt.kind} in the protobuf body: ${(e as Error).message}`);
    }
  }
  // A limitation of this server, not a rule of the spec: said as such, so a client knows to send JSON.
  if (isProtobufBody(st, type) && !varies(st, 'no-protobuf-writes'))
    return statusAnswer(
      415,
      'UnsupportedMediaType',
      `the body media type "${type}" is not supported for ${rt.kind}: the reference server maps no protobuf message for it; send application/json`,
    );
  return statusAnswer(415, 'UnsupportedMediaType', `the body media type "${type}" is not supported`);
}

/**
 * rest:4.6: under dry-run every step runs on a view of the store whose writes are dropped, so the
 * write path itself needs no dry-run branches. undefined: not a dry-run; an Answer: refused.
 */
export function dryRunState(
  st: ServerState,
  pairs: readonly (readonly [string, string | null])[],
  method?: string,
): ServerState | Answer | undefined {
  const d = parseDryRun(pairs);
  if (d.kind === 'none') return undefined;
  if (d.kind === 'invalid') return badRequest(`dryRun: unsupported value ${JSON.stringify(d.values)}: supported values: "All"`);
  if (d.kind === 'flag' && has(st, 'dry-run-rejects-bare-flag')) return badRequest('dryRun: a value is required');
  if (d.kind === 'flag' && varies(st, 'dry-run-flag-persists')) return undefined;
  if (has(st, 'dry-run-persists')) return st;
  // Planted fault dry-run-patch-persists: the dry-run branch was wired for POST, PUT and DELETE only.
  if (method === 'PATCH' && has(st, 'dry-run-patch-persists')) return undefined;
  if (has(st, 'dry-run-ignored-with-pretty') && pairs.some(([k]) => k === 'pretty')) return undefined;
  if (has(st, 'dry-run-pretty-refused') && pairs.some(([k]) => k === 'pretty'))
    return badRequest('pretty cannot be combined with dryRun (planted fault)');
  return droppingWrites(st);
}

/** The server state with a store view whose writes are dropped: what a dry-run runs on. */
export function droppingWrites(st: ServerState): ServerState {
  const store: VersionedStore = Object.create(st.store, { write: { value: () => st.store.currentRevision } });
  return { ...st, store };
}

/** The Table of an object or a list (the default columns, rest:2.5.1). */
export function tableOf(st: ServerState, body: Record<string, unknown>): Record<string, unknown> {
  const list = Array.isArray(body['items']);
  const objs = (list ? (body['items'] as unknown[]) : [body]).filter(isRecord);
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  const rows = objs.map((o) => {
    const m = isRecord(o['metadata']) ? o['metadata'] : {};
    return {
      name: String(m['name'] ?? ''),
      creationTimestamp: typeof m['creationTimestamp'] === 'string' ? m['creationTimestamp'] : undefined,
      object: { kind: 'PartialObjectMetadata', apiVersion: tableApiVersion(st.profile), metadata: m },
    };
  });
  const listMd: Record<string, unknown> = list ? { ...md } : { resourceVersion: md['resourceVersion'] };
  const t = defaultTable(st.profile, rows, listMd);
  if (has(st, 'table-wrong-default-columns'))
    t['columnDefinitions'] = defaultColumns.map((c) => (c.name === 'Created At' ? { ...c, type: 'string' } : c));
  if (has(st, 'table-core-api-version')) t['apiVersion'] = 'v1';
  if (has(st, 'table-default-columns-renamed'))
    t['columnDefinitions'] = defaultColumns.map((c) => (c.name === 'Created At' ? { ...c, name: 'Age' } : c));
  return t;
}

/** The response writer: the chosen representation for successful answers about the route's type. */
export function encodeResponse(st: ServerState, req: IncomingMessage, answer: Answer, url?: URL): { contentType: string; payload: Buffer } {
  const json = (body: unknown) => ({
    contentType: 'application/json',
    payload: Buffer.from(varies(st, 'pretty-json') ? JSON.stringify(body, null, 2) : JSON.stringify(body)),
  });
  const r = url === undefined ? ({ kind: 'none' } as const) : route(st.profile, url.pathname);
  if (r.kind === 'none' || answer.status === 406 || !isRecord(answer.body)) return json(answer.body);
  // Planted fault protobuf-request-answered-in-protobuf (clause-faults.ts): the answer follows the request body, not Accept.
  const pbRequest = req.headers['content-type'] === st.profile.protobufMediaType && has(st, 'protobuf-request-answered-in-protobuf');
  const rep = pbRequest ? 'protobuf' : (chooseRepresentation(st, req.headers.accept, opOf(req.method, r)) ?? 'json');
  const body = answer.body;
  const ok = answer.status >= 200 && answer.status < 300;
  const ofType = body['kind'] === r.rt.kind || body['kind'] === listKindOf(r.rt);
  if (rep === 'table' && ok && ofType) {
    // Upstream states only the format: its Table answers say plain application/json.
    const contentType = varies(st, 'table-plain-content-type')
      ? 'application/json'
      : `application/json;as=Table;v=v1;g=${st.profile.metaGroup}`;
    return { contentType, payload: json(tableOf(st, body)).payload };
  }
  const kind = String(body['kind'] ?? '');
  if (rep === 'protobuf' && hasProtobufSchema(kind)) {
    const apiVersion = kind === 'Status' ? 'v1' : apiVersionOf(r.rt);
    const typeKind = has(st, 'protobuf-list-item-kind') && kind === listKindOf(r.rt) ? r.rt.kind : kind;
    const bytes = encodeEnvelope({
      typeMeta: { apiVersion, kind: typeKind },
      raw: encodeObject(kind, body),
      contentEncoding: '',
      contentType: '',
    });
    if (has(st, 'protobuf-bad-magic')) bytes[3] = 0x01;
    return { contentType: st.profile.protobufMediaType, payload: Buffer.from(bytes) };
  }
  return json(body);
}
