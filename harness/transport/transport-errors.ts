/**
 * What went wrong below HTTP, in one line a person can act on (a refused connection, an untrusted
 * certificate, a stalled answer), and whether the request may have reached the server: the client
 * (client.ts) retries by it. Also Retry-After, the one header that makes an answer a wait.
 */
/** Retry-After as delta seconds or HTTP date (RFC 9110 10.2.3); undefined when absent or unusable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface TransportFailure {
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

const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);

/** undefined: not a transport failure (a bug in the caller, such as an invalid header), rethrow as is. */
/** Our code for an answer that did not complete within the request bound (headers and the whole body). */
export const RESPONSE_TIMEOUT = 'SVC_RESPONSE_TIMEOUT';
/** The code of a request the run itself cut (its client closed under it). */
export const STOPPED_BY_RUN = 'SVC_STOPPED_BY_RUN';
export const TIMEOUT_CODES: ReadonlySet<string | undefined> = new Set([
  RESPONSE_TIMEOUT,
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

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
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return { text: `response body stalled for ${timeoutMs} ms`, code, beforeSend: false, transient: true };
  if (code === 'UND_ERR_CLOSED' || code === 'UND_ERR_DESTROYED') return { text: 'client closed', code, beforeSend: true, transient: false };
  if (code.startsWith('E') && /^E[A-Z_]+$/.test(code))
    return { text: `${code}: ${firstLine(message)}`, code, beforeSend: false, transient: false };
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
