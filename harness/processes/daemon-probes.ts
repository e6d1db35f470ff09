/**
 * What the controller daemon serves, seen from outside (controller-daemon.ts watches a start with it): a
 * free port for it, an HTTPS GET of one path, a TLS handshake, each bounded and retried patiently on a
 * busy machine.
 */
import { createServer } from 'node:net';
import { request, type RequestOptions } from 'node:https';
import { connect as tlsConnect, createSecureContext, type SecureContext, type SecureVersion } from 'node:tls';
import { stretched, type Pace } from '../transport/index.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * One TLS context for every probe: the certificate is not verified, so nothing differs between them,
 * and making a context per connection was most of a probe's cost.
 */
let probeTls: SecureContext | undefined;

/**
 * GET https://127.0.0.1:port/path without verifying the (self-signed) certificate: status, or undefined
 * when nothing answers. How long an answer took is noted in `answers`.
 */
export function probe(port: number, path: string, timeoutMs = 1000, answers?: Pace): Promise<number | undefined> {
  const t0 = performance.now();
  probeTls ??= createSecureContext();
  return new Promise((resolve) => {
    // `secureContext` is tls.connect's; https passes its options on to it.
    const options: RequestOptions & { secureContext?: SecureContext } = {
      host: '127.0.0.1',
      port,
      path,
      method: 'GET',
      rejectUnauthorized: false,
      secureContext: probeTls,
      timeout: timeoutMs,
    };
    const req = request(options, (res) => {
      answers?.note(performance.now() - t0);
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

/** What a patient probe saw: the status, or nothing within the longest timeout it tried. */
export interface PatientProbe {
  readonly status: number | undefined;
  /** The timeout of the last attempt, ms (named in an inconclusive verdict). */
  readonly waitedMs: number;
}

/**
 * `probe`, asked again with a doubled timeout while nothing answers (`attempts` tries), the first
 * timeout stretched by how late the daemon answered lately: an answer that comes late on a busy
 * machine is still an answer, and no answer at all decides nothing.
 */
export async function probePatiently(
  port: number,
  path: string,
  firstTimeoutMs: number,
  answers?: Pace,
  attempts = 3,
): Promise<PatientProbe> {
  let timeoutMs = stretched(answers, firstTimeoutMs);
  for (let i = 1; ; i++, timeoutMs *= 2) {
    const status = await probe(port, path, timeoutMs, answers);
    if (status !== undefined || i >= attempts) return { status, waitedMs: timeoutMs };
  }
}

/** `timedOut`: no answer at all within the timeout, which is neither a refusal nor an acceptance. */
export type Handshake =
  | { readonly ok: true; readonly protocol: string; readonly fingerprint256: string }
  | { readonly ok: false; readonly error: string; readonly timedOut?: true };

/** A TLS handshake with 127.0.0.1:port (certificate not verified): the protocol and the served certificate, or why it failed. */
export function tlsHandshake(
  port: number,
  o: { maxVersion?: SecureVersion; minVersion?: SecureVersion; servername?: string; ciphers?: string; timeoutMs?: number } = {},
): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port,
      rejectUnauthorized: false,
      maxVersion: o.maxVersion,
      minVersion: o.minVersion,
      ...(o.servername ? { servername: o.servername } : {}),
      ...(o.ciphers ? { ciphers: o.ciphers } : {}),
    });
    const timeoutMs = o.timeoutMs ?? 3000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy(new Error(`no handshake answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve({ ok: true, protocol: socket.getProtocol() ?? '', fingerprint256: socket.getPeerX509Certificate()?.fingerprint256 ?? '' });
      socket.end();
    });
    socket.once('error', (e) => {
      clearTimeout(timer);
      resolve({ ok: false, error: e.message, timedOut: timedOut ? true : undefined });
    });
  });
}

/**
 * `tlsHandshake`, tried again with a doubled timeout while it gets no answer at all (`attempts` tries),
 * the first timeout stretched by `answers`, where how long each answered handshake took is noted.
 */
export async function handshakePatiently(
  port: number,
  o: Parameters<typeof tlsHandshake>[1] & { timeoutMs: number },
  answers?: Pace,
  attempts = 3,
): Promise<Handshake> {
  let timeoutMs = stretched(answers, o.timeoutMs);
  for (let i = 1; ; i++, timeoutMs *= 2) {
    const t0 = performance.now();
    const h = await tlsHandshake(port, { ...o, timeoutMs });
    if (!(!h.ok && h.timedOut)) answers?.note(performance.now() - t0);
    if (h.ok || !h.timedOut || i >= attempts) return h;
  }
}
