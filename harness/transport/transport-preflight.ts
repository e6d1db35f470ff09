/**
 * The first contact with a target, which names the usual misconfigurations in one line instead of
 * letting every check fail on them: plain HTTP spoken to an HTTPS port (and the reverse), a port that
 * accepts connections and never answers. Two reads go out at once on fresh connections, each bounded
 * by a few seconds: one request a target happens to hold (a hostile fault holds every seventh) must not
 * stop a run, while a target that answers neither is not worth a run.
 *
 * When both fail on the transport, a raw probe of the other protocol on the same port decides: a TLS
 * handshake that completes means the port speaks HTTPS, an `HTTP/1.x` status line to a plain request
 * means it speaks HTTP. Go's servers answer plain HTTP on a TLS port with a 400 that says so; that
 * answer is recognised too (it reaches us as a response, not a transport failure).
 */
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { TargetConfig } from './kubeconfig.ts';
import { createTargetClient } from './client.ts';
import { InfrastructureError, type TargetResponse } from './exchange.ts';

/** How long a target may stay silent on the first reads before the run calls it unresponsive. */
export const PROBE_SILENCE_MS = 5_000;
/** The raw probe of the other protocol, once both reads failed. */
const OTHER_PROTOCOL_MS = 2_000;

/** Go's net/http answer to a plain request on a TLS listener (kube-apiserver, most Go servers). */
const GO_PLAIN_ON_TLS = 'Client sent an HTTP request to an HTTPS server';

/** What the first reads got: `/version`'s release and each read's status, for the preflight. */
export interface FirstContact {
  readonly release: string | undefined;
  readonly answers: readonly { readonly call: string; readonly res: TargetResponse }[];
}

const FIRST_READS = ['/version', '/api'] as const;

/** Throws InfrastructureError with one line when the target cannot be worked with at all. */
export async function firstContact(cfg: TargetConfig, o: { silenceMs?: number; otherProtocolMs?: number } = {}): Promise<FirstContact> {
  const silenceMs = o.silenceMs ?? PROBE_SILENCE_MS;
  // A connection reset or refused is tried once more (a flaky balancer); silence is not (no budget
  // left for a second bound), so a silent port costs one bound.
  const client = createTargetClient(cfg, { maxRetries: 1, requestTimeoutMs: silenceMs, budgetLeftMs: () => 0 });
  let results: PromiseSettledResult<TargetResponse>[];
  try {
    results = await Promise.allSettled(FIRST_READS.map((path) => client.send({ method: 'GET', path })));
  } finally {
    void client.close().catch(() => undefined);
  }
  const answers = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ call: `GET ${FIRST_READS[i]!}`, res: r.value }] : []));
  const url = new URL(cfg.server);
  if (answers.some((a) => a.res.status === 400 && a.res.bodyText.includes(GO_PLAIN_ON_TLS)))
    throw new InfrastructureError(speaksOther(cfg, url, 'https'));
  if (answers.length > 0) {
    const version = answers.find((a) => a.call === 'GET /version')?.res;
    const v = (version?.json as { gitVersion?: unknown } | undefined)?.gitVersion;
    return { release: version?.status === 200 && typeof v === 'string' && v !== '' ? v : undefined, answers };
  }

  const failures = results.map((r) => (r as PromiseRejectedResult).reason as unknown);
  const first = failures[0];
  if (!(first instanceof InfrastructureError)) throw first;
  const codes = failures.map((f) => (f instanceof InfrastructureError ? (f.detail ?? '') : ''));
  // Nothing listens, no route, no such host: the client's own line says it.
  if (codes.some((c) => REFUSED.has(c))) throw withPrefix(first, cfg.server);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const otherMs = o.otherProtocolMs ?? OTHER_PROTOCOL_MS;
  if (url.protocol === 'http:' && (await completesTlsHandshake(host, port, otherMs)))
    throw new InfrastructureError(speaksOther(cfg, url, 'https'));
  if (url.protocol === 'https:' && (await answersPlainHttp(host, port, otherMs)))
    throw new InfrastructureError(speaksOther(cfg, url, 'http'));
  if (codes.every((c) => SILENT.has(c)) && (await acceptsConnections(host, port, otherMs))) {
    throw new InfrastructureError(
      `cannot reach ${cfg.server}: it accepts connections but answered neither GET /version nor GET /api within ${Math.round(silenceMs / 1000)} s; is that the API server's address and port (from ${cfg.source})?`,
    );
  }
  throw withPrefix(first, cfg.server);
}

const REFUSED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SILENT: ReadonlySet<string> = new Set([
  'SVC_RESPONSE_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

/** The one line for a URL whose scheme the port does not speak, with the URL that would work. */
function speaksOther(cfg: TargetConfig, url: URL, spoken: 'http' | 'https'): string {
  const fixed = new URL(url.href);
  fixed.protocol = `${spoken}:`;
  const given = url.protocol === 'https:' ? 'HTTPS (TLS)' : 'plain HTTP';
  const actual = spoken === 'https' ? 'HTTPS (TLS)' : 'plain HTTP';
  return `cannot reach ${cfg.server}: the port speaks ${actual}, not ${given}: the server URL (from ${cfg.source}) should start with ${spoken}://, e.g. ${fixed.href.replace(/\/$/, '')}`;
}

function withPrefix(e: InfrastructureError, server: string): InfrastructureError {
  return e.message.startsWith('cannot reach ') ? e : new InfrastructureError(`cannot reach ${server}: ${e.message}`, e.detail);
}

/** Resolves once `socket` has done `event`, false on error, close or the bound. */
function settles(socket: Socket, event: string, ms: number, onEvent: () => boolean = () => true): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once(event, () => done(onEvent()));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

function completesTlsHandshake(host: string, port: number, ms: number): Promise<boolean> {
  // Any certificate will do: the question is which protocol the port speaks, not whom to trust.
  const socket = tlsConnect({ host, port, rejectUnauthorized: false, ...(isIP(host) === 0 ? { servername: host } : {}) });
  return settles(socket, 'secureConnect', ms);
}

function answersPlainHttp(host: string, port: number, ms: number): Promise<boolean> {
  const socket = tcpConnect({ host, port });
  let got = '';
  socket.on('connect', () => socket.write(`GET /version HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
  socket.on('data', (d: Buffer) => {
    got += d.toString('latin1');
    if (got.length >= 12) socket.emit('status-line');
  });
  return settles(socket, 'status-line', ms, () => /^HTTP\/1\.[01] \d{3}/.test(got));
}

function acceptsConnections(host: string, port: number, ms: number): Promise<boolean> {
  return settles(tcpConnect({ host, port }), 'connect', ms);
}
