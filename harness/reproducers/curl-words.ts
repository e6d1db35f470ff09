/**
 * The words of a curl reproducer (harness/reproducers/curl.ts): the replay plan (what a second run must
 * not repeat literally, and the order it sends in), each request as one curl command, shell quoting, and
 * the shell helpers and exit statuses every reproducer shares.
 */
import { queryToString, type Exchange, type TargetRequest } from '../transport/index.ts';
import { isSecretHeader, redactText } from '../transport/index.ts';
import type { AnswerNeed } from '../../reference/answer-checks.ts';
import { learnedValues, needStrings, positions, type Learned } from './learned-values.ts';

export const REPRODUCER_EXIT = { behaves: 0, failing: 1, couldNotRun: 2, undecided: 3 } as const;

// Set by curl itself, or describing the body the client computed: sending them from the script
// would only disagree with what curl does.
export const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** A streamed read (a watch): started in the background where it began, read until the others are done. */
export const isStream = (e: Exchange): boolean =>
  e.request.method === 'GET' && (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));
const isNamespaceCreate = (e: Exchange): boolean => e.request.method === 'POST' && /\/api\/v1\/namespaces$/.test(e.request.path);
export const isCrdCreate = (e: Exchange): boolean => e.request.method === 'POST' && /\/customresourcedefinitions$/.test(e.request.path);
export const isWebhookCreate = (e: Exchange): boolean => e.request.method === 'POST' && /webhookconfigurations$/.test(e.request.path);
/** Setup: what the case needs in place before its own requests; refused setup means the script cannot run. */
export const isSetup = (e: Exchange): boolean => isNamespaceCreate(e) || isCrdCreate(e);

/**
 * The scripts' `enc VALUE`: encodeURIComponent in the shell, on the value's UTF-8 bytes (the C locale),
 * for a learned value put in a query. A node start per learned value was half of a script's processes.
 */
export const SHELL_ENC =
  "enc() { local LC_ALL=C s=$1 o= c i; for ((i = 0; i < ${#s}; i++)); do c=${s:i:1}; case $c in [A-Za-z0-9._~!*\\'\\(\\)-]) o+=$c ;; *) printf -v c '%%%02X' \"'$c\"; o+=$c ;; esac; done; printf '%s' \"$o\"; }";

/**
 * The scripts' `rep C N`: C written N times. A body with a long run of one character (the concurrent
 * workload's 128 KiB pads) is written with it, not as the run itself: the run made a script of 127
 * requests 6.4 MB, and each report that holds the script (summary.json, junit.xml, the HTML page) as big.
 * By doubling: bash's `${s// /C}` is quadratic (14.5 s for 128 KiB).
 */
export const SHELL_REP = 'rep() { local s=$1; while (( ${#s} * 2 <= $2 )); do s+=$s; done; printf \'%s\' "$s${s:0:$(( $2 - ${#s} ))}"; }';

/** Runs of one letter or digit this long or longer are written with `rep`. */
const LONG_RUN = /([A-Za-z0-9])\1{255,}/g;

/** Each distinct long run of `text`, with the shell word that writes it. */
export function runVars(text: string): [string, string][] {
  const runs = new Set([...text.matchAll(LONG_RUN)].map((m) => m[0]));
  return [...runs].map((run): [string, string] => [run, `"$(rep ${run[0]} ${run.length})"`]);
}

/**
 * Bodies longer than this are handed to curl through a pipe that the shell's own printf fills: a body is
 * one argument of curl otherwise, and Linux refuses to start a program with an argument over 128 KiB
 * (MAX_ARG_STRLEN), so the script said "Argument list too long" for every such request and decided
 * nothing. A builtin takes any length.
 */
const BODY_ARGUMENT_LIMIT = 64 * 1024;

/**
 * The order the script sends in: as recorded, except that a stream, recorded when it closed, starts
 * where it began (before the writes it saw), so the writes of the case reach it as they did.
 */
export function sendOrder(exchanges: readonly Exchange[]): number[] {
  const order = exchanges.map((_, i) => i).filter((i) => !isStream(exchanges[i]!));
  exchanges.forEach((e, s) => {
    if (!isStream(e)) return;
    // Setup steps the case did not send (seq 0) carry no time of the case's clock.
    const at = order.findIndex((i) => exchanges[i]!.seq !== 0 && exchanges[i]!.startedAtMs > e.startedAtMs);
    order.splice(at < 0 ? order.length : at, 0, s);
  });
  return order;
}

/** The recorded literals a reproducer replaces with this run's values, and the shell variable holding each. */
export function runLiterals(plan: ReplayPlan): { literal: string; shell: string; whole: boolean }[] {
  return [
    ...plan.learned.map((l) => ({ literal: l.value, shell: l.name, whole: true })),
    ...plan.namespaces.map((ns, i) => ({ literal: ns, shell: `NS${i + 1}`, whole: false })),
    ...plan.groups.map((g, i) => ({ literal: g, shell: `GRP${i + 1}`, whole: false })),
  ];
}

