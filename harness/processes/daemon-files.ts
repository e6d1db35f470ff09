/**
 * Files a controller daemon is started with or leaves behind: the kubeconfig for a reference API server,
 * a temporary directory, a self-signed certificate pair, and the fingerprints of the pairs it wrote.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertArgs } from './self-signed.ts';
import { spawnChild } from './spawner.ts';

/**
 * A kubeconfig for a daemon to reach a reference API server (plain HTTP on loopback, no credentials):
 * the embedded target, or the private server an external run starts for the daemon.
 */
export function kubeconfigText(server: string, token?: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: target`,
    `  cluster: {server: ${JSON.stringify(server)}}`,
    'users:',
    '- name: suite',
    token === undefined ? '  user: {}' : `  user: {token: ${JSON.stringify(token)}}`,
    'contexts:',
    '- name: target',
    '  context: {cluster: target, user: suite}',
    'current-context: target',
    '',
  ].join('\n');
}

/**
 * The same kubeconfig as JSON (which is YAML: every kubeconfig reader takes it), for the daemon the run
 * starts dozens of times: the reference daemon reads a JSON kubeconfig without loading a YAML parser.
 */
export function kubeconfigJson(server: string, token?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'target', cluster: { server } }],
    users: [{ name: 'suite', user: token === undefined ? {} : { token } }],
    contexts: [{ name: 'target', context: { cluster: 'target', user: 'suite' } }],
    'current-context': 'target',
  });
}

/** SHA-256 fingerprints of the certificates in the PEM files of a directory (the pair a daemon generated there). */
export function certificatesIn(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, f), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)) {
      try {
        out.push(new X509Certificate(m[0]).fingerprint256);
      } catch {
        // Not a certificate we can read: not the one served.
      }
    }
  }
  return out;
}

export function tempDir(stem: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `${stem}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A self-signed certificate and key for `cn` written to `dir` with the `openssl` command (the suite's
 * SNI check hands them to the daemon), forked by the spawn helper and awaited (the run's event loop
 * goes on meanwhile). Undefined when openssl is not available or fails.
 */
export async function writeCertPair(
  dir: string,
  stem: string,
  cn: string,
): Promise<{ cert: string; key: string; fingerprint256: string } | undefined> {
  const cert = path.join(dir, `${stem}.crt`);
  const key = path.join(dir, `${stem}.key`);
  const child = spawnChild('openssl', selfSignedCertArgs({ keyFile: key, certFile: cert, commonName: cn, days: 2 }), {
    onOutput: () => undefined,
    capChars: 0,
  });
  const done = await Promise.race([child.exited, child.lost.then(() => undefined)]);
  if (done?.code !== 0) return undefined;
  return { cert, key, fingerprint256: new X509Certificate(readFileSync(cert)).fingerprint256 };
}
