/**
 * The control plane's own credentials, written into its private folder: a CA, the API server's serving
 * pair (signed by that CA, for 127.0.0.1 and localhost), the service-account signing key, a tokens.csv
 * with one admin bearer token, and a kubeconfig. Node has no X.509 writer, so certificates and keys are
 * made with the `openssl` command, as the reference controller daemon does. Short-lived (2 days): they
 * die with the folder.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { EC_P256_KEY, selfSignedCertArgs } from '../processes/index.ts';

export interface Credentials {
  readonly caCert: string;
  readonly servingCert: string;
  readonly servingKey: string;
  readonly serviceAccountKey: string;
  readonly serviceAccountPub: string;
  readonly tokensCsv: string;
  /** The admin bearer token: goes into tokens.csv and the kubeconfig, never into a log line. */
  readonly token: string;
}

/** openssl failed or is absent; one line. */
export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}

export function makeCredentials(dir: string): Credentials {
  const at = (name: string) => path.join(dir, name);
  const c = {
    caCert: at('ca.crt'),
    servingCert: at('serving.crt'),
    servingKey: at('serving.key'),
    serviceAccountKey: at('service-account.key'),
    serviceAccountPub: at('service-account.pub'),
    tokensCsv: at('tokens.csv'),
    token: randomBytes(32).toString('hex'),
  };
  const caKey = at('ca.key');
  const csr = at('serving.csr');
  const ext = at('serving.ext');
  openssl(selfSignedCertArgs({ keyFile: caKey, certFile: c.caCert, commonName: 'svc-conformance-envtest-ca', days: 2 }));
  openssl(['req', ...EC_P256_KEY, '-subj', '/CN=kube-apiserver', '-keyout', c.servingKey, '-out', csr]);
  writeFileSync(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    c.caCert,
    '-CAkey',
    caKey,
    '-set_serial',
    `0x${randomBytes(8).toString('hex')}`,
    '-days',
    '2',
    '-extfile',
    ext,
    '-out',
    c.servingCert,
  ]);
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', c.serviceAccountKey]);
  openssl(['pkey', '-in', c.serviceAccountKey, '-pubout', '-out', c.serviceAccountPub]);
  // kube-apiserver's static token file: token,user,uid,"group1,group2".
  writeFileSync(c.tokensCsv, `${c.token},admin,admin,"system:masters"\n`, { mode: 0o600 });
  return c;
}

/** A self-contained kubeconfig (CA inline, so a copy outside the folder works too), mode 0600. */
export function writeKubeconfig(file: string, o: { server: string; caCert: string; token: string; name?: string }): void {
  const name = o.name ?? 'envtest';
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: o.server, 'certificate-authority-data': readFileSync(o.caCert).toString('base64') } }],
    users: [{ name: 'admin', user: { token: o.token } }],
    contexts: [{ name, context: { cluster: name, user: 'admin' } }],
    'current-context': name,
  };
  writeFileSync(file, stringify(config), { mode: 0o600 });
}

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT')
      throw new CredentialsError('the upstream control plane needs the openssl command to make its certificates; install openssl');
    const detail = err.stderr?.toString('utf8').trim().split('\n')[0] ?? err.message.split('\n')[0];
    throw new CredentialsError(`openssl ${args[0]} failed: ${detail}`);
  }
}
