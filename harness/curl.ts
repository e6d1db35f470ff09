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
  const plan = replayPlan(exchanges);
  const lines = [
    '#!/usr/bin/env bash',
    `# Reproduction by svc-conformance: ${exchanges.length} request(s), recorded against ${server}.`,
    '# SERVER overrides the target; TOKEN, when set, is sent as a bearer token (RESTRICTED_TOKEN for the restricted identity\'s requests).',
    ...(plan.namespaces.length > 0 ? ['# Runs again and again: each run makes fresh namespaces and deletes them at the end.'] : []),
    ...(plan.learned.length > 0 ? ['# Versions and continue tokens are learned from this run\'s answers (with node, as the suite does).'] : []),
    'set -u',
    `SERVER=\${SERVER:-${shellQuote(server)}}`,
    ...(plan.learned.length > 0 ? ['R=$(mktemp -d)', 'learn() { node -e \'let v=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));for(const k of JSON.parse(process.argv[2]))v=v?.[k];process.stdout.write(String(v??""))\' "$1" "$2"; }', 'enc() { node -e \'process.stdout.write(encodeURIComponent(process.argv[1]))\' "$1"; }'] : []),
    ...plan.namespaces.map((ns, i) => `NS${i + 1}=${shellQuote(`${ns.slice(0, 50)}-r`)}$RANDOM`),
    ...(plan.namespaces.length > 0
      ? [
          'cleanup() {',
          ...plan.namespaces.map((_, i) => `  curl -sS -o /dev/null -X DELETE "$SERVER/api/v1/namespaces/$NS${i + 1}" \${TOKEN:+-H "Authorization: Bearer $TOKEN"}${opts.insecure === true ? ' -k' : ''}`),
          ...(plan.learned.length > 0 ? ['  rm -rf "$R"'] : []),
          '}',
          'trap cleanup EXIT',
        ]
      : plan.learned.length > 0 ? ['trap \'rm -rf "$R"\' EXIT'] : []),
    '',
  ];
  exchanges.forEach((e, i) => {
    lines.push(`# -> ${outcome(e)}`);
    lines.push(curlCommand(e.request, opts.insecure === true, plan, i));
    for (const l of plan.learned.filter((x) => x.from === i)) lines.push(`${l.name}=$(learn "$R/${i}.json" ${shellQuote(JSON.stringify(l.path))}); ${l.name}_Q=$(enc "$${l.name}")`);
    lines.push('');
  });
  return lines.join('\n');
}

interface Learned {
  readonly name: string;
  readonly value: string;
  /** Index of the exchange whose answer carries it, and where. */
  readonly from: number;
  readonly path: readonly (string | number)[];
}
interface ReplayPlan {
  readonly namespaces: readonly string[];
  readonly learned: readonly Learned[];
}

const LEARNED_QUERY = new Set(['resourceVersion', 'continue']);

/**
 * What a second run of the script must not repeat literally: the namespaces the run created (a fresh
 * name each time) and the versions and continue tokens it used, which come from earlier answers.
 */
export function replayPlan(exchanges: readonly Exchange[]): ReplayPlan {
  const namespaces: string[] = [];
  for (const e of exchanges) {
    const body = e.request.body as { metadata?: { name?: unknown } } | undefined;
    if (e.request.method === 'POST' && /\/api\/v1\/namespaces$/.test(e.request.path) && typeof body?.metadata?.name === 'string' && !namespaces.includes(body.metadata.name)) namespaces.push(body.metadata.name);
  }
  const learned: Learned[] = [];
  exchanges.forEach((e, i) => {
    const used = [
      ...(e.request.query ?? []).filter(([k, v]) => LEARNED_QUERY.has(k) && typeof v === 'string' && v !== '' && v !== '0').map(([, v]) => v as string),
      ...bodyVersion(e.request.body),
    ];
    for (const v of used) {
      if (learned.some((l) => l.value === v)) continue;
      for (let j = i - 1; j >= 0; j--) {
        const path = findString(parsed(exchanges[j]!), v);
        if (path !== undefined) {
          learned.push({ name: `L${learned.length + 1}`, value: v, from: j, path });
          break;
        }
      }
    }
  });
  return { namespaces, learned };
}

