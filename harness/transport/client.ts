/**
 * The HTTP client every suite talks to (DESIGN.md layer 3), on an undici 7 Agent. It turns transport
 * trouble and rate limiting into InfrastructureError after bounded retries, and returns every other
 * response, whatever its status, as an observation for the oracle.
 */
import type { Dispatcher } from 'undici';
import { undici } from './lazy-undici.ts';
import { InfrastructureError, queryToString, RECORD_TO, type Exchange, type ExchangeRecorder, type StreamResponse, type Target, type TargetRequest, type TargetResponse } from './exchange.ts';
import type { TargetConfig } from './kubeconfig.ts';
import { redactHeaders } from './redact.ts';
import { stretched, type Pace } from './pace.ts';
import { shouldRetry } from './retry-policy.ts';
import { runBudgetLeftMs } from './run-deadline.ts';

export interface ClientOptions {
  /** `to`: the recorder the request carried (RECORD_TO), if any. */
  onExchange?: (e: Exchange, to?: ExchangeRecorder) => void;
  /** Retries after the first attempt, for transport failures and 429 + Retry-After. Default 3. */
  maxRetries?: number;
  /** Per phase: waiting for headers, and silence between body chunks. Default 30 s. */
  requestTimeoutMs?: number;
  userAgent?: string;
  /** Upper bound on one Retry-After wait, so a hostile value cannot stall a nightly run. Default 5 s. */
  retryAfterCapMs?: number;
  /** First backoff after a transport failure, doubled per retry. Default 100 ms. */
  retryBaseDelayMs?: number;
  /**
   * How slow the target answers lately (harness/transport/pace.ts): every answered request's round trip is noted
   * there, and the request timeout above is stretched by it on a busy machine or a slow target.
   */
  pace?: Pace;
  /**
   * What the run's budget has left, ms (a timed-out read is retried only if a whole bound fits).
   * Default: the `--timeout` of the run in this process; the cleanup after the run, which has a bound
   * of its own, passes `() => undefined`.
   */
  budgetLeftMs?: () => number | undefined;
}

/**
 * Keep-alive: how long an idle connection is reused. A server closes an idle connection after its own
 * keep-alive timeout; a request written to it just then is lost with "other side closed", and a write
 * (POST, PATCH) cannot be retried, since the server may have applied it. The race needs the client to
 * reuse a connection near the server's deadline while the server stalls (a busy machine: its timer
 * fires before it reads the request), so the client stops reusing well before: at most 4 s idle, and
 * at least 4 s before the deadline the server advertises (`Keep-Alive: timeout=5` from Node's default
 * server leaves 1 s; a server advertising 4 s or less gets a new connection per request).
 */
const IDLE_REUSE = { keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000, keepAliveTimeoutThreshold: 4_000 } as const;

// Process-wide so exchanges of several clients recorded into one transcript stay ordered and unique.
let nextSeq = 1;

const DEFAULT_USER_AGENT = 'svc-conformance';

