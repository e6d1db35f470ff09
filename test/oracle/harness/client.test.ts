import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReachable, createTargetClient, parseRetryAfter } from '../../../harness/transport/client.ts';
import { InfrastructureError, type Exchange } from '../../../harness/transport/exchange.ts';
import type { TargetConfig } from '../../../harness/transport/kubeconfig.ts';
import { Transcript } from '../../../harness/transport/transcript.ts';
import { countExchange, emptyFootprint } from '../../../harness/case/footprint.ts';
import { gzipSync } from 'node:zlib';
import { closedPort, json, startHttp, type Handler, type TestServer } from './servers.ts';

const cfgFor = (server: string, headers: Record<string, string> = {}): TargetConfig => ({
  server,
  tls: { insecureSkipTlsVerify: false },
  headers,
  source: 'test',
});

async function withServer<T>(handler: Handler, fn: (s: TestServer) => Promise<T>): Promise<T> {
  const s = await startHttp(handler);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe('createTargetClient', () => {
  it('sends credentials, default Accept and JSON bodies; records redacted exchanges with increasing seq', async () => {
    await withServer(
      (_req, res, seen) => json(res, 201, { echo: JSON.parse(seen.body) as unknown }, { 'X-Custom': 'v' }),
      async (s) => {
        const t = new Transcript();
        const target = createTargetClient(cfgFor(s.url + '/', { Authorization: 'Bearer sekret' }), {
          onExchange: t.record,
          userAgent: 'ua/1',
        });
        try {
          const res = await target.send({
            method: 'POST',
            path: '/api/v1/namespaces',
            query: [
              ['dryRun', 'All'],
              ['pretty', null],
            ],
            body: { a: "it's" },
          });
          expect(res.status).toBe(201);
          expect(res.json).toEqual({ echo: { a: "it's" } });
          expect(res.headers['x-custom']).toBe('v');
          const patch = await target.send({
            method: 'PATCH',
            path: '/api/v1/namespaces/x',
            headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/yaml' },
            body: '{"b":1}',
          });
          expect(patch.status).toBe(201);
        } finally {
          await target.close();
        }
        expect(target.server).toBe(s.url);
        expect(s.seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/namespaces?dryRun=All&pretty', body: '{"a":"it\'s"}' });
        expect(s.seen[0]?.headers).toMatchObject({
          authorization: 'Bearer sekret',
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'ua/1',
        });
        expect(s.seen[1]?.headers).toMatchObject({ accept: 'application/yaml', 'content-type': 'application/merge-patch+json' });
        expect(s.seen[1]?.body).toBe('{"b":1}');

        const ex = t.all();
        expect(ex).toHaveLength(2);
        expect(ex[1]!.seq).toBeGreaterThan(ex[0]!.seq);
        expect(t.since(ex[0]!.seq)).toEqual([ex[1]]);
        expect(ex[0]?.request.headers?.authorization).toBe('Bearer <redacted>');
        expect(JSON.stringify(ex)).not.toContain('sekret');
        expect(ex[0]?.durationMs).toBeGreaterThanOrEqual(0);
        expect(ex[0]?.startedAtMs).toBeGreaterThan(Date.now() - 60_000);
      },
    );
  });

  it('json is undefined for non-JSON and unparseable bodies; bodyText always kept', async () => {
    await withServer(
      (req, res) => {
        if (req.url === '/text') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('{"looks":"json"}');
        } else {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{broken');
        }
      },
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), {});
        try {
          const text = await target.send({ method: 'GET', path: '/text' });
          expect([text.status, text.bodyText, text.json]).toEqual([200, '{"looks":"json"}', undefined]);
          const broken = await target.send({ method: 'GET', path: '/broken' });
          expect([broken.status, broken.bodyText, broken.json]).toEqual([500, '{broken', undefined]);
        } finally {
          await target.close();
        }
      },
    );
  });

  it('a gzipped answer to a request that asked for it is judged decoded and counted as it came', async () => {
    const doc = JSON.stringify({ metric: 'x'.repeat(50_000) });
    await withServer(
      (req, res) => {
        if (req.headers['accept-encoding'] === 'gzip') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
          res.end(req.url === '/liar' ? 'not gzip' : gzipSync(doc));
        } else json(res, 200, JSON.parse(doc) as unknown);
      },
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), {});
        try {
          const zipped = await target.send({ method: 'GET', path: '/doc', headers: { 'accept-encoding': 'gzip' } });
          expect([zipped.bodyText, zipped.json]).toEqual([doc, JSON.parse(doc)]);
          expect(zipped.wireBytes).toBeLessThan(1_000);
          const fp = emptyFootprint('c');
          countExchange(fp, {
            seq: 1,
            request: { method: 'GET', path: '/doc' },
            response: zipped,
            startedAtMs: 0,
            durationMs: 0,
          } as Exchange);
          expect(fp.bytesReceived).toBe(zipped.wireBytes);
          const plain = await target.send({ method: 'GET', path: '/doc' });
          expect([plain.bodyText, plain.wireBytes]).toEqual([doc, undefined]);
          // A body that claims gzip and is none is kept as it came.
          const liar = await target.send({ method: 'GET', path: '/liar', headers: { 'accept-encoding': 'gzip' } });
          expect(liar.bodyText).toBe('not gzip');
        } finally {
          await target.close();
        }
      },
    );
  });

  it('retries a 429 with Retry-After, honouring the delay, then returns the success', async () => {
    await withServer(
      (_req, res, _seen, i) =>
        i === 0 ? json(res, 429, { reason: 'TooManyRequests' }, { 'Retry-After': '1' }) : json(res, 200, { ok: true }),
      async (s) => {
        const ex: Exchange[] = [];
        const target = createTargetClient(cfgFor(s.url), { onExchange: (e) => ex.push(e) });
        const t0 = Date.now();
        try {
          const res = await target.send({ method: 'GET', path: '/api' });
          expect(res.status).toBe(200);
        } finally {
          await target.close();
        }
        expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
        expect(s.seen).toHaveLength(2);
        expect(ex.map((e) => e.response?.status)).toEqual([429, 200]);
      },
    );
  });

  it('a 429 that persists past maxRetries becomes an InfrastructureError, not a response', async () => {
    await withServer(
      (_req, res) => json(res, 429, {}, { 'Retry-After': '0' }),
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), { maxRetries: 2 });
        try {
          const err = await target.send({ method: 'POST', path: '/api/v1/namespaces', body: {} }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(InfrastructureError);
          expect((err as Error).message).toBe(
            `POST /api/v1/namespaces to ${s.url}: still 429 Too Many Requests after 3 attempts (Retry-After: 0)`,
          );
        } finally {
          await target.close();
        }
        expect(s.seen).toHaveLength(3);
      },
    );
  });

  it.each([504, 410, 409, 500])('does not retry status %i: it is an observation', async (status) => {
    await withServer(
      (_req, res) => json(res, status, { code: status }),
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), {});
        try {
          const res = await target.send({ method: 'GET', path: '/api/v1/namespaces' });
          expect([res.status, res.json]).toEqual([status, { code: status }]);
        } finally {
          await target.close();
        }
        expect(s.seen).toHaveLength(1);
      },
    );
  });

  it('a 429 without Retry-After is returned as is', async () => {
    await withServer(
      (_req, res) => json(res, 429, {}),
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), {});
        try {
          expect((await target.send({ method: 'GET', path: '/x' })).status).toBe(429);
        } finally {
          await target.close();
        }
        expect(s.seen).toHaveLength(1);
      },
    );
  });

  it('connection refused: retried, then one InfrastructureError line and one transport exchange', async () => {
    const port = await closedPort();
    const ex: Exchange[] = [];
    const target = createTargetClient(cfgFor(`http://127.0.0.1:${port}`), { onExchange: (e) => ex.push(e), retryBaseDelayMs: 1 });
    try {
      const err = await target.send({ method: 'GET', path: '/api' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfrastructureError);
      expect((err as InfrastructureError).message).toBe(`cannot reach http://127.0.0.1:${port}: connection refused (after 4 attempts)`);
      expect((err as InfrastructureError).detail).toBe('ECONNREFUSED');
    } finally {
      await target.close();
    }
    expect(ex).toHaveLength(1);
    expect(ex[0]?.transportError).toBe('connection refused');
    expect(ex[0]?.response).toBeUndefined();
  });

  it('a reset after sending retries a GET but not a POST (its effect is unknown)', async () => {
    await withServer(
      (req, res, _seen, i) => (i % 2 === 0 ? req.socket.destroy() : json(res, 200, {})),
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), { retryBaseDelayMs: 1 });
        try {
          expect((await target.send({ method: 'GET', path: '/a' })).status).toBe(200);
          expect(s.seen).toHaveLength(2);
          const err = await target.send({ method: 'POST', path: '/b', body: {} }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(InfrastructureError);
          expect((err as Error).message).toMatch(
            new RegExp(`^POST /b to ${s.url}: (connection reset by peer|connection closed \\(.*\\))$`),
          );
          expect(s.seen).toHaveLength(3);
        } finally {
          await target.close();
        }
      },
    );
  });

  it('a held GET is sent once more and answered; a held POST is not sent again (an error); a GET held twice is an error', async () => {
    // The server holds requests 0 (GET /a), 2 (POST /b), 3 and 4 (GET /c): it never answers them.
    const held = new Set([0, 2, 3, 4]);
    await withServer(
      (_req, res, _seen, i) => (held.has(i) ? undefined : json(res, 200, {})),
      async (s) => {
        const target = createTargetClient(cfgFor(s.url), { requestTimeoutMs: 300, retryBaseDelayMs: 1 });
        try {
          expect((await target.send({ method: 'GET', path: '/a' })).status).toBe(200);
          expect(s.seen.map((x) => x.url)).toEqual(['/a', '/a']);
          const post = await target.send({ method: 'POST', path: '/b', body: {} }).catch((e: unknown) => e);
          expect(post).toBeInstanceOf(InfrastructureError);
          expect((post as Error).message).toMatch(/^POST \/b to .*: (no response|response not complete) within \d+ ms$/);
          expect(s.seen.map((x) => x.url)).toEqual(['/a', '/a', '/b']);
          const get = await target.send({ method: 'GET', path: '/c' }).catch((e: unknown) => e);
          expect(get).toBeInstanceOf(InfrastructureError);
          expect((get as Error).message).toMatch(/\(after 2 attempts\)$/);
          expect(s.seen.map((x) => x.url)).toEqual(['/a', '/a', '/b', '/c', '/c']);
        } finally {
          await target.close();
        }
      },
    );
  });

  it('a body trickled past the bound ends as a timeout, though each byte comes before the body timeout; a body that comes in pieces is read whole', async () => {
    await withServer(
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const pieces = req.url === '/slow' ? ['{"a"', ':', '1', '}'] : ['{"b":', '"' + 'x'.repeat(100_000) + '"', '}'];
        let i = 0;
        const next = (): void => {
          if (res.destroyed) return;
          if (i === pieces.length) return void res.end();
          res.write(pieces[i++]);
          setTimeout(next, req.url === '/slow' ? 150 : 5);
        };
        next();
      },
      async (s) => {
        const ex: Exchange[] = [];
        const target = createTargetClient(cfgFor(s.url), { requestTimeoutMs: 400, maxRetries: 0, onExchange: (e) => ex.push(e) });
        try {
          const whole = await target.send({ method: 'GET', path: '/pieces' });
          expect(whole.status).toBe(200);
          expect((whole.json as { b: string }).b).toHaveLength(100_000);
          expect(whole.headers['content-type']).toBe('application/json');
          const err = await target.send({ method: 'GET', path: '/slow' }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(InfrastructureError);
          expect((err as Error).message).toBe(`GET /slow to ${s.url}: response not complete within 400 ms`);
          expect(ex.at(-1)?.transportError).toBe('response not complete within 400 ms');
        } finally {
          await target.close();
        }
      },
    );
  });

  it('a server prefix in the URL is kept in front of every path', async () => {
    await withServer(
      (_req, res) => json(res, 200, {}),
      async (s) => {
        const target = createTargetClient(cfgFor(`${s.url}/k8s/clusters/c1`), {});
        try {
          await target.send({ method: 'GET', path: '/api/v1/namespaces', query: [['limit', '2']] });
        } finally {
          await target.close();
        }
        expect(s.seen[0]?.url).toBe('/k8s/clusters/c1/api/v1/namespaces?limit=2');
      },
    );
  });
});

