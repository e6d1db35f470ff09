/**
 * The embedded reference API server: plain HTTP on loopback, JSON only, built on the model. Used by
 * `npm start`, by the self-tests (with faults and variations), and by real clients such as kubectl.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { Profile } from '../../reference/profile.ts';
import { makeCodec } from './encoding.ts';
import type { FaultName } from './faults.ts';
import type { VariationName } from './variations.ts';
import { lacks, withoutPaging, type PartialModeName } from './partial-modes.ts';
import { VersionedStore } from './store.ts';
import { has, varies, type ServerState } from './state.ts';
import { discovery, mayBeDiscovery } from './discovery.ts';
import { route } from './router.ts';
import { getObject, listObjects, present } from './reads.ts';
import { plantedAnswer } from './verb-faults.ts';
import { refusedByPreconditions } from './preconditions.ts';
import { serveHook, starting, type HookControl } from './hooks.ts';
import { createEach, createObject, deleteCollection, deleteObject, isListBody, updateObject } from './writes.ts';
import { seedSystemNamespaces } from './system-namespaces.ts';
import { namespaceSubresource, serveNamespaceSubresource } from './namespaces.ts';
import { answerReview, isReview } from './reviews.ts';
import { gate } from './authz.ts';
import { serveSubresource } from './subresources.ts';
import type { UserInfo } from '../../reference/rbac.ts';
import { hostedCoreTypes } from './hosted-types.ts';
import { serveOpenApi } from './openapi.ts';
import { resourceTypes } from '../../reference/resources.ts';
import { badRequest, statusAnswer, type Answer } from './status.ts';
import { serveWatch } from './watch.ts';
import { patchObject } from './patch.ts';
import { writeContextOf } from './field-manager.ts';
import { servedExtraTypes } from './crds.ts';
import { serveHealth } from './health.ts';
import { withCustomTypes } from './custom-discovery.ts';
import { withDeleteOptionsDryRun } from './delete-options.ts';
import { serveMetrics } from './metrics.ts';
import {
  attachVersioning,
  convertServedWrite,
  decorateServed,
  parseVersioningOptions,
  routeServed,
  servedDiscovery,
  validateServedCreate,
  type VersioningOptions,
} from './served-versions.ts';
import { decodeRequestBody, droppingWrites, dryRunState, encodeResponse, readBytes, refuseUnacceptable } from './negotiate.ts';
import { admitConfiguration, isWebhookConfigType } from './webhook-config.ts';
import { throughWebhooks } from './write-admission.ts';
import { namespaceCreateRefused, stripGeneratedMetadata } from './setup-partial-modes.ts';

export interface ReferenceServerOptions extends VersioningOptions {
  readonly host?: string;
  readonly port?: number;
  readonly profile: Profile;
  /** rest:6.1.4 / rest:8: history kept for Exact reads (default 5 minutes). */
  readonly historyWindowMs?: number;
  /** rest:4.4.4: continue-token lifetime (default 5 minutes). */
  readonly continueTtlMs?: number;
  readonly clock?: () => number;
  readonly faults?: readonly FaultName[];
  readonly variations?: readonly VariationName[];
  /** Whole features left out (partial-modes.ts). */
  readonly without?: readonly PartialModeName[];
  /** How long a read naming a future resourceVersion waits before 504 (rest:7). */
  readonly tooLargeWaitMs?: number;
  /** Interval of BOOKMARK events on watches that ask for them (default 1 s; upstream about a minute). */
  readonly bookmarkIntervalMs?: number;
  /**
   * false: a deleted namespace stays Terminating until a real namespace controller (the controller
   * manager) empties it and finalizes it; default true: the server does that itself (namespaces.ts).
   */
  readonly builtInNamespaceController?: boolean;
  /**
   * Bearer tokens the server accepts and their users (`serve --token-auth-file`): with them it
   * authenticates and authorizes every request (authz.ts); without, everyone is a superuser.
   */
  readonly tokens?: ReadonlyMap<string, UserInfo>;
  /**
   * Told each time a legal variation's decision point is passed, whether that variation is on or not:
   * the self-tests learn from an unvaried run which checks a variation can change at all.
   */
  readonly onVariationPoint?: (v: VariationName) => void;
  /** Namespaces that exist from the start besides the system ones (an administrator's, for `--namespace`). */
  readonly namespaces?: readonly string[];
}

export interface ReferenceServer {
  readonly url: string;
  readonly state: ServerState;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString('utf8');
}

