// Why: checks abandoned when a run stopped (its --timeout, a signal) printed "ERROR
// cannot reach <target>: client closed", blaming the target for the suite's own stop. A request cut by
// its client's closing says "stopped by the run", never "cannot reach".
import { describe, expect, it } from 'vitest';
import { createTargetClient, STOPPED_BY_RUN } from '../../../harness/transport/client.ts';
import { InfrastructureError } from '../../../harness/transport/exchange.ts';
import { json, startHttp } from './servers.ts';

const cfgFor = (server: string) => ({ server, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' });

describe('a request the run itself cut', () => {
  it('sent after its client closed: "stopped by the run", not sent', async () => {
    const s = await startHttp((_req, res) => json(res, 200, {}));
    try {
      const client = createTargetClient(cfgFor(s.url));
      await client.close();
      const err = await client.send({ method: 'GET', path: '/api/v1/namespaces' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InfrastructureError);
      expect((err as InfrastructureError).message).toBe('GET /api/v1/namespaces: stopped by the run (its client was closed)');
      expect((err as InfrastructureError).detail).toBe(STOPPED_BY_RUN);
      expect(s.seen).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  it("in flight when its client closed: the failure that follows is the run's, not the target's", async () => {
    // The target holds the request; the client closes under it; the request's own bound then ends it.
    const s = await startHttp(() => undefined);
    try {
      const client = createTargetClient(cfgFor(s.url), { requestTimeoutMs: 300, maxRetries: 0 });
      const pending = client.send({ method: 'DELETE', path: '/api/v1/namespaces/x' }).catch((e: unknown) => e);
      await new Promise((resolve) => setTimeout(resolve, 50));
      void client.close();
      const err = await pending;
      expect(err).toBeInstanceOf(InfrastructureError);
      expect((err as Error).message).toMatch(/stopped by the run/);
      expect((err as Error).message).not.toMatch(/cannot reach/);
    } finally {
      await s.close();
    }
  });
});
