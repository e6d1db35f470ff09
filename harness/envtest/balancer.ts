/**
 * A round-robin TCP balancer on loopback, the shape of every HA cluster's front door: each new client
 * connection is piped, bytes untouched (TLS passes through), to the next backend in turn. A client that
 * keeps its connection stays on one server; a client that opens several (a connection pool, a watch
 * beside a list) meets several servers, which is what the suite must be ready for.
 *
 * A backend that refuses, or does not accept within `connectTimeoutMs`, closes the client connection
 * (the client sees a reset or an end, never a hang); the next connection goes to the next backend.
 *
 *   const lb = await startBalancer([{ port: 6443 }, { port: 6444 }]);
 *   // https://127.0.0.1:${lb.port} -> 6443, 6444, 6443, ...
 *   await lb.stop();
 */
import { connect, createServer, type Socket } from 'node:net';

export interface Backend {
  readonly host?: string;
  readonly port: number;
}

export interface BalancerOptions {
  /** Port to listen on (127.0.0.1); default: a free one. */
  readonly port?: number;
  /** Longest wait for a backend to accept a connection. */
  readonly connectTimeoutMs?: number;
}

export interface Balancer {
  readonly port: number;
  /** Connections handed to each backend so far (index as in the list given). */
  counts(): readonly number[];
  /** Stops listening and closes every open connection, both sides. */
  stop(): Promise<void>;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export function startBalancer(backends: readonly Backend[], o: BalancerOptions = {}): Promise<Balancer> {
  if (backends.length === 0) return Promise.reject(new Error('a balancer needs at least one backend'));
  const connectTimeoutMs = o.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const counts = backends.map(() => 0);
  const open = new Set<Socket>();
  let next = 0;
  const track = (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };

  const server = createServer((client) => {
    const i = next;
    next = (next + 1) % backends.length;
    counts[i]!++;
    track(client);
    const b = backends[i]!;
    const upstream = connect({ host: b.host ?? '127.0.0.1', port: b.port });
    track(upstream);
    // Until the backend accepts, a timeout is a dead backend; after, an idle watch is no reason to cut.
    upstream.setTimeout(connectTimeoutMs, () => upstream.destroy());
    upstream.once('connect', () => upstream.setTimeout(0));
    // Either side ending or failing ends the other: no half-open pair is left waiting.
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', closeBoth);
    client.once('error', closeBoth);
    upstream.once('close', closeBoth);
    client.once('close', closeBoth);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.removeListener('error', reject);
      const a = server.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      let stopped: Promise<void> | undefined;
      resolve({
        port,
        counts: () => [...counts],
        stop: () =>
          (stopped ??= new Promise<void>((done) => {
            server.close(() => done());
            for (const s of open) s.destroy();
          })),
      });
    });
  });
}