async function handle(st: ServerState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<Answer | undefined> {
  const pairs = [...url.searchParams.entries()].map(([k, v]) => [k, v] as const);
  // rest:5.1, rest:5.3: every request is authenticated and authorized before anything else.
  const who = gate(st, req, url);
  if ('refused' in who) {
    await readBytes(req).catch(() => Buffer.alloc(0));
    return who.refused;
  }
  if (serveHealth(st, req.method, url, res) || serveMetrics(st, req.method, url.pathname, res)) return undefined;
  const docPath = url.pathname.replace(/\/+$/, '') || '/';
  const openapi = serveOpenApi(st, req.method, docPath, req.headers.accept);
  if (openapi) return openapi;
  // kubectl found no custom resources: discovery now lists the types stored CRDs define (custom-discovery.ts).
  const doc =
    req.method === 'GET' && mayBeDiscovery(docPath)
      ? withCustomTypes(st, docPath, servedDiscovery(st, docPath, (p) => discovery(st.profile, p)) ?? discovery(st.profile, docPath))
      : undefined;
  if (doc !== undefined) return { status: 200, body: doc };
  st.store.compact(st.clock(), st.historyWindowMs);
  const nsSub = namespaceSubresource(url.pathname);
  if (nsSub) {
    const decoded = req.method === 'PUT' ? await decodeRequestBody(st, req, resourceTypes(st.profile).namespaces) : { body: undefined };
    if ('status' in decoded) return decoded;
    return serveNamespaceSubresource(st, req.method, nsSub.name, nsSub.sub, decoded.body);
  }
  const r =
    routeServed(st, url.pathname) ?? route(st.profile, url.pathname, () => [...hostedCoreTypes(st.profile), ...servedExtraTypes(st)]);
  if (r.kind === 'none') return statusAnswer(404, 'NotFound', 'the server could not find the requested resource');
  const unacceptable = refuseUnacceptable(st, req, r);
  if (unacceptable) {
    await readBody(req).catch(() => '');
    return unacceptable;
  }
  let body: unknown;
  let patchBody = '';
  if (req.method === 'POST' || req.method === 'PUT') {
    // JSON, or protobuf for built-in kinds (rest:4.8); other media types are refused as unsupported.
    const decoded = await decodeRequestBody(st, req, r.rt);
    if ('status' in decoded) return decoded;
    body = decoded.body;
  } else {
    patchBody = await readBody(req).catch(() => '');
  }
  // rest:4.6: a dry-run write runs on a store view that drops writes (negotiate.ts).
  // kubectl delete --dry-run=server puts dryRun in the DeleteOptions body, not the query (delete-options.ts).
  if (
    req.method !== 'GET' &&
    lacks(st, 'dry-run') &&
    (req.method === 'DELETE' ? withDeleteOptionsDryRun(pairs, patchBody) : pairs).some(([k]) => k === 'dryRun')
  ) {
    return badRequest('the dryRun feature is disabled');
  }
  const dry =
    req.method === 'GET'
      ? undefined
      : dryRunState(st, req.method === 'DELETE' ? withDeleteOptionsDryRun(pairs, patchBody) : pairs, req.method);
  if (dry !== undefined && 'status' in dry) return dry;
  if (dry !== undefined) st = dry;
  // Webhook configurations are validated and defaulted per the version they are written through (admission.ts).
  if (req.method === 'POST' || req.method === 'PUT') {
    const admitted = admitConfiguration(st, r.rt, body);
    if ('status' in admitted) return admitted;
    body = convertServedWrite(st, r.rt, admitted.body);
  }
  // A PATCH is validated on what it would store: patched first on a view that drops writes.
  if (req.method === 'PATCH' && r.kind === 'object' && r.subresource === undefined && isWebhookConfigType(st, r.rt)) {
    const probe = await patchObject(dry ?? droppingWrites(st), r.rt, r.namespace, r.name, req, url, patchBody);
    if (probe !== undefined && probe.status < 300) {
      const admitted = admitConfiguration(st, r.rt, probe.body);
      if ('status' in admitted) return admitted;
    }
  }
  return serveRoute(st, req, res, url, { r, who, pairs, body, patchBody, dry });
}

/** A request routed to a resource, with its body read and its dry-run view: what `handle` found out. */
interface RoutedRequest {
  readonly r: Exclude<ReturnType<typeof route>, { kind: 'none' }>;
  readonly who: Extract<ReturnType<typeof gate>, { user: unknown }>;
  readonly pairs: readonly (readonly [string, string])[];
  readonly body: unknown;
  readonly patchBody: string;
  /** The store view that drops writes, for a dry-run write. */
  readonly dry: ServerState | undefined;
}

/** Serves a routed request: by the resource, the method and the planted faults, through the admission webhooks that apply. */
async function serveRoute(
  st: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  { r, who, pairs, body, patchBody, dry }: RoutedRequest,
): Promise<Answer | undefined> {
  const rt = r.rt;
  const writeInner = async (s: ServerState): Promise<Answer | undefined> => {
    const planted = await plantedAnswer(s, req.method, r, body, pairs, url.searchParams.has('watch'), (o) =>
      present(s, rt, o, r.kind === 'collection'),
    );
    if (planted !== undefined) return planted;
    if (r.kind === 'collection') {
      if (req.method === 'GET') {
        if (url.searchParams.get('watch') === '1' || url.searchParams.get('watch') === 'true')
          return serveWatch(s, rt, r.namespace, pairs, req, res);
        if (has(s, 'paged-list-answers-500') && url.searchParams.has('limit'))
          return statusAnswer(500, 'InternalError', 'Internal error occurred: planted fault: paged lists fail');
        return listObjects(s, rt, r.namespace, lacks(s, 'paging') ? withoutPaging(pairs) : pairs);
      }
      if (req.method === 'POST' && isReview(rt)) return answerReview(s, rt, r.namespace, body, who.user);
      if (req.method === 'POST' && has(s, 'namespaces-not-creatable') && rt.plural === 'namespaces' && rt.group === '')
        return namespaceCreateRefused();
      if (req.method === 'POST' && has(s, 'list-body-creates-each') && isListBody(body))
        return createEach(s, rt, r.namespace, body, writeContextOf(req, url, s));
      // Hostile fault write-201-not-stored: the create runs on a view that drops its write.
      if (req.method === 'POST')
        return (
          validateServedCreate(s, rt, body) ??
          createObject(has(s, 'write-201-not-stored') ? droppingWrites(s) : s, rt, r.namespace, body, writeContextOf(req, url, s))
        );
      if (req.method === 'DELETE' && has(s, 'never-delete')) return listObjects(s, rt, r.namespace, []);
      if (req.method === 'DELETE') return deleteCollection(s, rt, r.namespace, pairs);
      return statusAnswer(405, 'MethodNotAllowed', `${req.method} is not supported on a collection here`);
    }
    if (r.subresource !== undefined) {
      return serveSubresource(
        s,
        req.method,
        rt,
        r.namespace,
        r.name,
        r.subresource,
        pairs,
        body,
        patchBody,
        (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
        writeContextOf(req, url, s),
      );
    }
    switch (req.method) {
      case 'GET':
        if (has(s, 'cluster-object-get-404') && !rt.namespaced && rt.group !== '')
          return statusAnswer(404, 'NotFound', `the server could not find the requested resource (planted fault)`);
        return getObject(s, rt, r.namespace, r.name, pairs);
      case 'PUT':
        if (lacks(s, 'put')) return statusAnswer(405, 'MethodNotAllowed', 'PUT is not supported by this server');
        if (has(s, 'update-answers-500') && rt.kind === 'ConfigMap')
          return statusAnswer(500, 'InternalError', 'Internal error occurred: planted fault: updates fail');
        return updateObject(s, rt, r.namespace, r.name, body, writeContextOf(req, url, s));
      case 'DELETE':
        // Hostile fault never-delete: the answer of a delete that took effect at once, and nothing changes.
        if (has(s, 'never-delete')) return getObject(s, rt, r.namespace, r.name, []);
        return refusedByPreconditions(s, rt, r.namespace, r.name, patchBody) ?? deleteObject(s, rt, r.namespace, r.name);
      case 'PATCH':
        return patchObject(s, rt, r.namespace, r.name, req, url, patchBody);
      default:
        return statusAnswer(405, 'MethodNotAllowed', `${req.method} is not supported`);
    }
  };
  // Planted fault dry-run-answers-202 (clause-faults.ts): a successful dry-run says 202 Accepted.
  const write = async (s: ServerState): Promise<Answer | undefined> => {
    const a = await writeInner(s);
    return dry !== undefined && a !== undefined && a.status >= 200 && a.status < 300 && has(s, 'dry-run-answers-202')
      ? { ...a, status: 202 }
      : a;
  };
  return throughWebhooks(st, req, { r, who, body, dry }, write);
}

/** Hostile fault trickle-body: the payload one byte a second, until it is sent or the client goes. */
function trickle(res: ServerResponse, payload: Uint8Array): void {
  let i = 0;
  res.flushHeaders();
  const timer = setInterval(() => {
    if (res.destroyed || i >= payload.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(payload.subarray(i, ++i));
  }, 1000);
  timer.unref();
  res.on('close', () => clearInterval(timer));
}

/** The server's state as the options set it up, before versioning, hooks and seeding. */
function initialState(opts: ReferenceServerOptions): ServerState {
  const variations = new Set(opts.variations ?? []);
  return {
    profile: opts.profile,
    store: new VersionedStore(),
    codec: makeCodec({
      opaqueRv: variations.has('opaque-rv'),
      opaqueContinue: variations.has('opaque-continue'),
      point: opts.onVariationPoint,
    }),
    historyWindowMs: opts.historyWindowMs ?? 5 * 60_000,
    continueTtlMs: opts.continueTtlMs ?? 5 * 60_000,
    tooLargeWaitMs: opts.tooLargeWaitMs ?? 300,
    bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 1000,
    clock: opts.clock ?? Date.now,
    faults: new Set(opts.faults ?? []),
    variations,
    without: new Set(opts.without ?? []),
    builtInNamespaceController: opts.builtInNamespaceController ?? true,
    tokens: opts.tokens,
    onVariationPoint: opts.onVariationPoint,
  };
}

export async function startReferenceServer(opts: ReferenceServerOptions): Promise<ReferenceServer> {
  const state = initialState(opts);
  attachVersioning(state, parseVersioningOptions(opts));
  if (state.faults.has('watch-skip-late-commit')) state.store.lateCommitMs = (rev) => (rev % 4 === 2 ? 40 : 0);
  seedSystemNamespaces(state, opts.namespaces);
  let requests = 0;
  const hookControl: HookControl = { downUntil: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const n = ++requests;
      state.requestSeq = n;
      // Hostile fault hold-connections: accepted, read, never answered (the client's bound must end it).
      if (has(state, 'hold-connections') && n % 7 === 0) {
        req.resume();
        return;
      }
      let answer: Answer | undefined;
      // Parsed once: the handler, the decorator and the response writer all read it.
      let url: URL | undefined;
      try {
        url = new URL(req.url ?? '/', 'http://reference');
        answer = serveHook(state, server, hookControl, req, url.pathname) ?? starting(state, hookControl);
        if (answer !== undefined) {
          await readBytes(req).catch(() => Buffer.alloc(0));
          const out = encodeResponse(state, req, answer, url);
          res.writeHead(answer.status, {
            'content-type': out.contentType,
            'content-length': out.payload.length,
            ...(answer.headers ?? {}),
          });
          res.end(out.payload);
          return;
        }
        if (varies(state, 'latency')) await delay(5 + Math.floor(Math.random() * 25));
        // Every 20th request is throttled once: a conforming client retries after Retry-After.
        answer =
          varies(state, 'retry-after-429') && requests % 20 === 0
            ? statusAnswer(429, 'TooManyRequests', 'too many requests, please retry', { 'retry-after': '0' })
            : await handle(state, req, res, url);
      } catch (e) {
        answer = statusAnswer(500, 'InternalError', e instanceof Error ? e.message : String(e));
      }
      // A watch has written and ended its own response.
      if (answer === undefined) return;
      // A request target that is no URL (`//`) is answered by the catch above, undecorated.
      if (url !== undefined) answer = decorateServed(state, req.method, url, answer);
      if (has(state, 'no-generated-metadata')) answer = stripGeneratedMetadata(answer);
      const out = encodeResponse(state, req, answer, url);
      res.writeHead(answer.status, { 'content-type': out.contentType, 'content-length': out.payload.length, ...(answer.headers ?? {}) });
      if (has(state, 'trickle-body') && n % 7 === 0) return trickle(res, out.payload);
      res.end(out.payload);
    })();
  });
  // Idle connections live a minute (as upstream's Go servers keep theirs 90 s), not Node's 5 s: a
  // client that reuses one near the deadline while this process is stalled on a busy machine loses
  // its request with "other side closed" (the server's timer fires before it reads the request), and a
  // write cannot be retried. The suite's client stops reusing after 4 s idle (harness/transport/client.ts).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
