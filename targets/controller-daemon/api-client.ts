/**
 * The reference daemon's client for its API server: leader election's few JSON GETs, POSTs and PUTs,
 * on node's own http/https with one kept-alive connection. Not the suite's undici client
 * (harness/transport/client.ts): loading undici was about a fifth of a CPU-second per daemon process, and the
 * suite starts the daemon dozens of times a run. No retries: a failed round is logged and the elector
 * tries again after its retry period, as upstream's does.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { queryToString, type Target, type TargetRequest, type TargetResponse } from '../../harness/transport/index.ts';
import type { TargetConfig } from '../../harness/transport/index.ts';

export function daemonApiClient(cfg: TargetConfig, o: { timeoutMs: number; userAgent: string }): Target {
  const base = new URL(cfg.server);
  const tls = base.protocol === 'https:';
  const prefix = base.pathname.replace(/\/+$/, '');
  const agent = tls
    ? new HttpsAgent({
        keepAlive: true,
        maxSockets: 1,
        rejectUnauthorized: !cfg.tls.insecureSkipTlsVerify,
        ...(cfg.tls.ca && !cfg.tls.insecureSkipTlsVerify ? { ca: cfg.tls.ca } : {}),
        ...(cfg.tls.cert ? { cert: cfg.tls.cert } : {}),
        ...(cfg.tls.key ? { key: cfg.tls.key } : {}),
        ...(cfg.tls.servername ? { servername: cfg.tls.servername } : {}),
      })
    : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  const send = (req: TargetRequest): Promise<TargetResponse> =>
    new Promise((resolve, reject) => {
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      const headers: Record<string, string> = {
        'user-agent': o.userAgent,
        accept: 'application/json',
        ...cfg.headers,
        ...req.headers,
        ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
      };
      const options = {
        host: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || (tls ? 443 : 80),
        path: prefix + req.path + queryToString(req.query),
        method: req.method,
        headers,
        agent,
      };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('error', reject);
        res.once('end', () => {
          clearTimeout(timer);
          const bodyText = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = /\bjson\b/.test(String(res.headers['content-type'] ?? '')) ? JSON.parse(bodyText) : undefined;
          } catch {
            json = undefined;
          }
          const flat = Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
          );
          resolve({ status: res.statusCode ?? 0, headers: flat, bodyText, json });
        });
      };
      const r = tls ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
      // The whole answer within the bound, not only its first byte.
      const timer = setTimeout(
        () => r.destroy(new Error(`${req.method} ${req.path}: no complete answer within ${o.timeoutMs} ms`)),
        o.timeoutMs,
      );
      r.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      r.end(body);
    });
  return {
    server: cfg.server,
    send,
    close: async () => agent.destroy(),
  };
}
