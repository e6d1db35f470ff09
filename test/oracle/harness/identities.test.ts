// The run's other identities (harness/transport/identities.ts): nobody carries no credential of the run's, and a
// restricted kubeconfig's client certificate names its user (upstream's x509 authenticator reads the CN).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { anonymousConfig, bearerOf, restrictedUserOf } from '../../../harness/transport/identities.ts';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe('identities', () => {
  it('nobody: the same server and trust, without token, impersonation or client certificate', () => {
    const own = {
      server: 'https://s',
      tls: { ca: 'CA', cert: 'C', key: 'K', insecureSkipTlsVerify: false },
      headers: { Authorization: 'Bearer t', 'Impersonate-User': 'x', 'X-Other': 'y' },
      source: 'k',
    };
    const nobody = anonymousConfig(own);
    expect(nobody.tls).toEqual({ ca: 'CA', insecureSkipTlsVerify: false });
    expect(nobody.headers).toEqual({ 'X-Other': 'y' });
    expect(bearerOf(own)).toBe('t');
    expect(bearerOf(nobody)).toBeUndefined();
  });

  it.skipIf(!hasOpenssl)('a client certificate names its user by its CN', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-conformance-id-'));
    const cert = path.join(dir, 'c.pem');
    const r = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      path.join(dir, 'k.pem'),
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/O=team-a/CN=bob',
    ]);
    expect(r.status, String(r.stderr)).toBe(0);
    expect(
      restrictedUserOf({
        server: 'https://s',
        tls: { cert: readFileSync(cert, 'utf8'), insecureSkipTlsVerify: false },
        headers: {},
        source: 'k',
      }),
    ).toBe('bob');
    expect(restrictedUserOf({ server: 'https://s', tls: { insecureSkipTlsVerify: false }, headers: {}, source: 'k' })).toBeUndefined();
  });
});
