/**
 * The HTTP client every suite talks to (harness/transport, docs/architecture.md "Layers"), on an undici 7 Agent. It turns transport
 * trouble and rate limiting into InfrastructureError after bounded retries, and returns every other
 * response, whatever its status, as an observation for the oracle.
 */
import { InfrastructureError, queryToString, RECORD_TO, type Target, type TargetRequest, type TargetResponse } from './exchange.ts';
import type { TargetConfig } from './kubeconfig.ts';
import { redactHeaders } from './redact.ts';
import { stretched } from './pace.ts';
import { shouldRetry } from './retry-policy.ts';
import { runBudgetLeftMs } from './run-deadline.ts';
import { classifyTransportError, parseRetryAfter, TIMEOUT_CODES } from './transport-errors.ts';
import { lowerCaseKeys, serialiseBody } from './http-wire.ts';
import { attempt, connect, report, sleep, stoppedByRun, type ClientOptions, type Connection } from './client-connection.ts';
import { openStream } from './client-stream.ts';

// Their users (identities, the self-tests) take these from the client, as before the client was split.
export type { ClientOptions } from './client-connection.ts';
export { classifyTransportError, parseRetryAfter, STOPPED_BY_RUN } from './transport-errors.ts';
export { serialiseBody } from './http-wire.ts';

export function createTargetClient(cfg: TargetConfig, opts: ClientOptions = {}): Target {
  const conn = connect(cfg, opts);
  return {
    server: conn.server,
    send: (tagged) => sendRequest(conn, tagged),
    openStream: (tagged) => openStream(conn, tagged),
    async close(): Promise<void> {
      conn.closed = true;
      await conn.agent.close();
    },
  };
}

/** One request, retried within bounds (transport trouble, 429 with Retry-After), recorded as sent. */
async function sendRequest(conn: Connection, tagged: TargetRequest): Promise<TargetResponse> {
  const { [RECORD_TO]: to, ...req } = tagged;
  const body = serialiseBody(req.body);
  const sentBodyBytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const headers = { ...conn.baseHeaders, ...lowerCaseKeys(req.headers ?? {}) };
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  // The transcript holds what went on the wire, minus credentials.
  const recorded: TargetRequest = { ...req, headers: redactHeaders(headers) };
  const what = `${req.method} ${req.path}${queryToString(req.query)}`;
  let timeouts = 0;
  if (conn.closed) throw stoppedByRun(what);
  for (let retries = 0; ; retries++) {
    const startedAtMs = Date.now();
    const t0 = performance.now();
    const waitMs = stretched(conn.opts.pace, conn.timeoutMs);
    let response: TargetResponse;
    try {
      response = await attempt(conn, req, headers, body, waitMs);
    } catch (err) {
      if (conn.closed) throw stoppedByRun(what);
      const failure = classifyTransportError(err, waitMs);
      if (failure === undefined) throw err;
      const timedOut = TIMEOUT_CODES.has(failure.code);
      if (timedOut) timeouts++;
      const failed = { method: req.method, beforeSend: failure.beforeSend, transient: failure.transient, timedOut };
      if (
        shouldRetry(
          failed,
          { retries, timeouts },
          { maxRetries: conn.maxRetries, attemptBoundMs: waitMs, budgetLeftMs: (conn.opts.budgetLeftMs ?? runBudgetLeftMs)() },
        )
      ) {
        // A timed-out attempt already waited a whole bound: no backoff on top.
        if (!timedOut) await sleep(conn.baseDelayMs * 2 ** retries);
        continue;
      }
      report(conn, { request: recorded, transportError: failure.text, startedAtMs, durationMs: performance.now() - t0, sentBodyBytes }, to);
      const tries = retries > 0 ? ` (after ${retries + 1} attempts)` : '';
      const message = failure.beforeSend
        ? `cannot reach ${conn.server}: ${failure.text}${tries}`
        : `${what} to ${conn.server}: ${failure.text}${tries}`;
      throw new InfrastructureError(message, failure.code);
    }
    const durationMs = performance.now() - t0;
    if (!req.stream) conn.opts.pace?.note(durationMs);
    report(conn, { request: recorded, response, startedAtMs, durationMs, sentBodyBytes }, to);
    const retryAfterMs = response.status === 429 ? parseRetryAfter(response.headers['retry-after'], Date.now()) : undefined;
    if (retryAfterMs === undefined) return response;
    if (retries >= conn.maxRetries) {
      throw new InfrastructureError(
        `${what} to ${conn.server}: still 429 Too Many Requests after ${retries + 1} attempts (Retry-After: ${response.headers['retry-after'] ?? ''})`,
        response.bodyText.slice(0, 500),
      );
    }
    await sleep(Math.min(retryAfterMs, conn.retryAfterCapMs));
  }
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
