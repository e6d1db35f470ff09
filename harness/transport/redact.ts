/**
 * Secret scrubbing for everything that leaves the process: reports, logs, curl reproductions
 * (docs/architecture.md "Safety": reports and logs redact tokens, keys and certificates). Redaction is applied at
 * the source (the client records redacted headers) and again by the writers, so one missed path does
 * not leak a credential.
 */
import { defineKey } from '../../reference/apply/values.ts';
export const REDACTED = '<redacted>';

/** Header names whose values are credentials (lower case). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-auth-token', 'x-api-key']);

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/**
 * Copy with credential values replaced. The auth scheme is kept (`Bearer <redacted>`) because which
 * scheme was used matters when reading a failure.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name)) {
      out[name] = redactedHeaderValue(value);
      continue;
    }
    const scheme = /^\s*([A-Za-z][A-Za-z0-9-]*)\s+\S/.exec(value);
    out[name] = scheme && /authorization/i.test(name) ? `${scheme[1]} ${REDACTED}` : REDACTED;
  }
  return out;
}

/** Every request's header values, scrubbed once: a run sends the same few of them thousands of times. */
const scrubbed = new Map<string, string>();
function redactedHeaderValue(value: string): string {
  if (value.length > 256) return redactText(value);
  let out = scrubbed.get(value);
  if (out === undefined) {
    if (scrubbed.size >= 1024) scrubbed.clear();
    scrubbed.set(value, (out = redactText(value)));
  }
  return out;
}

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END [A-Z0-9 ]+-----/g;
// base64 of `-----BEGIN` (Secret `tls.key`, kubeconfig `*-data` under other names).
const PEM_BASE64 = /LS0tLS1CRUdJTi[A-Za-z0-9+/]*=*/g;
// A PEM block cut off by truncation must not leak its beginning either.
const PEM_UNTERMINATED = /-----BEGIN ([A-Z0-9 ]+)-----(?![\s\S]*-----END)[\s\S]*/g;
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9\-._~+/]+=*/gi;
// `Authorization: x`, `"authorization":"x"`, `-H 'Cookie: x'`; the value may not start with `{`/`[`
// so JSON keys that merely contain the word (e.g. an object named authorization) stay intact.
const SECRET_HEADER_LINE =
  /\b(proxy-authorization|authorization|set-cookie|cookie|x-auth-token|x-api-key)(["']?[ \t]*[:=][ \t]*["']?)([^"'\s{[][^"'\r\n,}]*)/gi;
// Values of credential keys in kubeconfig YAML/JSON and Secret-like objects. `continue` tokens are
// deliberately not here: they are needed to replay a list sequence and grant nothing.
const SECRET_KEYS =
  'client-key-data|client-certificate-data|certificate-authority-data|token-data|token|id-token|refresh-token|access-token|client-secret|password|clientKeyData|clientCertificateData';
const SECRET_KEY_VALUE = new RegExp(
  `((?:^|[\\s{,"'])(?:${SECRET_KEYS})["']?[ \\t]*[:=][ \\t]*)("(?:[^"\\\\\\r\\n]|\\\\.)*"|'[^'\\r\\n]*'|[^\\s,}\\]"']+)`,
  'gim',
);
const SECRET_KEY_NAME = new RegExp(`^(?:${SECRET_KEYS})$`, 'i');
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@'"]+(?::[^/\s@'"]*)?@/gi;

/**
 * Large texts scrubbed lately: every failure of a case writes its own reproducer over the same
 * exchanges, so a concurrent workload's megabytes of bodies were scrubbed once per failure.
 */
const scrubbedLately = new Map<string, string>();
const LATELY_MIN_CHARS = 4096;
const LATELY_MAX_CHARS = 8 * 1024 * 1024;
let latelyChars = 0;

/** Scrub credentials from free text: bodies, messages, YAML, JSON, scripts. Idempotent. */
export function redactText(text: string): string {
  if (text.length < LATELY_MIN_CHARS || text.length > LATELY_MAX_CHARS) return scrub(text);
  const known = scrubbedLately.get(text);
  if (known !== undefined) return known;
  const out = scrub(text);
  for (const [k] of scrubbedLately) {
    if (latelyChars + text.length <= LATELY_MAX_CHARS) break;
    scrubbedLately.delete(k);
    latelyChars -= k.length;
  }
  scrubbedLately.set(text, out);
  latelyChars += text.length;
  return out;
}

function scrub(text: string): string {
  return text
    .replace(PEM, (_m, label: string) => `-----BEGIN ${label}-----${REDACTED}-----END ${label}-----`)
    .replace(PEM_UNTERMINATED, (_m, label: string) => `-----BEGIN ${label}-----${REDACTED}`)
    .replace(PEM_BASE64, REDACTED)
    .replace(
      SECRET_KEY_VALUE,
      (_m, key: string, value: string) =>
        key + (value.startsWith('"') ? `"${REDACTED}"` : value.startsWith("'") ? `'${REDACTED}'` : REDACTED),
    )
    .replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`)
    .replace(SECRET_HEADER_LINE, (m, name: string, sep: string, value: string) =>
      value.startsWith(REDACTED) || /^(Bearer|Basic) <redacted>/i.test(value) ? m : `${name}${sep}${REDACTED}`,
    )
    .replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
}

/** Deep copy of a JSON value with every string scrubbed and credential-named keys blanked. */
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const redacted = SECRET_KEY_NAME.test(k) && v !== null && v !== undefined ? REDACTED : redactJson(v);
      // A generated key `__proto__` must stay an own key.
      defineKey(out, k, redacted);
    }
    return out;
  }
  return value;
}
