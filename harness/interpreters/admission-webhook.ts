/**
 * An admission webhook the suite hosts on loopback over HTTPS (rest:4.6.2, rest:4.6.3, rest:7.3): it
 * records every AdmissionReview it receives and denies an object that carries the deny label. A path
 * set to mutate (`mutate(id, labels)`) allows everything instead and answers a JSON patch
 * (`patchType: JSONPatch`) that adds those labels. Its certificate is self-signed for 127.0.0.1 with the `openssl` CLI (Node has no X.509
 * writer), made once per process; the CA bundle to register is that certificate.
 *
 * Each registered webhook gets a path of its own (`/hook/<id>`), so a review tells which
 * configuration called.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertArgs } from '../processes/index.ts';

/** One AdmissionReview as the webhook received it. */
export interface ReceivedReview {
  /** The path called: which registered webhook. */
  readonly hook: string;
  readonly apiVersion: string;
  readonly uid: string;
  readonly operation: string;
  readonly name: string;
  readonly namespace: string | undefined;
  /** `request.dryRun` as sent (undefined when absent). */
  readonly dryRun: boolean | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly allowed: boolean;
  /** The labels the answer's patch added (empty: no patch). */
  readonly patched: Readonly<Record<string, string>>;
}

export interface AdmissionWebhook {
  /** `https://127.0.0.1:<port>/hook/<id>` */
  url(id: string): string;
  /** base64 of the PEM certificate, for clientConfig.caBundle. */
  readonly caBundle: string;
  /** From now on, reviews sent to `url(id)` are allowed with a patch adding `labels` to the object. */
  mutate(id: string, labels: Readonly<Record<string, string>>): void;
  /** From now on, reviews sent to `url(id)` are allowed with exactly this patch, whatever the object (self-tests: patches that cannot apply). */
  patchWith(id: string, ops: readonly unknown[]): void;
  /** Every review received so far, in order. */
  reviews(): readonly ReceivedReview[];
  close(): Promise<void>;
}

let pair: { cert: string; key: string } | undefined;

/** The self-signed pair, made once; one clear line when openssl is missing or fails. */
function certificate(): { cert: string; key: string } {
  if (pair) return pair;
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-webhook-cert-'));
  try {
    const request = {
      keyFile: path.join(dir, 'tls.key'),
      certFile: path.join(dir, 'tls.crt'),
      commonName: 'svc-conformance-webhook',
      days: 2,
      loopback: true,
    };
    execFileSync('openssl', selfSignedCertArgs(request), { stdio: 'pipe' });
    pair = { cert: readFileSync(path.join(dir, 'tls.crt'), 'utf8'), key: readFileSync(path.join(dir, 'tls.key'), 'utf8') };
    return pair;
  } catch (e) {
    throw new Error(
      `cannot make the admission webhook's self-signed certificate (needs the openssl command): ${(e as Error).message.split('\n')[0]}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** RFC 6902 operations adding `adds` to the object's labels (the map itself when it has none). */
export function labelPatch(object: Record<string, unknown>, adds: Readonly<Record<string, string>>): unknown[] {
  const md = rec(object['metadata']);
  if (md['labels'] === undefined || md['labels'] === null) return [{ op: 'add', path: '/metadata/labels', value: { ...adds } }];
  // RFC 6901: '~' is '~0' and '/' is '~1' in a path segment.
  return Object.entries(adds).map(([k, v]) => ({
    op: 'add',
    path: `/metadata/labels/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    value: v,
  }));
}

/** Starts the webhook on 127.0.0.1 (a free port); `denyLabel` on the object (or old object) means deny. */
export async function startAdmissionWebhook(denyLabel: string): Promise<AdmissionWebhook> {
  const { cert, key } = certificate();
  const received: ReceivedReview[] = [];
  const mutations = new Map<string, Readonly<Record<string, string>>>();
  const fixed = new Map<string, readonly unknown[]>();
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let review: Record<string, unknown>;
      try {
        review = rec(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const request = rec(review['request']);
      const object = rec(request['object']);
      const subject = Object.keys(object).length > 0 ? object : rec(request['oldObject']);
      const labels = rec(rec(subject['metadata'])['labels']) as Record<string, string>;
      // Upstream appends ?timeout=<n>s to the configured URL.
      const hook = new URL(req.url ?? '/', 'https://127.0.0.1').pathname.replace(/^\/hook\//, '');
      const adds = mutations.get(hook);
      const allowed = adds !== undefined || fixed.has(hook) || !Object.hasOwn(labels, denyLabel);
      const uid = String(request['uid'] ?? '');
      const patch = fixed.get(hook) ?? (adds === undefined || Object.keys(object).length === 0 ? undefined : labelPatch(object, adds));
      received.push({
        hook,
        apiVersion: String(review['apiVersion'] ?? ''),
        uid,
        operation: String(request['operation'] ?? ''),
        name: String(request['name'] ?? rec(subject['metadata'])['name'] ?? ''),
        namespace: typeof request['namespace'] === 'string' ? request['namespace'] : undefined,
        dryRun: typeof request['dryRun'] === 'boolean' ? request['dryRun'] : undefined,
        labels,
        allowed,
        patched: patch === undefined || adds === undefined ? {} : { ...adds },
      });
      const body = JSON.stringify({
        apiVersion: review['apiVersion'],
        kind: 'AdmissionReview',
        response: {
          uid,
          allowed,
          ...(patch !== undefined ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : {}),
          ...(allowed ? {} : { status: { code: 403, reason: 'Forbidden', message: `the object carries ${denyLabel}` } }),
        },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (id) => `https://127.0.0.1:${port}/hook/${id}`,
    mutate: (id, labels) => void mutations.set(id, { ...labels }),
    patchWith: (id, ops) => void fixed.set(id, [...ops]),
    caBundle: Buffer.from(cert).toString('base64'),
    reviews: () => [...received],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
