/**
 * Waiting for a component to serve: poll one URL until it answers 200, the component exits, or the
 * deadline passes. The outcome is data; the launcher turns a failure into an error with the log tail.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Component } from './component.ts';

export interface ProbeOptions {
  /** PEM of the CA the server's certificate must chain to; without it the certificate is not verified. */
  readonly ca?: string;
  readonly token?: string;
  readonly timeoutMs?: number;
}

/** Status of a GET, or undefined when nothing answered (refused, reset, timed out). */
export async function getStatus(url: string, o: ProbeOptions = {}): Promise<number | undefined> {
  return (await probeServing(url, o)).status;
}

/**
 * A GET's status, or why there was none in one line (e.g. a serving certificate that does not cover the
 * address: `Hostname/IP does not match certificate's altnames ...`).
 */
export function probeServing(url: string, o: ProbeOptions = {}): Promise<{ status?: number; error?: string }> {
  const u = new URL(url);
  const request = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      u,
      {
        method: 'GET',
        timeout: o.timeoutMs ?? 2_000,
        headers: o.token !== undefined ? { authorization: `Bearer ${o.token}` } : {},
        // A fresh connection per probe: through a balancer, each probe may reach another server.
        agent: false,
        ...(u.protocol === 'https:' ? (o.ca !== undefined ? { ca: o.ca } : { rejectUnauthorized: false }) : {}),
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode });
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs ?? 2_000} ms`)));
    req.once('error', (e) => resolve({ error: e.message.split('\n')[0] }));
    req.end();
  });
}

export type ReadyOutcome =
  | { readonly kind: 'ready'; readonly ms: number }
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'timeout'; readonly lastStatus: number | undefined };

export async function waitReady(
  c: Component,
  url: string,
  o: ProbeOptions & { deadlineMs: number; intervalMs?: number },
): Promise<ReadyOutcome> {
  const started = Date.now();
  const stop = started + o.deadlineMs;
  let lastStatus: number | undefined;
  for (;;) {
    if (c.hasExited()) {
      const e = await c.exited;
      return { kind: 'exited', code: e.code, signal: e.signal };
    }
    lastStatus = await getStatus(url, { ...o, timeoutMs: Math.min(2_000, Math.max(200, stop - Date.now())) });
    if (lastStatus === 200) return { kind: 'ready', ms: Date.now() - started };
    if (Date.now() >= stop) return c.hasExited() ? { kind: 'exited', ...(await c.exited) } : { kind: 'timeout', lastStatus };
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 200));
  }
}
