/**
 * One client's connection to the target (client.ts): the undici Agent, the bounds its requests run
 * within, and one attempt of a request through the dispatcher. Apart from the retries and the
 * watches, which take it as an argument.
 */
import type { Dispatcher } from 'undici';
import { undici } from './lazy-undici.ts';
import {
  InfrastructureError,
  queryToString,
  type Exchange,
  type ExchangeRecorder,
  type TargetRequest,
  type TargetResponse,
} from './exchange.ts';
import type { TargetConfig } from './kubeconfig.ts';
import type { Pace } from './pace.ts';
import { RESPONSE_TIMEOUT, STOPPED_BY_RUN } from './transport-errors.ts';
import { flattenHeaders, lowerCaseKeys, responseOf } from './http-wire.ts';
import { tellTaps } from './exchange-tap.ts';

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

/** What every request of one client shares. */
export interface Connection {
  readonly opts: ClientOptions;
  readonly agent: Dispatcher;
  readonly origin: string;
  /** A path prefix of the server URL (API proxies such as Rancher's `/k8s/clusters/<id>`), no trailing slash. */
  readonly prefix: string;
  readonly server: string;
  readonly baseHeaders: Readonly<Record<string, string>>;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly retryAfterCapMs: number;
  readonly baseDelayMs: number;
  /**
   * Closed while a check still used it (a run stopped by its deadline or a signal abandons its
   * checks): what fails then is the run's own doing, never the target's.
   */
  closed: boolean;
}

export function connect(cfg: TargetConfig, opts: ClientOptions): Connection {
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
  return { opts, agent, origin, prefix, server, baseHeaders, maxRetries, timeoutMs, retryAfterCapMs, baseDelayMs, closed: false };
}

export const stoppedByRun = (what: string) =>
  new InfrastructureError(`${what}: stopped by the run (its client was closed)`, STOPPED_BY_RUN);

/** Hands one exchange to the client's recorder, numbered process-wide. */
export function report(conn: Connection, e: Omit<Exchange, 'seq'>, to: ExchangeRecorder | undefined): void {
  const exchange = { seq: nextSeq++, ...e };
  conn.opts.onExchange?.(exchange, to);
  tellTaps(conn.server, exchange);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One request through undici's dispatcher with a handler of our own: the body is collected as it
 * comes, with none of the request API's per-request stream, abort signal and async resource (a
 * large share of the CLI's CPU was in them, issue 28).
 */
export function attempt(
  conn: Connection,
  req: TargetRequest,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  waitMs: number,
): Promise<TargetResponse> {
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
    conn.agent.dispatch(
      {
        origin: conn.origin,
        path: conn.prefix + req.path + queryToString(req.query),
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
        onResponseEnd: () =>
          settle(undefined, responseOf(status, responseHeaders, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))),
        onResponseError: (_c, err) => settle(err),
      },
    );
  });
}