export function createTargetClient(cfg: TargetConfig, opts: ClientOptions = {}): Target {
  const maxRetries = opts.maxRetries ?? 3;
  const timeoutMs = opts.requestTimeoutMs ?? 30_000;
  const retryAfterCapMs = opts.retryAfterCapMs ?? 5_000;
  const baseDelayMs = opts.retryBaseDelayMs ?? 100;
  const base = new URL(cfg.server);
  const origin = base.origin;
  // A server URL may carry a path prefix (API proxies such as Rancher's `/k8s/clusters/<id>`).
  const prefix = base.pathname.replace(/\/+$/, '');
  const server = cfg.server.replace(/\/+$/, '');
  const agent = new (undici().Agent)({
    ...IDLE_REUSE,
    connect: {
      ca: cfg.tls.insecureSkipTlsVerify ? undefined : cfg.tls.ca,
      cert: cfg.tls.cert,
      key: cfg.tls.key,
      rejectUnauthorized: !cfg.tls.insecureSkipTlsVerify,
      servername: cfg.tls.servername,
      timeout: Math.min(timeoutMs, 10_000),
    },
  });
  const baseHeaders = lowerCaseKeys({ 'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT, accept: 'application/json', ...cfg.headers });
  // Closed while a check still used it (a run stopped by its deadline or a signal abandons its
  // checks): what fails then is the run's own doing, never the target's.
  let clientClosed = false;
  const stoppedByRun = (what: string) => new InfrastructureError(`${what}: stopped by the run (its client was closed)`, STOPPED_BY_RUN);

  /**
   * One request through undici's dispatcher with a handler of our own: the body is collected as it
   * comes, with none of the request API's per-request stream, abort signal and async resource (a
   * large share of the CLI's CPU was in them, issue 28).
   */
  function attempt(req: TargetRequest, headers: Record<string, string>, body: string | Uint8Array | undefined, waitMs: number): Promise<TargetResponse> {
    return new Promise<TargetResponse>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      let overdue: Error | undefined;
      let settled = false;
      let status = 0;
      let responseHeaders: Record<string, string> = {};
      const chunks: Buffer[] = [];
      // The whole answer within the bound, not only each chunk: a body trickled one byte a second never
      // trips a body timeout (issue 32, hostile fault trickle-body).
      const timer = req.stream
        ? undefined
        : setTimeout(() => {
            overdue = Object.assign(new Error(`response not complete within ${waitMs} ms`), { code: RESPONSE_TIMEOUT });
            controller?.abort(overdue);
          }, waitMs);
      const settle = (err: unknown, response?: TargetResponse): void => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        if (response !== undefined && overdue === undefined) resolve(response);
        else reject(overdue ?? err);
      };
      agent.dispatch(
        {
          origin,
          path: prefix + req.path + queryToString(req.query),
          method: req.method,
          headers,
          body: body ?? null,
          headersTimeout: waitMs,
          // Streams (watch) may be silent for minutes by design; everything else must keep flowing.
          bodyTimeout: req.stream ? 0 : waitMs,
        },
        {
          onRequestStart: (c) => {
            controller = c;
            if (overdue !== undefined) c.abort(overdue);
          },
          onResponseStart: (_c, statusCode, h) => {
            // 1xx answers are interim: the final one follows.
            if (statusCode < 200) return;
            status = statusCode;
            responseHeaders = flattenHeaders(h);
          },
          onResponseData: (_c, chunk) => {
            chunks.push(chunk);
          },
          // Always read to the end: the answer settles only once its body is complete.
          onResponseEnd: () => settle(undefined, responseOf(status, responseHeaders, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))),
          onResponseError: (_c, err) => settle(err),
        },
      );
    });
  }

  function responseOf(status: number, responseHeaders: Record<string, string>, bytes: Buffer): TargetResponse {
    const bodyText = bytes.toString('utf8');
    const binary = /protobuf|octet-stream/i.test(responseHeaders['content-type'] ?? '');
    return { status, headers: responseHeaders, bodyText, json: parseJsonBody(responseHeaders['content-type'], bodyText), ...(binary ? { bodyBytes: new Uint8Array(bytes) } : {}) };
  }

  function report(e: Omit<Exchange, 'seq'>, to: ExchangeRecorder | undefined): void {
    opts.onExchange?.({ seq: nextSeq++, ...e }, to);
  }

  return {
    server,
    async send(tagged: TargetRequest): Promise<TargetResponse> {
      const { [RECORD_TO]: to, ...req } = tagged;
      const body = serialiseBody(req.body);
      const sentBodyBytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      const headers = { ...baseHeaders, ...lowerCaseKeys(req.headers ?? {}) };
      if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
      // The transcript holds what went on the wire, minus credentials.
      const recorded: TargetRequest = { ...req, headers: redactHeaders(headers) };
      const what = `${req.method} ${req.path}${queryToString(req.query)}`;
      let timeouts = 0;
      if (clientClosed) throw stoppedByRun(what);
      for (let retries = 0; ; retries++) {
        const startedAtMs = Date.now();
        const t0 = performance.now();
        const waitMs = stretched(opts.pace, timeoutMs);
        let response: TargetResponse;
        try {
          response = await attempt(req, headers, body, waitMs);
        } catch (err) {
          if (clientClosed) throw stoppedByRun(what);
          const failure = classifyTransportError(err, waitMs);
          if (failure === undefined) throw err;
          const timedOut = TIMEOUT_CODES.has(failure.code);
          if (timedOut) timeouts++;
          const failed = { method: req.method, beforeSend: failure.beforeSend, transient: failure.transient, timedOut };
          if (shouldRetry(failed, { retries, timeouts }, { maxRetries, attemptBoundMs: waitMs, budgetLeftMs: (opts.budgetLeftMs ?? runBudgetLeftMs)() })) {
            // A timed-out attempt already waited a whole bound: no backoff on top.
            if (!timedOut) await sleep(baseDelayMs * 2 ** retries);
            continue;
          }
          report({ request: recorded, transportError: failure.text, startedAtMs, durationMs: performance.now() - t0, sentBodyBytes }, to);
          const tries = retries > 0 ? ` (after ${retries + 1} attempts)` : '';
          const message = failure.beforeSend ? `cannot reach ${server}: ${failure.text}${tries}` : `${what} to ${server}: ${failure.text}${tries}`;
          throw new InfrastructureError(message, failure.code);
        }
        const durationMs = performance.now() - t0;
        if (!req.stream) opts.pace?.note(durationMs);
        report({ request: recorded, response, startedAtMs, durationMs, sentBodyBytes }, to);
        const retryAfterMs = response.status === 429 ? parseRetryAfter(response.headers['retry-after'], Date.now()) : undefined;
        if (retryAfterMs === undefined) return response;
        if (retries >= maxRetries) {
          throw new InfrastructureError(
            `${what} to ${server}: still 429 Too Many Requests after ${retries + 1} attempts (Retry-After: ${response.headers['retry-after'] ?? ''})`,
            response.bodyText.slice(0, 500),
          );
        }
        await sleep(Math.min(retryAfterMs, retryAfterCapMs));
      }
    },
    async openStream(tagged: TargetRequest): Promise<StreamResponse> {
      const { [RECORD_TO]: to, ...req } = tagged;
      const headers = { ...baseHeaders, ...lowerCaseKeys(req.headers ?? {}) };
      const recorded: TargetRequest = { ...req, headers: redactHeaders(headers) };
      const startedAtMs = Date.now();
      const t0 = performance.now();
      let res: Dispatcher.ResponseData;
      for (let retries = 0; ; retries++) {
        try {
          res = await agent.request({ origin, path: prefix + req.path + queryToString(req.query), method: 'GET', headers, headersTimeout: timeoutMs, bodyTimeout: 0 });
        } catch (err) {
          const failure = classifyTransportError(err, timeoutMs);
          if (failure === undefined) throw err;
          report({ request: recorded, transportError: failure.text, startedAtMs, durationMs: performance.now() - t0 }, to);
          throw new InfrastructureError(`cannot open a watch on ${server}: ${failure.text}`, failure.code);
        }
        // Rate limiting is infrastructure, as for every other request: honour Retry-After, bounded.
        const retryAfter = res.statusCode === 429 ? res.headers['retry-after'] : undefined;
        const waitMs = typeof retryAfter === 'string' ? parseRetryAfter(retryAfter, Date.now()) : undefined;
        if (waitMs === undefined) break;
        await res.body.text();
        if (retries >= maxRetries) throw new InfrastructureError(`GET ${req.path} (watch) to ${server}: still 429 Too Many Requests after ${retries + 1} attempts`);
        await sleep(Math.min(waitMs, retryAfterCapMs));
      }
      const responseHeaders = flattenHeaders(res.headers);
      const received: Buffer[] = [];
      let closed = false;
      const finish = () => {
        if (closed) return;
        closed = true;
        const bodyText = Buffer.concat(received).toString('utf8');
        report({ request: recorded, response: { status: res.statusCode, headers: responseHeaders, bodyText, json: undefined }, startedAtMs, durationMs: performance.now() - t0 }, to);
      };
      const body = res.body;
      // destroy() makes undici emit 'error' (aborted); a body nobody iterates (a watch refused with a
      // non-200 answer is closed unread) would take the process down with it as an unhandled event.
      body.on('error', () => undefined);
      async function* chunks(): AsyncGenerator<Uint8Array> {
        try {
          for await (const c of body) {
            received.push(c as Buffer);
            yield c as Uint8Array;
          }
        } catch (err) {
          // A stream cut by close() or by the server ends the iteration; the judges see what arrived.
          if (!closed && classifyTransportError(err, timeoutMs) === undefined) throw err;
        } finally {
          finish();
        }
      }
      return {
        status: res.statusCode,
        headers: responseHeaders,
        chunks: chunks(),
        close: () => {
          finish();
          // A stream never iterated has no reader to take the abort: without a listener it would crash the run.
          body.on('error', () => undefined);
          body.destroy();
        },
      };
    },
    async close(): Promise<void> {
      clientClosed = true;
      await agent.close();
    },
  };
}

