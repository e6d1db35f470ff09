/**
 * A loopback proxy in front of a served reference server that misbehaves on demand, for the cleanup
 * and cancellation self-tests: it can hold every DELETE (a cluster whose deletes hang: the run's own
 * cleanup cannot finish before CI's second signal), refuse every DELETE (403), or drop the label
 * selector from every read (a target that ignores it: cleanup must still touch only its own objects).
 * Held deletes are never forwarded: once released they are answered 503.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FaultName, type ReferenceServer } from '../../../targets/api-server/index.ts';
import { referenceServer } from '../../helpers/reference-server.ts';
import type { Profile } from '../../../reference/profile.ts';
import { createTargetClient } from '../../../harness/transport/client.ts';
import type { Target } from '../../../harness/transport/exchange.ts';

export interface TargetProxy {
  readonly url: string;
  /** `hold-bookmark-watches`: a watch that asks for bookmarks, outside the run's setup namespace, is held. */
  mode: 'pass' | 'hold-deletes' | 'refuse-deletes' | 'ignore-selector' | 'hold-bookmark-watches';
  /** DELETEs held so far. */
  readonly held: number;
  /** Answers every held DELETE 503 (nothing was forwarded). */
  release(): void;
  /**
   * Resolves once every request forwarded so far has its answer from the server (a watch once its
   * stream opened): what a client killed meanwhile sent has then landed, however late a loaded
   * machine let this process forward it.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startTargetProxy(upstream: string): Promise<TargetProxy> {
  const target = new URL(upstream);
  const waiting: ServerResponse[] = [];
  let held = 0;
  let forwarding = 0;
  const onSettled: (() => void)[] = [];
  const forwarded = () => {
    if (--forwarding > 0) return;
    for (const resolve of onSettled.splice(0)) resolve();
  };
  const status = (res: ServerResponse, code: number, message: string) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code }));
  };
  const proxy: TargetProxy = {
    url: '',
    mode: 'pass',
    get held() {
      return held;
    },
    release: () => {
      for (const res of waiting.splice(0)) status(res, 503, 'held by the test proxy');
    },
    settled: () => (forwarding === 0 ? Promise.resolve() : new Promise<void>((resolve) => onSettled.push(resolve))),
    close: async () => {
      proxy.release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'DELETE' && proxy.mode === 'hold-deletes') {
      held++;
      req.resume();
      waiting.push(res);
      return;
    }
    if (proxy.mode === 'hold-bookmark-watches' && holdsAsBookmarkWatch(req)) {
      held++;
      req.resume();
      waiting.push(res);
      return;
    }
    if (req.method === 'DELETE' && proxy.mode === 'refuse-deletes') {
      req.resume();
      return status(res, 403, 'deletes refused by the test proxy');
    }
    const url = new URL(req.url ?? '/', upstream);
    if (proxy.mode === 'ignore-selector') url.searchParams.delete('labelSelector');
    forwarding++;
    let answered = false;
    const answer = () => {
      if (answered) return;
      answered = true;
      forwarded();
    };
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: url.pathname + url.search,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        // The server has acted on the request once it answers (a watch's stream may stay open for long).
        answer();
        res.writeHead(up.statusCode ?? 502, up.headers);
        // A watch's answer is its headers until the first event: held back, a client that waits for the
        // stream to open before its write (the capability probe) waits out its whole watch wait.
        res.flushHeaders();
        up.pipe(res);
      },
    );
    out.on('error', () => {
      answer();
      status(res, 502, 'upstream failed');
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (proxy as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A watch asking for bookmarks, not the capability probe's (it works in the run's `-setup` namespace). */
function holdsAsBookmarkWatch(req: IncomingMessage): boolean {
  const url = new URL(req.url ?? '/', 'http://proxy');
  return (
    req.method === 'GET' &&
    url.searchParams.get('watch') !== null &&
    url.searchParams.get('allowWatchBookmarks') === 'true' &&
    !url.pathname.includes('-setup/')
  );
}

/** The reference server served on loopback, the proxy in front of it, and a client that bypasses the proxy. */
export interface ProxiedReference {
  readonly server: ReferenceServer;
  readonly proxy: TargetProxy;
  readonly client: Target;
  close(): Promise<void>;
}

export async function referenceBehindProxy(profile: Profile, faults: readonly FaultName[] = []): Promise<ProxiedReference> {
  const server = await referenceServer({ profile, faults });
  const proxy = await startTargetProxy(server.url);
  const client = createTargetClient({ server: server.url, tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'test' });
  return {
    server,
    proxy,
    client,
    close: async () => {
      await client.close();
      await proxy.close();
      await server.close();
    },
  };
}
