// Why: a target that keeps slowing down over a run stretches every wait up to the pace's cap, and a
// wait cut there decides nothing; the report did not say so. A steady rise is now named (the footprint's
// slowdown line), a busy moment that passes is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { slowdownOf } from '../../../harness/transport/pace-trend.ts';
import { requestPace } from '../../../harness/transport/pace.ts';
import { createTargetClient } from '../../../harness/transport/client.ts';
import { footprintLines, sumFootprints } from '../../../harness/case/footprint.ts';
import { referenceServer, type ReferenceServer } from '../../helpers/reference-server.ts';

const rising = (n: number, from: number, to: number) => Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));

describe('slowdownOf', () => {
  it('names a steady rise, with the medians of each fifth and the cap', () => {
    const s = slowdownOf(rising(200, 4, 400), 8);
    expect(s?.segmentsMs.length).toBe(5);
    expect(s!.segmentsMs[4]).toBeGreaterThan(s!.segmentsMs[0]! * 3);
    expect(s!.line).toMatch(/^the target slowed down steadily: median round trip \d+ ms in the first fifth .* up to 8x/);
  });

  it('says nothing of a flat run, a busy moment that passes, a rise of a few milliseconds, or too few requests', () => {
    expect(slowdownOf(Array(500).fill(5), 8)).toBeUndefined();
    const spike = [...Array(100).fill(5), ...Array(100).fill(5), ...Array(100).fill(500), ...Array(100).fill(5), ...Array(100).fill(5)];
    expect(slowdownOf(spike, 8)).toBeUndefined();
    expect(slowdownOf(rising(500, 2, 30), 8)).toBeUndefined();
    expect(slowdownOf(rising(60, 5, 500), 8)).toBeUndefined();
  });
});

/** A loopback proxy in front of the reference server that holds each answer a little longer than the last. */
function slowingProxy(upstream: string, stepMs: number): Promise<Server & { slow: boolean }> {
  const target = new URL(upstream);
  let n = 0;
  const server = createServer((req, res) => {
    const delay = proxy.slow ? n++ * stepMs : 0;
    setTimeout(() => {
      const out = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(out);
    }, delay);
  });
  const proxy = Object.assign(server, { slow: true });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(proxy)));
}

describe('a reference server that slows down steadily', () => {
  let server: ReferenceServer;
  let proxy: Server & { slow: boolean };
  beforeAll(async () => {
    server = await referenceServer();
    proxy = await slowingProxy(server.url, 2);
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await server.close();
  });

  const measured = async (slow: boolean) => {
    proxy.slow = slow;
    const pace = requestPace();
    const client = createTargetClient(
      {
        server: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        tls: { insecureSkipTlsVerify: false },
        headers: {},
        source: 'test',
      },
      { pace },
    );
    try {
      for (let i = 0; i < 100; i++) await client.send({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    } finally {
      await client.close();
    }
    return pace.slowdown();
  };

  it('is named from the round trips of the run, and the footprint lines say so; the same requests unslowed are not', async () => {
    const slowed = await measured(true);
    expect(slowed, 'a round trip 2 ms longer each request').toBeDefined();
    expect(footprintLines({ ...sumFootprints([]), slowdown: slowed! })).toContain(slowed!.line);
    expect(await measured(false)).toBeUndefined();
  }, 60_000);
});
