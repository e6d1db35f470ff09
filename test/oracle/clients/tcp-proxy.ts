/**
 * A loopback TCP proxy in front of the reference server, so a client test can cut a client's
 * connections (a watch dropped mid-stream) and hold new ones back while it changes the server,
 * without any hook in the server.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  readonly url: string;
  /** Connections accepted so far (each is a fresh TCP connection from the client). */
  readonly accepted: () => number;
  /** New connections wait (not refused) until `release`. */
  hold(): void;
  release(): void;
  /** Destroys every open client and upstream socket. */
  dropAll(): void;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const waiting: Socket[] = [];
  let holding = false;
  let accepted = 0;
  const track = (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
    s.on('error', () => s.destroy());
  };
  const forward = (client: Socket) => {
    if (client.destroyed) return;
    const upstream = connect({ host: hostname, port: Number(port) });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.resume();
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    accepted++;
    track(client);
    if (holding) waiting.push(client);
    else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const c of waiting.splice(0)) forward(c);
    },
    dropAll: () => {
      for (const s of [...open]) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of [...open, ...waiting]) s.destroy();
        server.close(() => resolve());
      }),
  };
}