/** Response headers with lower-case names and repeated values joined, as TargetResponse carries them. */
function flattenHeaders(headers: Dispatcher.ResponseData['headers'] | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Throws InfrastructureError with one line unless the target answers `/version` at HTTP level. Any
 * status counts as reachable: a 401 or 404 is the suite's business, not a connectivity problem.
 * Returns the gitVersion it reports, if any.
 */
export async function checkReachable(target: Target): Promise<string | undefined> {
  try {
    const r = await target.send({ method: 'GET', path: '/version' });
    // The release it reports, for expectations limited to a release range.
    const v = (r.json as { gitVersion?: unknown } | undefined)?.gitVersion;
    return r.status === 200 && typeof v === 'string' && v !== '' ? v : undefined;
  } catch (err) {
    if (!(err instanceof InfrastructureError)) throw err;
    if (err.message.startsWith('cannot reach ')) throw err;
    throw new InfrastructureError(`cannot reach ${target.server}: ${err.message}`, err.detail);
  }
}

export function serialiseBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined) return undefined;
  // Raw bodies let suites send YAML apply patches and deliberately malformed JSON.
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

function parseJsonBody(contentType: string | undefined, text: string): unknown {
  const looksJson = contentType === undefined ? /^\s*[[{]/.test(text) : /[/+]json\b/i.test(contentType);
  if (!looksJson || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After as delta seconds or HTTP date (RFC 9110 10.2.3); undefined when absent or unusable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

interface TransportFailure {
  readonly text: string;
  readonly code: string;
  /** The request certainly did not reach the server, so any method may be retried. */
  readonly beforeSend: boolean;
  readonly transient: boolean;
}

const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EAI_AGAIN: 'temporary DNS failure',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

const UNTRUSTED_CODES = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT']);

/** undefined: not a transport failure (a bug in the caller, such as an invalid header), rethrow as is. */
/** Our code for an answer that did not complete within the request bound (headers and the whole body). */
const RESPONSE_TIMEOUT = 'SVC_RESPONSE_TIMEOUT';
/** The code of a request the run itself cut (its client closed under it). */
export const STOPPED_BY_RUN = 'SVC_STOPPED_BY_RUN';
const TIMEOUT_CODES: ReadonlySet<string | undefined> = new Set([RESPONSE_TIMEOUT, 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function classifyTransportError(err: unknown, timeoutMs: number): TransportFailure | undefined {
  const { code, message } = rootCause(err);
  const connectText = CONNECT_CODES[code];
  if (connectText !== undefined) return { text: connectText, code, beforeSend: true, transient: true };
  if (code === 'ENOTFOUND') return { text: `host not found (${firstLine(message)})`, code, beforeSend: true, transient: false };
  if (UNTRUSTED_CODES.has(code)) {
    return {
      text: `TLS: server certificate not trusted (${code}); set certificate-authority or pass --insecure-skip-tls-verify`,
      code,
      beforeSend: true,
      transient: false,
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { text: `TLS: ${firstLine(message)}`, code, beforeSend: true, transient: false };
  if (code.startsWith('CERT_') || code.startsWith('ERR_SSL_') || code === 'EPROTO' || code.startsWith('ERR_TLS_')) {
    return { text: `TLS: ${firstLine(message)} (${code})`, code, beforeSend: true, transient: false };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') return { text: 'connection reset by peer', code, beforeSend: false, transient: true };
  if (code === 'UND_ERR_SOCKET') return { text: `connection closed (${firstLine(message)})`, code, beforeSend: false, transient: true };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { text: `no response within ${timeoutMs} ms`, code, beforeSend: false, transient: true };
  if (code === RESPONSE_TIMEOUT) return { text: `response not complete within ${timeoutMs} ms`, code, beforeSend: false, transient: true };
  if (code === 'UND_ERR_BODY_TIMEOUT') return { text: `response body stalled for ${timeoutMs} ms`, code, beforeSend: false, transient: true };
  if (code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED') return { text: 'client closed', code, beforeSend: true, transient: false };
  if (code.startsWith('E') && /^E[A-Z_]+$/.test(code)) return { text: `${code}: ${firstLine(message)}`, code, beforeSend: false, transient: false };
  return undefined;
}

function rootCause(err: unknown): { code: string; message: string } {
  let cur: unknown = err;
  for (let depth = 0; depth < 5 && cur !== null && typeof cur === 'object'; depth++) {
    const e = cur as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string' && e.code !== 'UND_ERR') return { code: e.code, message: String(e.message ?? '') };
    // Happy-eyeballs connects (localhost -> ::1, 127.0.0.1) fail with an AggregateError per address.
    cur = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause;
  }
  return { code: '', message: err instanceof Error ? err.message : String(err) };
}

function firstLine(s: string): string {
  return s.split('\n', 1)[0] ?? '';
}

function lowerCaseKeys(h: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
