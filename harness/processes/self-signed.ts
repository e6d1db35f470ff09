/**
 * The one `openssl` command line for a self-signed certificate and its key, as PEM files. Node has no
 * X.509 writer, so the admission webhook, the reference daemon's --cert-dir pair, the daemon SNI check's
 * pair and the envtest CA all make theirs with the openssl CLI; they differ only in name, lifetime and
 * whether loopback is in the subject alternative names.
 *
 *   selfSignedCertArgs({ keyFile: 'k', certFile: 'c', commonName: 'x', days: 2, loopback: true })
 *     -> ['req', '-x509', '-newkey', 'ec', ..., '-subj', '/CN=x', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']
 */

/**
 * A P-256 key without a passphrase: generated in milliseconds (RSA-2048 takes a noticeable share of a
 * start on a busy machine); kube-apiserver serves with it and signs service-account tokens with ES256.
 */
export const EC_P256_KEY: readonly string[] = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export interface SelfSignedRequest {
  readonly keyFile: string;
  readonly certFile: string;
  readonly commonName: string;
  readonly days: number;
  /** Valid for 127.0.0.1 and localhost (a client that verifies the server's name needs it). */
  readonly loopback?: boolean;
}

export function selfSignedCertArgs(r: SelfSignedRequest): string[] {
  return [
    'req',
    '-x509',
    ...EC_P256_KEY,
    '-days',
    String(r.days),
    '-keyout',
    r.keyFile,
    '-out',
    r.certFile,
    '-subj',
    `/CN=${r.commonName}`,
    ...(r.loopback === true ? ['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'] : []),
  ];
}
