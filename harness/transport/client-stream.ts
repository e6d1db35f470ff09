/**
 * A watch through the client (client.ts): the answer's chunks as they arrive, read until the stream
 * ends or the caller closes it, and recorded then with everything that came.
 */
import type { Dispatcher } from 'undici';
import { InfrastructureError, queryToString, RECORD_TO, type StreamResponse, type TargetRequest } from './exchange.ts';
import { redactHeaders } from './redact.ts';
import { classifyTransportError, parseRetryAfter } from './transport-errors.ts';
import { flattenHeaders, lowerCaseKeys } from './http-wire.ts';
import { report, sleep, type Connection } from './client-connection.ts';

/** A watch: its answer's chunks as they come, recorded once the stream ends or is closed. */
export async function openStream(conn: Connection, tagged: TargetRequest): Promise<StreamResponse> {
  const { [RECORD_TO]: to, ...req } = tagged;
  const headers = { ...conn.baseHeaders, ...lowerCaseKeys(req.headers ?? {}) };
  const recorded: TargetRequest = { ...req, headers: redactHeaders(headers) };
  const startedAtMs = Date.now();
  const t0 = performance.now();
  let res: Dispatcher.ResponseData;
  for (let retries = 0; ; retries++) {
    try {
      res = await conn.agent.request({
        origin: conn.origin,
        path: conn.prefix + req.path + queryToString(req.query),
        method: 'GET',
        headers,
        headersTimeout: conn.timeoutMs,
        bodyTimeout: 0,
      });
    } catch (err) {
      const failure = classifyTransportError(err, conn.timeoutMs);
      if (failure === undefined) throw err;
      report(conn, { request: recorded, transportError: failure.text, startedAtMs, durationMs: performance.now() - t0 }, to);
      throw new InfrastructureError(`cannot open a watch on ${conn.server}: ${failure.text}`, failure.code);
    }
    // Rate limiting is infrastructure, as for every other request: honour Retry-After, bounded.
    const retryAfter = res.statusCode === 429 ? res.headers['retry-after'] : undefined;
    const waitMs = typeof retryAfter === 'string' ? parseRetryAfter(retryAfter, Date.now()) : undefined;
    if (waitMs === undefined) break;
    await res.body.text();
    if (retries >= conn.maxRetries)
      throw new InfrastructureError(`GET ${req.path} (watch) to ${conn.server}: still 429 Too Many Requests after ${retries + 1} attempts`);
    await sleep(Math.min(waitMs, conn.retryAfterCapMs));
  }
  const responseHeaders = flattenHeaders(res.headers);
  const received: Buffer[] = [];
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    const bodyText = Buffer.concat(received).toString('utf8');
    report(
      conn,
      {
        request: recorded,
        response: { status: res.statusCode, headers: responseHeaders, bodyText, json: undefined },
        startedAtMs,
        durationMs: performance.now() - t0,
      },
      to,
    );
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
      if (!closed && classifyTransportError(err, conn.timeoutMs) === undefined) throw err;
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
}