describe('checkReachable', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startHttp((_req, res) => json(res, 401, { kind: 'Status' }));
  });
  afterAll(() => s.close());

  it('any HTTP answer, even 401, counts as reachable', async () => {
    const target = createTargetClient(cfgFor(s.url), {});
    try {
      await expect(checkReachable(target)).resolves.toBeUndefined();
    } finally {
      await target.close();
    }
    expect(s.seen.at(-1)?.url).toBe('/version');
  });

  it('refused connection: one clear line', async () => {
    const port = await closedPort();
    const target = createTargetClient(cfgFor(`http://127.0.0.1:${port}`), { maxRetries: 0 });
    try {
      const err = await checkReachable(target).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfrastructureError);
      expect((err as Error).message).toBe(`cannot reach http://127.0.0.1:${port}: connection refused`);
    } finally {
      await target.close();
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, rejects junk', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

// Why: under load, writes were lost with "connection closed (other side closed)". A server closes
// an idle keep-alive connection when its timer fires; if it is stalled (a busy machine) while a client
// reuses that connection near the deadline, the timer fires before the request is read, and a write
// cannot be retried. Here a server in a worker thread (Node's default 5 s keep-alive) stalls from 1.2 s
// to 6.2 s after its first answer; the client writes again at 1.5 s. It must use a fresh connection.
describe('keep-alive reuse against a stalled server', () => {
  it('a write after a short idle pause is answered, not lost with the closing connection', async () => {
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(
      `
      const { parentPort } = require('node:worker_threads');
      const http = require('node:http');
      let first = true;
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
          if (first) {
            first = false;
            // Stalled in the check phase, so the next loop turn runs the expired keep-alive timer
            // before it polls for the request that arrived meanwhile (a busy server's order).
            setTimeout(() => setImmediate(() => { const until = Date.now() + 5000; while (Date.now() < until); }), 1200);
          }
        });
      });
      server.keepAliveTimeout = 5000;
      server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
      parentPort.on('message', () => server.close(() => process.exit(0)));
    `,
      { eval: true },
    );
    const port = await new Promise<number>((resolve) => worker.once('message', resolve));
    const target = createTargetClient(cfgFor(`http://127.0.0.1:${port}`), { maxRetries: 0, requestTimeoutMs: 20_000 });
    try {
      expect((await target.send({ method: 'POST', path: '/a', body: { n: 1 } })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 1500));
      const second = await target.send({ method: 'POST', path: '/a', body: { n: 2 } }).then(
        (r) => r.status,
        (e: Error) => e.message,
      );
      expect(second).toBe(201);
    } finally {
      await target.close();
      worker.postMessage('stop');
      await worker.terminate();
    }
  }, 30_000);
});
