/**
 * TLS options of node:2.6: the cipher suite sets, the minimum versions, `--tls-sni-cert-key` syntax and
 * the certificate a server name selects (exact matches beat wildcards).
 */
import type { NamedCertKey } from './types.ts';

import { insecureCipherSuites, preferredCipherSuites } from '../tls-names.ts';

export type CipherClass = 'preferred' | 'insecure' | 'unknown';

export function cipherSuiteClass(name: string): CipherClass {
  return preferredCipherSuites.has(name) ? 'preferred' : insecureCipherSuites.has(name) ? 'insecure' : 'unknown';
}

/**
 * One `--tls-sni-cert-key` value: `cert,key` or `cert,key:pattern,pattern`, spaces around items
 * trimmed (upstream's NamedCertKey.Set).
 *
 *   parseNamedCertKey('a.crt,a.key:*.example.com,foo.org') -> { cert: 'a.crt', key: 'a.key', names: [...] }
 */
export function parseNamedCertKey(text: string): { ok: true; value: NamedCertKey } | { ok: false; error: string } {
  const colon = text.indexOf(':');
  const pair = (colon < 0 ? text : text.slice(0, colon)).split(',').map((s) => s.trim());
  const names =
    colon < 0
      ? []
      : text
          .slice(colon + 1)
          .split(',')
          .map((s) => s.trim());
  if (pair.length !== 2 || pair[0] === '' || pair[1] === '')
    return { ok: false, error: 'expected comma separated certificate and key file paths' };
  if (names.some((n) => n === '')) return { ok: false, error: 'empty domain pattern after ":"' };
  return { ok: true, value: { cert: pair[0]!, key: pair[1]!, names } };
}

/** A wildcard pattern `*.example.com` matches exactly one leading label. */
function wildcardMatches(pattern: string, host: string): boolean {
  if (!pattern.startsWith('*.')) return false;
  const dot = host.indexOf('.');
  return dot > 0 && host.slice(dot + 1) === pattern.slice(2);
}

/**
 * The pair serving a TLS server name: the first pair naming it exactly, else the first pair with a
 * wildcard matching it, else undefined (the default certificate). Names compare case-insensitively.
 * Pairs whose `names` are empty take their names from the certificate: pass those names in `names`.
 */
export function pickCert(sni: string, pairs: readonly NamedCertKey[]): NamedCertKey | undefined {
  const host = sni.toLowerCase().replace(/\.$/, '');
  if (host === '') return undefined;
  const lower = (p: NamedCertKey) => p.names.map((n) => n.toLowerCase());
  return pairs.find((p) => lower(p).includes(host)) ?? pairs.find((p) => lower(p).some((n) => wildcardMatches(n, host)));
}