/**
 * Splits concatenated JSON documents (a watch stream) at depth 0, strings respected: plain JavaScript
 * embedded in the reproducers (`documents(text) -> unknown[]`).
 */
export const DOCUMENTS_JS = String.raw`// Concatenated JSON documents (a watch stream): split at depth 0, strings respected.
const documents = (text) => { const out = []; let depth = 0, inStr = false, esc = false, begin = -1;
  for (let i = 0; i < text.length; i++) { const c = text[i];
    if (inStr) { if (esc) esc = false; else if (c === '\\') esc = true; else if (c === '"') inStr = false; continue; }
    if (c === '"') inStr = true; else if (c === '{' || c === '[') { if (depth++ === 0) begin = i; } else if (c === '}' || c === ']') { if (--depth === 0) { try { out.push(JSON.parse(text.slice(begin, i + 1))); } catch {} } } }
  return out; };`;

export interface ReplayPlan {
  /** Exchange indexes in the order the script sends them, and each one's place in it. */
  readonly order: readonly number[];
  readonly position: readonly number[];
  readonly namespaces: readonly string[];
  /** API groups of the run's own custom resource definitions: a fresh group per script run. */
  readonly groups: readonly string[];
  readonly learned: readonly Learned[];
}

/** A group named for one run (`r<run-id>.fixtures...`): renamed per script run, so runs never share it. */
const RUN_GROUP = /^r[a-z0-9]+\./;

/**
 * What a second run of the script must not repeat literally: the namespaces the run created (a fresh
 * name each time) and the values the server made up (harness/reproducers/learned-values.ts), which come from
 * earlier answers.
 */
export function replayPlan(exchanges: readonly Exchange[], needs: readonly AnswerNeed[] = []): ReplayPlan {
  const namespaces: string[] = [];
  for (const e of exchanges) {
    const body = e.request.body as { metadata?: { name?: unknown } } | undefined;
    if (
      e.request.method === 'POST' &&
      /\/api\/v1\/namespaces$/.test(e.request.path) &&
      typeof body?.metadata?.name === 'string' &&
      !namespaces.includes(body.metadata.name)
    )
      namespaces.push(body.metadata.name);
  }
  const groups: string[] = [];
  for (const e of exchanges) {
    const group = (e.request.body as { spec?: { group?: unknown } } | undefined)?.spec?.group;
    if (isCrdCreate(e) && typeof group === 'string' && RUN_GROUP.test(group) && !groups.includes(group)) groups.push(group);
  }
  const order = sendOrder(exchanges);
  return {
    order,
    position: positions(order, exchanges.length),
    namespaces,
    groups,
    learned: learnedValues(exchanges, needStrings(needs, exchanges.length), order),
  };
}

export function curlCommand(req: TargetRequest, head: string, plan: ReplayPlan, index: number): string {
  const parts = [head];
  parts.push(`-X ${req.method}`);
  parts.push(urlWord(req, plan, index));
  // rest:5: who sent it. Anonymous requests carry no credentials; the unknown identity a token nobody issued.
  if (req.identity === undefined) parts.push('${TOKEN:+-H "Authorization: Bearer $TOKEN"}');
  else if (req.identity === 'unknown') parts.push(`-H 'Authorization: Bearer not-a-token-of-this-server'`);
  else if (req.identity === 'restricted') parts.push('${RESTRICTED_TOKEN:+-H "Authorization: Bearer $RESTRICTED_TOKEN"}');
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (isSecretHeader(name) || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    // curl asks for the compressed answer itself and prints it decoded, as the check read it.
    if (name.toLowerCase() === 'accept-encoding' && /gzip/i.test(value)) {
      parts.push('--compressed');
      continue;
    }
    parts.push(`-H ${quoteWithVars(`${name}: ${redactText(value)}`, nameVars(plan))}`);
  }
  const body = bodyText(req.body);
  // A body with no declared type would go out as a form: a setup step the case did not send itself
  // (a reused namespace's creation) carries a JSON object and no headers.
  if (body !== undefined && !Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'content-type'))
    parts.push(`-H 'content-type: application/json'`);
  // Binary bodies (protobuf) hold NUL and invalid UTF-8: every byte as a printf escape, fed as a file.
  if (req.body instanceof Uint8Array && !isText(req.body))
    parts.push(`--data-binary @<(printf '${[...req.body].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}')`);
  else if (body !== undefined) {
    const text = redactText(body);
    const word = quoteWithVars(
      text,
      [...bodyVars(plan, index), ...runVars(text)].sort((a, b) => b[0].length - a[0].length),
    );
    parts.push(text.length > BODY_ARGUMENT_LIMIT ? `--data-binary @<(printf '%s' ${word})` : `--data-binary ${word}`);
  }
  return parts.join(' \\\n  ');
}

