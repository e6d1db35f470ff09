/** Throwaway loopback HTTP(S) servers for the harness tests, with the committed TLS fixtures. */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';

export const TLS_DIR = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
export const fixture = (name: string): string => readFileSync(TLS_DIR + name, 'utf8');

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** CN of the verified client certificate, if one was presented and verified. */
  readonly clientCn?: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen, index: number) => void;

export interface TestServer {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

async function start(server: Server, scheme: 'http' | 'https', handler: Handler, seen: Seen[]): Promise<TestServer> {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as Partial<TLSSocket>;
      const peer = socket.authorized ? socket.getPeerCertificate?.() : undefined;
      const cn = peer?.subject?.CN;
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        ...(typeof cn === 'string' ? { clientCn: cn } : {}),
      };
      seen.push(entry);
      handler(req, res, entry, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export function startHttp(handler: Handler): Promise<TestServer> {
  return start(createHttpServer(), 'http', handler, []);
}

export function startHttps(handler: Handler, opts: { requestCert?: boolean } = {}): Promise<TestServer> {
  const server = createHttpsServer({
    key: fixture('server.key'),
    cert: fixture('server.crt'),
    ca: fixture('ca.crt'),
    requestCert: opts.requestCert === true,
    rejectUnauthorized: false,
  });
  return start(server, 'https', handler, []);
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createHttpServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