function bodyVersion(body: unknown): string[] {
  const rv = (body as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  return typeof rv === 'string' && rv !== '' ? [rv] : [];
}

function parsed(e: Exchange): unknown {
  if (e.response?.json !== undefined) return e.response.json;
  try {
    return e.response ? JSON.parse(e.response.bodyText) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a string value sits in a JSON document (the first place, depth first). */
function findString(doc: unknown, value: string, path: (string | number)[] = []): (string | number)[] | undefined {
  if (doc === value) return path;
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) {
      const p = findString(doc[i], value, [...path, i]);
      if (p) return p;
    }
  } else if (typeof doc === 'object' && doc !== null) {
    for (const [k, v] of Object.entries(doc)) {
      const p = findString(v, value, [...path, k]);
      if (p) return p;
    }
  }
  return undefined;
}

function curlCommand(req: TargetRequest, insecure: boolean, plan: ReplayPlan = { namespaces: [], learned: [] }, index = -1): string {
  const captured = plan.learned.some((l) => l.from === index);
  // --path-as-is and -g: suites send unusual paths and brackets on purpose; curl must not rewrite them.
  const parts = [captured ? `curl -sS --path-as-is -g -D - -o "$R/${index}.json"` : 'curl -sS -i --path-as-is -g'];
  if (insecure) parts.push('-k');
  parts.push(`-X ${req.method}`);
  const vars = substitutions(plan, true);
  parts.push(`"$SERVER"${quoteWithVars(redactText(req.path + queryToString(req.query)), vars)}`);
  // rest:5: who sent it. Anonymous requests carry no credentials; the unknown identity a token nobody issued.
  if (req.identity === undefined) parts.push('${TOKEN:+-H "Authorization: Bearer $TOKEN"}');
  else if (req.identity === 'unknown') parts.push(`-H 'Authorization: Bearer not-a-token-of-this-server'`);
  else if (req.identity === 'restricted') parts.push('${RESTRICTED_TOKEN:+-H "Authorization: Bearer $RESTRICTED_TOKEN"}');
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (isSecretHeader(name) || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    parts.push(`-H ${shellQuote(`${name}: ${redactText(value)}`)}`);
  }
  const body = bodyText(req.body);
  // A body with no declared type would go out as a form: a setup step the case did not send itself
  // (a reused namespace's creation) carries a JSON object and no headers.
  if (body !== undefined && !Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'content-type')) parts.push(`-H 'content-type: application/json'`);
  // Binary bodies (protobuf) hold NUL and invalid UTF-8: every byte as a printf escape, fed as a file.
  if (req.body instanceof Uint8Array && !isText(req.body)) parts.push(`--data-binary @<(printf '${[...req.body].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}')`);
  else if (body !== undefined) parts.push(`--data-binary ${quoteWithVars(redactText(body), substitutions(plan, false))}`);
  const command = parts.join(' \\\n  ');
  return captured ? `${command}\ncat "$R/${index}.json"; echo` : command;
}

/** Literal -> shell variable: namespaces by name; learned values raw in bodies, URL-encoded in paths. */
function substitutions(plan: ReplayPlan, inUrl: boolean): [string, string][] {
  return [
    ...plan.namespaces.map((ns, i): [string, string] => [ns, `NS${i + 1}`]),
    ...plan.learned.flatMap((l): [string, string][] => (inUrl ? [[encodeURIComponent(l.value), `${l.name}_Q`], [l.value, `${l.name}_Q`]] : [[l.value, l.name]])),
  ].sort((a, b) => b[0].length - a[0].length);
}

/** Single-quoted text with each literal replaced by "$VAR": `'/ns/'"$NS1"'/x'`. */
function quoteWithVars(text: string, vars: readonly [string, string][]): string {
  const pieces: string[] = [];
  let rest = text;
  outer: while (rest !== '') {
    let best: { at: number; lit: string; name: string } | undefined;
    for (const [lit, name] of vars) {
      if (lit === '') continue;
      const at = rest.indexOf(lit);
      if (at >= 0 && (best === undefined || at < best.at || (at === best.at && lit.length > best.lit.length))) best = { at, lit, name };
    }
    if (best === undefined) {
      pieces.push(shellQuote(rest));
      break outer;
    }
    if (best.at > 0) pieces.push(shellQuote(rest.slice(0, best.at)));
    pieces.push(`"$${best.name}"`);
    rest = rest.slice(best.at + best.lit.length);
  }
  return pieces.length === 0 ? "''" : pieces.join('');
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