/** Literal -> shell text: the run's namespaces and groups, fresh in every run of the script. */
export function nameVars(plan: ReplayPlan): [string, string][] {
  return [
    ...plan.namespaces.map((ns, i): [string, string] => [ns, `"$NS${i + 1}"`]),
    ...plan.groups.map((g, i): [string, string] => [g, `"$GRP${i + 1}"`]),
  ].sort((a, b) => b[0].length - a[0].length);
}

/**
 * Names, and values learned from answers before request `index`, as whole JSON strings only: a
 * version "6" must not replace the 6 inside a name or label.
 */
function bodyVars(plan: ReplayPlan, index: number): [string, string][] {
  const learned = plan.learned
    .filter((l) => plan.position[l.from]! < plan.position[index]!)
    .map((l): [string, string] => [JSON.stringify(l.value), `'"'"$${l.name}"'"'`]);
  return [...nameVars(plan), ...learned].sort((a, b) => b[0].length - a[0].length);
}

/** The URL as a shell word: learned values where they were sent, as a whole path segment or query value. */
function urlWord(req: TargetRequest, plan: ReplayPlan, index: number): string {
  const vars = nameVars(plan);
  const known = (v: string) => plan.learned.find((x) => x.value === v && plan.position[x.from]! < plan.position[index]!);
  const pieces: string[] = [];
  // Literal runs of the path stay one quoted word; a learned segment breaks them.
  let literal = '';
  redactText(req.path)
    .split('/')
    .forEach((seg, j) => {
      if (j > 0) literal += '/';
      const l = seg === '' ? undefined : known(safeDecode(seg));
      if (l === undefined) literal += seg;
      else {
        if (literal !== '') pieces.push(quoteWithVars(literal, vars));
        pieces.push(`"$${l.name}_Q"`);
        literal = '';
      }
    });
  if (literal !== '') pieces.push(quoteWithVars(literal, vars));
  (req.query ?? []).forEach(([k, v], j) => {
    const sep = j === 0 ? '?' : '&';
    const l = v !== null && v !== '' ? known(v) : undefined;
    if (l) pieces.push(shellQuote(`${sep}${encodeURIComponent(k)}=`), `"$${l.name}_Q"`);
    else
      pieces.push(
        quoteWithVars(redactText(sep + (v === null ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)), vars),
      );
  });
  return `"$SERVER"${pieces.join('')}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Single-quoted text with each literal replaced by its shell text: `'/ns/'"$NS1"'/x'`. */
export function quoteWithVars(text: string, vars: readonly [string, string][]): string {
  const pieces: string[] = [];
  let rest = text;
  while (rest !== '') {
    let best: { at: number; lit: string; piece: string } | undefined;
    for (const [lit, piece] of vars) {
      if (lit === '') continue;
      const at = rest.indexOf(lit);
      if (at >= 0 && (best === undefined || at < best.at || (at === best.at && lit.length > best.lit.length))) best = { at, lit, piece };
    }
    if (best === undefined) {
      pieces.push(shellQuote(rest));
      break;
    }
    if (best.at > 0) pieces.push(shellQuote(rest.slice(0, best.at)));
    pieces.push(best.piece);
    rest = rest.slice(best.at + best.lit.length);
  }
  return pieces.length === 0 ? "''" : pieces.join('');
}

export function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return JSON.stringify(body);
}

export function isText(bytes: Uint8Array): boolean {
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

/**
 * Collections of namespaces the case did not create (named by `--namespace`) it wrote labelled objects
 * in: the script deletes its objects there by that label when it ends, and never the namespace.
 */
export function ownObjectsIn(exchanges: readonly Exchange[], plan: ReplayPlan): { collection: string; selector: string }[] {
  const out = new Map<string, string>();
  for (const e of exchanges) {
    if (e.request.method === 'GET' || e.request.method === 'DELETE') continue;
    const m = /^(\/api\/v1|\/apis\/[^/]+\/[^/]+)\/namespaces\/([^/]+)\/([^/]+)/.exec(e.request.path);
    if (m === null || plan.namespaces.includes(decodeURIComponent(m[2]!))) continue;
    let body: unknown = e.request.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        body = undefined;
      }
    }
    const labels = (body as { metadata?: { labels?: Record<string, unknown> } } | undefined)?.metadata?.labels;
    const run = labels?.['svc-conformance/run'];
    if (typeof run === 'string') out.set(m[0], `svc-conformance/run=${run}`);
  }
  return [...out].map(([collection, selector]) => ({ collection, selector }));
}
