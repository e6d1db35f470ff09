// The round-robin TCP balancer in front of the HA pair (harness/envtest/balancer.ts): each new
// connection really goes to the next backend, bytes pass untouched both ways, a dead backend closes the
// client's connection instead of leaving it waiting, and stop() closes what is open and frees the port.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../../../harness/processes/controller-daemon.ts';
import { startBalancer, type Balancer } from '../../../harness/envtest/index.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A backend that greets each connection with its name, then echoes what it receives. */
async function backend(name: string): Promise<{ port: number; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.write(`${name}\n`);
    s.pipe(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(
    () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as { port: number }).port, server };
}

async function balancer(ports: number[]): Promise<Balancer> {
  const lb = await startBalancer(ports.map((port) => ({ port })));
  cleanup.push(() => lb.stop());
  return lb;
}

/** Opens a connection, sends `payload`, reads until `want` bytes came or the connection closed. */
function exchange(port: number, payload = '', want = Infinity): Promise<{ data: string; closed: boolean; error?: string }> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    let data = '';
    let error: string | undefined;
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      data += d;
      if (data.length >= want) {
        s.destroy();
        resolve({ data, closed: false });
      }
    });
    s.once('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    s.once('close', () => resolve({ data, closed: true, ...(error !== undefined ? { error } : {}) }));
    if (payload !== '') s.write(payload);
  });
}

describe('startBalancer', () => {
  it('hands each new connection to the next backend in turn', async () => {
    const [a, b] = [await backend('a'), await backend('b')];
    const lb = await balancer([a.port, b.port]);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push((await exchange(lb.port, '', 2)).data.trim());
    expect(seen).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(lb.counts()).toEqual([3, 2]);
  });

  it('passes bytes through unchanged in both directions', async () => {
    const a = await backend('a');
    const lb = await balancer([a.port]);
    const payload = Buffer.alloc(256 * 1024, 'xyz').toString('utf8');
    const r = await exchange(lb.port, payload, 2 + payload.length);
    expect(r.data).toBe(`a\n${payload}`);
  });

  it('a backend that refuses: the client connection is closed (not left waiting), and the next one goes on', async () => {
    const a = await backend('a');
    const dead = await freePort(); // nothing listens there
    const lb = await balancer([dead, a.port]);
    const first = await exchange(lb.port, 'hello');
    expect(first).toMatchObject({ data: '', closed: true });
    expect((await exchange(lb.port, '', 2)).data).toBe('a\n');
    expect(lb.counts()).toEqual([1, 1]);
  });

  it('stop() closes open connections and frees the port; a second stop is the same stop', async () => {
    const a = await backend('a');
    const lb = await startBalancer([{ port: a.port }]);
    const open = connect({ host: '127.0.0.1', port: lb.port });
    await new Promise((r) => open.once('data', r));
    const closed = new Promise((r) => open.once('close', r));
    await lb.stop();
    await lb.stop();
    await closed;
    const rebind = createServer();
    await new Promise<void>((resolve, reject) => {
      rebind.once('error', reject);
      rebind.listen(lb.port, '127.0.0.1', () => resolve());
    });
    await new Promise((r) => rebind.close(r));
  });

  it('refuses an empty backend list', async () => {
    await expect(startBalancer([])).rejects.toThrow('a balancer needs at least one backend');
  });
});
