/**
 * Reproductions a person can run without the suite (DESIGN.md "Oracle rules"): a counterexample's
 * exchanges as a bash script of curl commands, and a one-line form for step lists. Credentials never
 * appear: the token comes from the reader's environment at run time.
 */
import { queryToString, type Exchange, type TargetRequest } from './exchange.ts';
import { isSecretHeader, redactText } from './redact.ts';

export interface CurlOptions {
  server: string;
  /** Add `-k` (the run used --insecure-skip-tls-verify). */
  insecure?: boolean;
}

// Set by curl itself, or describing the body the client computed: sending them from the script
// would only disagree with what curl does.
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

export function toCurlScript(exchanges: readonly Exchange[], opts: CurlOptions): string {
  const server = redactText(opts.server.replace(/\/+$/, ''));
  const lines = [
    '#!/usr/bin/env bash',
    `# Reproduction by svc-conformance: ${exchanges.length} request(s), recorded against ${server}.`,
    '# SERVER overrides the target; TOKEN, when set, is sent as a bearer token.',
    'set -u',
    `SERVER=\${SERVER:-${shellQuote(server)}}`,
    '',
  ];
  for (const e of exchanges) {
    lines.push(`# -> ${outcome(e)}`);
    lines.push(curlCommand(e.request, opts.insecure === true));
    lines.push('');
  }
  return lines.join('\n');
}

function curlCommand(req: TargetRequest, insecure: boolean): string {
  // --path-as-is and -g: suites send unusual paths and brackets on purpose; curl must not rewrite them.
  const parts = ['curl -sS -i --path-as-is -g'];
  if (insecure) parts.push('-k');
  parts.push(`-X ${req.method}`);
  parts.push(`"$SERVER"${shellQuote(redactText(req.path + queryToString(req.query)))}`);
  parts.push('${TOKEN:+-H "Authorization: Bearer $TOKEN"}');
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (isSecretHeader(name) || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    parts.push(`-H ${shellQuote(`${name}: ${redactText(value)}`)}`);
  }
  const body = bodyText(req.body);
  // Binary bodies (protobuf) hold NUL and invalid UTF-8: every byte as a printf escape, fed as a file.
  if (req.body instanceof Uint8Array && !isText(req.body)) parts.push(`--data-binary @<(printf '${[...req.body].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}')`);
  else if (body !== undefined) parts.push(`--data-binary ${shellQuote(redactText(body))}`);
  return parts.join(' \\\n  ');
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return JSON.stringify(body);
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Single-quoted for bash: nothing inside is expanded; a `'` becomes `'\''`. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function outcome(e: Exchange): string {
  if (e.response) return String(e.response.status);
  return `transport error: ${redactText(e.transportError ?? 'unknown').replace(/\s*\n\s*/g, ' ')}`;
}

/** `GET /api/v1/namespaces/x/configmaps?limit=2 -> 200` */
export function describeExchange(e: Exchange): string {
  return redactText(`${e.request.method} ${e.request.path}${queryToString(e.request.query)} -> ${outcome(e)}`);
}
