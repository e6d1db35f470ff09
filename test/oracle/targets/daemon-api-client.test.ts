// The reference daemon's own client for its API server (leader election's requests): JSON both ways,
// the kubeconfig's headers on every request, one kept-alive connection, and a request the server
// never answers ends in an error (the elector logs it and tries again), never a hang.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonApiClient } from '../../../targets/controller-daemon/api-client.ts';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string; socket: unknown };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function serve(answer: (s: Seen, res: import('node:http').ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, socket: req.socket };
      seen.push(s);
      answer(s, res);
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix`, seen };
}

const cfg = (server: string) => ({
  server,
  tls: { insecureSkipTlsVerify: false },
  headers: { Authorization: 'Bearer t0k' },
  source: 'test',
});

describe("the reference daemon's API client", () => {
  it('sends JSON with the kubeconfig headers under the server path and parses the JSON answer, on one connection', async () => {
    const { url, seen } = await serve((s, res) =>
      res
        .writeHead(s.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ echo: s.body ? JSON.parse(s.body) : null })),
    );
    const api = daemonApiClient(cfg(url), { timeoutMs: 5000, userAgent: 'svc-controller-manager' });
    try {
      const got = await api.send({ method: 'GET', path: '/apis/x/v1/leases/a', query: [['watch', null]] });
      const posted = await api.send({ method: 'POST', path: '/apis/x/v1/leases', body: { metadata: { name: 'a' } } });
      expect([got.status, got.json]).toEqual([200, { echo: null }]);
      expect([posted.status, posted.json]).toEqual([201, { echo: { metadata: { name: 'a' } } }]);
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /prefix/apis/x/v1/leases/a?watch', 'POST /prefix/apis/x/v1/leases']);
      expect(seen.map((s) => [s.headers['authorization'], s.headers['user-agent'], s.headers['accept']])).toEqual([
        ['Bearer t0k', 'svc-controller-manager', 'application/json'],
        ['Bearer t0k', 'svc-controller-manager', 'application/json'],
      ]);
      expect(seen[1]!.headers['content-type']).toBe('application/json');
      expect(seen[0]!.socket).toBe(seen[1]!.socket);
    } finally {
      await api.close();
    }
  });

  it('a body that is not JSON is kept as text, with no json', async () => {
    const { url } = await serve((_s, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found'));
    const api = daemonApiClient(cfg(url), { timeoutMs: 5000, userAgent: 'x' });
    try {
      expect(await api.send({ method: 'GET', path: '/nothing' })).toMatchObject({
        status: 404,
        bodyText: '404 page not found',
        json: undefined,
      });
    } finally {
      await api.close();
    }
  });

  it('a server that never answers: the request fails within its bound', async () => {
    const { url } = await serve(() => undefined);
    const api = daemonApiClient(cfg(url), { timeoutMs: 200, userAgent: 'x' });
    try {
      await expect(api.send({ method: 'GET', path: '/slow' })).rejects.toThrow(/no complete answer within 200 ms/);
    } finally {
      await api.close();
    }
  });

  it('nothing listening: the request fails', async () => {
    const { url } = await serve(() => undefined);
    await new Promise((r) => server!.close(r));
    server = undefined;
    const api = daemonApiClient(cfg(url), { timeoutMs: 5000, userAgent: 'x' });
    try {
      await expect(api.send({ method: 'GET', path: '/x' })).rejects.toThrow();
    } finally {
      await api.close();
    }
  });
});
