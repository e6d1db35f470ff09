/**
 * Reproductions a person can run without the suite (DESIGN.md "Oracle rules"): a counterexample's
 * exchanges as a bash script of curl commands, and a one-line form for step lists. Credentials never
 * appear: the token comes from the reader's environment at run time.
 */
import { queryToString, type Exchange, type TargetRequest } from '../transport/index.ts';
import { isSecretHeader, redactText } from '../transport/index.ts';
import { EVALUATOR_JS, requestsOf, type AnswerNeed } from '../../reference/answer-checks.ts';
import { learnedValues, needStrings, positions, type Learned } from './learned-values.ts';
import { PREMISES_JS, REMAP_JS, mustLearn, premises } from './replay-premises.ts';
import { LATE_JS, lateWatches, pauses } from './replay-timing.ts';

export interface CurlOptions {
  server: string;
  /** The run used --insecure-skip-tls-verify: said in the header; the script skips verification only with INSECURE=1. */
  insecure?: boolean;
  /** What the answers must do for the failure to be gone (resolved to request indexes): the script's exit status. */
  needs?: readonly AnswerNeed[];
  /**
   * The failing case compacted the target's history (its compaction hook) before its watches: a script
   * cannot, so before a watch from a learned version it waits until the target says that version left
   * its history, and a stream that looks right while the version is still there decides nothing.
   */
  compacted?: boolean;
  /** Header lines: the clause, what was expected and observed, the replay command. */
  about?: { readonly clause: string; readonly expected: string; readonly observed: string; readonly replay?: string };
}

/** Exit statuses of a reproducer, as its header states them. */
export const REPRODUCER_EXIT = { behaves: 0, failing: 1, couldNotRun: 2, undecided: 3 } as const;

// Set by curl itself, or describing the body the client computed: sending them from the script
// would only disagree with what curl does.
export const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** A streamed read (a watch): started in the background where it began, read until the others are done. */
export const isStream = (e: Exchange): boolean => e.request.method === 'GET' && (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));
const isNamespaceCreate = (e: Exchange): boolean => e.request.method === 'POST' && /\/api\/v1\/namespaces$/.test(e.request.path);
export const isCrdCreate = (e: Exchange): boolean => e.request.method === 'POST' && /\/customresourcedefinitions$/.test(e.request.path);
export const isWebhookCreate = (e: Exchange): boolean => e.request.method === 'POST' && /webhookconfigurations$/.test(e.request.path);
/** Setup: what the case needs in place before its own requests; refused setup means the script cannot run. */
export const isSetup = (e: Exchange): boolean => isNamespaceCreate(e) || isCrdCreate(e);

/**
 * A standalone reproducer (issue 26 item 2): bash, curl and node, nothing of this repository. It
 * creates what the case needs under fresh names, sends the recorded requests with learned values,
 * prints each answer apart, evaluates the answer needed (reference/answer-checks.ts) and exits 1
 * while the failure is present, 0 once the target behaves; it deletes what it created on every exit.
 */
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
function runVars(text: string): [string, string][] {
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

export function toCurlScript(exchanges: readonly Exchange[], opts: CurlOptions): string {
  const server = redactText(opts.server.replace(/\/+$/, ''));
  const needs = opts.needs ?? [];
  const plan = replayPlan(exchanges, needs);
  const insecureArg = '${TLS[@]+"${TLS[@]}"}';
  const auth = '${TOKEN:+-H "Authorization: Bearer $TOKEN"}';
  const usesRestricted = exchanges.some((e) => e.request.identity === 'restricted');
  const webhooks = exchanges.filter(isWebhookCreate);
  const crds = exchanges
    .filter(isCrdCreate)
    .map((e) => ({ e, name: String((e.request.body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '') }))
    .filter((c) => c.name !== '');
  const about = opts.about;
  const dropped = opts.compacted === true ? heldWatches(exchanges, plan, needs) : [];
  // A setup request the failure is about (a namespace create refused) is sent as a call: its answer is judged, it does not stop the script.
  const judged = new Set(needs.flatMap((n) => requestsOf(n.test)));
  const lines = [
    '#!/usr/bin/env bash',
    `# Reproducer by svc-conformance${about ? ` for ${about.clause}` : ''}: ${exchanges.length} request(s), recorded against ${server}.`,
    ...(about ? [`#   expected: ${oneLine(about.expected)}`, `#   observed: ${oneLine(about.observed)}`, ...(about.replay ? [`#   found by: ${oneLine(about.replay)}`] : [])] : []),
    '#',
    '# Runs against any API server of the kind; nothing of svc-conformance is needed (bash, curl, node).',
    `#   SERVER    base URL of the target (default: the recorded one); plain http:// works`,
    '#   TOKEN     bearer token sent with the requests; unset, they carry no credentials',
    ...(usesRestricted ? ['#   RESTRICTED_TOKEN  bearer token of the restricted identity, for the requests the case sent as it'] : []),
    "#   CA        CA bundle file that verifies the server's certificate",
    `#   INSECURE  1: skip certificate verification (curl -k); nothing else does${opts.insecure === true ? ' (the recorded run skipped it)' : ''}`,
    '# It creates namespaces of its own (fresh names each run)' + (crds.length > 0 ? ' and the custom resource definition the case uses' : '') + ", sends the case's requests,",
    '# prints each answer, checks the answer the spec needs, and deletes what it created on every exit.',
    ...webhooks.map(
      (w) =>
        `# This case registers an admission webhook that the suite served during its run (${oneLine(redactText(webhookUrls(w).join(', ') || 'its URL'))}); this script cannot serve it: without a webhook answering there, the target's answers differ from the recorded ones.`,
    ),
    ...(needs.length > 0 ? ['# The same case as a node test (node --test, Node alone) is the .test.mjs file of the same name beside this script.'] : []),
    '# Exit status: 0 the target gives the answer needed (the failure is gone); 1 the failure is present;',
    '#   2 the script could not run (curl or node missing, a setup request refused, no answer);',
    '#   3 undecided: the answer needed is not available as data for this failure (compare the answers by eye).',
    'set -u',
    'command -v curl >/dev/null || { echo "this reproducer needs curl on PATH" >&2; exit 2; }',
    'command -v node >/dev/null || { echo "this reproducer needs node on PATH" >&2; exit 2; }',
    `SERVER=\${SERVER:-${shellQuote(server)}}`,
    'SERVER=${SERVER%/}',
    'TLS=()',
    '[ -n "${CA:-}" ] && TLS+=(--cacert "$CA")',
    '[ "${INSECURE:-}" = 1 ] && TLS+=(-k)',
    'R=$(mktemp -d)',
    ...(exchanges.some((e) => runVars(redactText(bodyText(e.request.body) ?? '')).length > 0) ? [SHELL_REP] : []),
    ...(plan.learned.length > 0
      ? [
          'learn() { node -e \'let v;try{v=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"))}catch{};for(const k of JSON.parse(process.argv[2]))v=v?.[k];process.stdout.write(String(v??""))\' "$1" "$2"; }',
          SHELL_ENC,
        ]
      : []),
    // Empty until learned: an answer that lacks one leaves it empty, and the verdict says undecided.
    ...plan.learned.map((l) => `${l.name}= ${l.name}_Q=`),
    ...plan.namespaces.map((ns, i) => `NS${i + 1}=${shellQuote(`${ns.slice(0, 50)}-r`)}$RANDOM`),
    ...plan.groups.map((g, i) => `GRP${i + 1}=r$RANDOM$RANDOM${shellQuote(g.slice(g.indexOf('.')))}`),
    'cleanup() {',
    '  local code=$?',
    // Status 1 means "the failure is present" and only the verdict says it: a shell error (an unset
    // variable, a command that failed) before the verdict is "could not run".
    `  [ "$code" = ${REPRODUCER_EXIT.failing} ] && [ -z "\${DECIDED:-}" ] && code=${REPRODUCER_EXIT.couldNotRun}`,
    '  jobs -p | xargs -r kill 2>/dev/null',
    ...plan.namespaces.map((_, i) => `  curl -sS -o /dev/null -X DELETE "$SERVER/api/v1/namespaces/$NS${i + 1}" ${auth} ${insecureArg}`),
    ...ownObjectsIn(exchanges, plan).map((c) => `  curl -sS -o /dev/null -X DELETE "$SERVER"${shellQuote(`${c.collection}?labelSelector=${encodeURIComponent(c.selector)}`)} ${auth} ${insecureArg}`),
    ...crds.map((c) => `  curl -sS -o /dev/null -X DELETE "$SERVER"${quoteWithVars(redactText(`${c.e.request.path}/${c.name}`), nameVars(plan))} ${auth} ${insecureArg}`),
    ...webhooks
      .map((w) => {
        const name = String((w.request.body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '');
        return name === '' ? '' : `  curl -sS -o /dev/null -X DELETE "$SERVER"${quoteWithVars(redactText(`${w.request.path}/${name}`), nameVars(plan))} ${auth} ${insecureArg}`;
      })
      .filter((l) => l !== ''),
    '  rm -rf "$R"',
    '  exit $code',
    '}',
    'trap cleanup EXIT',
    "trap 'exit 2' INT TERM",
    '# call N ARGS...: sends request N with curl, keeps its answer in $R/N.{s,h,b}, prints status line, headers and body apart.',
    'call() {',
    '  local i=$1; shift',
    `  curl -sS --path-as-is -g ${insecureArg} -D "$R/$i.h" -o "$R/$i.b" -w '%{http_code}' "$@" > "$R/$i.s"`,
    '  stamp "$i"',
    '  show "$i"',
    '}',
    '# stamp N: when request N was answered (a watch: established), in ms; a watch verdict may rest on it.',
    'stamp() { date +%s%3N > "$R/$1.t" 2>/dev/null; }',
    'show() {',
    '  echo "=== request $1: answered $(cat "$R/$1.s" 2>/dev/null)"',
    '  [ -f "$R/$1.h" ] && tr -d \'\\r\' < "$R/$1.h"',
    '  [ -f "$R/$1.b" ] && cat "$R/$1.b"',
    '  echo; echo',
    '}',
    '# setup N ARGS...: a request the case needs in place; a refusal (other than "exists") stops the script.',
    'setup() {',
    '  call "$@"',
    '  case "$(cat "$R/$1.s")" in 2??|409) ;; *) echo "setup request $1 was refused ($(cat "$R/$1.s")): the reproducer cannot run" >&2; exit 2 ;; esac',
    '}',
    ...(exchanges.some(isStream)
      ? [
          '# stream N SECONDS ARGS...: a watch, read in the background for at most SECONDS; it goes on once the',
          "# answer's headers are in (the watch is established), or after 1 s.",
          'stream() {',
          '  local i=$1 t=$2; shift 2',
          `  curl -sS -N --max-time "$t" --path-as-is -g ${insecureArg} -D "$R/$i.h" -o "$R/$i.b" -w '%{http_code}' "$@" > "$R/$i.s" &`,
          `  for _ in $(seq 1 100); do grep -q $'^\\r*$' "$R/$i.h" 2>/dev/null && break; sleep 0.01; done`,
          '  stamp "$i"',
          '}',
        ]
      : []),
    ...(dropped.length > 0
      ? [
          '# dropped N PATH RV_Q: waits (up to 30 s) until the target says version RV left its history (a list at exactly',
          '# that version answers 410, rest:6.1.3); otherwise $R/N.held says it was still there when watch N started.',
          'dropped() {',
          `  for _ in $(seq 1 150); do [ "$(curl -sS -o /dev/null -w '%{http_code}' ${insecureArg} ${auth} "$SERVER$2?resourceVersion=$3&resourceVersionMatch=Exact")" = 410 ] && return 0; sleep 0.2; done`,
          '  echo "version $3 was still in the history after 30 s" > "$R/$1.held"',
          '}',
        ]
      : []),
    ...(crds.length > 0
      ? [
          '# served PATH: waits (up to 60 s) until a new type is served.',
          'served() {',
          `  for _ in $(seq 1 120); do [ "$(curl -sS -o /dev/null -w '%{http_code}' ${insecureArg} ${auth} "$SERVER$1")" = 200 ] && return 0; sleep 0.5; done`,
          '  echo "the custom resource type at $1 was not served within 60 s" >&2; exit 2',
          '}',
        ]
      : []),
    '',
  ];
  const order = plan.order;
  const streams: number[] = [];
  const waits = pauses(exchanges, order);
  for (const i of order) {
    const e = exchanges[i]!;
    const pause = waits.get(i);
    if (pause !== undefined) lines.push(`# the failing case waited ${pause} ms here: so does this run`, `sleep ${(pause / 1000).toFixed(3)}`);
    const note = comment(e);
    if (note !== undefined) lines.push(note);
    const held = dropped.find((d) => d.stream === i);
    if (held !== undefined)
      lines.push(
        "# the failing case compacted the target's history before this watch; this run waits for its version to leave it instead",
        `dropped ${i} ${quoteWithVars(redactText(e.request.path), nameVars(plan))} "$${held.name}_Q"`,
      );
    if (isStream(e)) {
      streams.push(i);
      lines.push(curlCommand(e.request, `stream ${i} ${Math.max(3, Math.ceil(e.durationMs / 1000) + 2)}`, plan, i));
    } else lines.push(curlCommand(e.request, `${isSetup(e) && !judged.has(i) ? 'setup' : 'call'} ${i}`, plan, i));
    if (isCrdCreate(e)) {
      const spec = (e.request.body as { spec?: { group?: unknown; versions?: { name?: unknown }[] } } | undefined)?.spec;
      const version = spec?.versions?.[0]?.name;
      if (typeof spec?.group === 'string' && typeof version === 'string') lines.push(`served ${quoteWithVars(`/apis/${spec.group}/${version}`, nameVars(plan))}`);
    }
    for (const l of plan.learned.filter((x) => x.from === i)) lines.push(`${l.name}=$(learn "$R/${i}.b" ${shellQuote(JSON.stringify(l.path))}); ${l.name}_Q=$(enc "$${l.name}")`);
    lines.push('');
  }
  if (streams.length > 0) lines.push('wait', ...streams.map((i) => `show ${i}`), '');
  lines.push(...verdictBlock(needs, exchanges, plan, dropped));
  return lines.join('\n');
}

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').slice(0, 400);

function webhookUrls(e: Exchange): string[] {
  const hooks = (e.request.body as { webhooks?: { clientConfig?: { url?: unknown; service?: { name?: unknown } } }[] } | undefined)?.webhooks ?? [];
  return hooks
    .map((h) => (typeof h.clientConfig?.url === 'string' ? h.clientConfig.url : typeof h.clientConfig?.service?.name === 'string' ? `service ${h.clientConfig.service.name}` : ''))
    .filter((u) => u !== '');
}

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

/** The recorded answer, as a comment; a setup step the case did not send itself needs none. */
function comment(e: Exchange): string | undefined {
  if (e.response) return `# recorded: ${e.response.status}`;
  if (isSetup(e)) return undefined;
  return `# recorded: transport error: ${redactText(e.transportError ?? 'unknown').replace(/\s*\n\s*/g, ' ')}`;
}

/** The watches a need reads that start from a learned resourceVersion, with the learned value's shell name. */
export function heldWatches(exchanges: readonly Exchange[], plan: ReplayPlan, needs: readonly AnswerNeed[]): { stream: number; name: string }[] {
  return lateWatches(exchanges, plan.learned, needs).map((w) => {
    const rv = (exchanges[w.stream]!.request.query ?? []).find(([k]) => k === 'resourceVersion')?.[1];
    return { stream: w.stream, name: plan.learned.find((l) => l.value === rv && l.from === w.from)!.name };
  });
}

/** The end of a reproducer: the needs evaluated on the answers it got, and the exit status. */
function verdictBlock(needs: readonly AnswerNeed[], exchanges: readonly Exchange[], plan: ReplayPlan, dropped: readonly { stream: number }[]): string[] {
  const count = exchanges.length;
  if (needs.length === 0) {
    return ['echo "undecided: the answer this failure needed is not available as data; compare the answers above with the expected line at the top" >&2', `exit ${REPRODUCER_EXIT.undecided}`];
  }
  const reader = String.raw`const fs = require('fs');
const dir = process.argv[2];
const read = (f) => { try { return fs.readFileSync(dir + '/' + f, 'utf8'); } catch { return undefined; } };
${DOCUMENTS_JS}
const answer = (i) => { const s = read(i + '.s'); if (s === undefined) return undefined;
  const blocks = (read(i + '.h') || '').replace(/\r/g, '').split('\n\n').filter((b) => b.trim() !== '');
  const headers = {}; for (const l of (blocks[blocks.length - 1] || '').split('\n').slice(1)) { const k = l.indexOf(':'); if (k > 0) headers[l.slice(0, k).trim().toLowerCase()] = l.slice(k + 1).trim(); }
  const text = read(i + '.b') || ''; let body; try { body = JSON.parse(text); } catch { body = text; }
  return { status: Number(s) || 0, headers, body, events: documents(text) }; };`;
  // This run's values of the recorded literals, handed to node as arguments: learned values, namespaces, groups.
  const literals = runLiterals(plan);
  const watches = lateWatches(exchanges, plan.learned, needs);
  return [
    `# The answer the spec needs (svc-conformance's model), checked on the answers above, with the values this run learned.`,
    'DECIDED=1',
    `node - "$R"${literals.map((l) => ` "$${l.shell}"`).join('')} <<'CHECK'`,
    // A check that breaks is no verdict on the target (node's own status for it would be 1).
    `process.on('uncaughtException', (e) => { console.error('the check itself broke: ' + (e && e.message)); process.exit(${REPRODUCER_EXIT.couldNotRun}); });`,
    reader,
    REMAP_JS,
    PREMISES_JS,
    LATE_JS,
    `const literals = ${JSON.stringify(literals.map((l) => [l.literal, l.whole]))}.map(([lit, whole], k) => [lit, process.argv[3 + k], whole]);`,
    `const needs = remap(${JSON.stringify(needs)}, literals);`,
    `const premises = ${JSON.stringify(premises(exchanges, needs, isSetup))};`,
    `const evaluate = ${EVALUATOR_JS};`,
    `const used = [...new Set(JSON.stringify(needs).match(/"request":\\d+/g).map((m) => Number(m.split(':')[1])))];`,
    `const silent = used.filter((i) => { const a = answer(i); return a === undefined || a.status === 0; });`,
    `if (silent.length > 0) { console.error('no answer to request(s) ' + silent.join(', ') + ' of ${count}: the target could not be asked'); process.exit(${REPRODUCER_EXIT.couldNotRun}); }`,
    `const unlearned = ${JSON.stringify(mustLearn(plan.learned, needs, plan.position).map((l) => ({ name: l.name, from: l.from, path: l.path, arg: literals.findIndex((x) => x.shell === l.name) })))}.find((l) => (process.argv[3 + l.arg] || '') === '');`,
    `const off = unlearned ? 'request ' + unlearned.from + ' answered without ' + unlearned.path.join('.') + ', which the failing case learned there and sent on: this run took another path than the failure, so its needs decide nothing' : diverged(premises, answer);`,
    `if (off !== undefined) { console.error('undecided: ' + off); process.exit(${REPRODUCER_EXIT.undecided}); }`,
    `const results = evaluate(needs, answer);`,
    `const open = results.find((r) => r.undecided);`,
    `if (open !== undefined) { console.error('undecided: ' + open.says + ' (' + open.observed + ')'); process.exit(${REPRODUCER_EXIT.undecided}); }`,
    `for (const r of results) console.log((r.ok ? 'ok    ' : 'FAILS ') + r.says + ' (observed: ' + r.observed + ')');`,
    `const failing = results.some((r) => !r.ok);`,
    `const tooLate = failing ? undefined : late(${JSON.stringify(watches)}, (i) => { const t = Number((read(i + '.t') || '').trim()); return Number.isFinite(t) && t > 0 ? t : undefined; });`,
    `if (tooLate !== undefined) { console.error('undecided: ' + tooLate); process.exit(${REPRODUCER_EXIT.undecided}); }`,
    `const held = failing ? undefined : ${JSON.stringify(dropped.map((d) => d.stream))}.map((i) => read(i + '.held')).find((x) => x !== undefined);`,
    `if (held !== undefined) { console.error('undecided: ' + held.trim() + ': the failing case watched from a version its history had dropped, and this run could not make the target drop it'); process.exit(${REPRODUCER_EXIT.undecided}); }`,
    `console.log(failing ? 'the failure is present' : 'the target gives the answer needed: the failure is gone');`,
    `process.exit(failing ? ${REPRODUCER_EXIT.failing} : ${REPRODUCER_EXIT.behaves});`,
    'CHECK',
  ];
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

interface ReplayPlan {
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
    if (e.request.method === 'POST' && /\/api\/v1\/namespaces$/.test(e.request.path) && typeof body?.metadata?.name === 'string' && !namespaces.includes(body.metadata.name))
      namespaces.push(body.metadata.name);
  }
  const groups: string[] = [];
  for (const e of exchanges) {
    const group = (e.request.body as { spec?: { group?: unknown } } | undefined)?.spec?.group;
    if (isCrdCreate(e) && typeof group === 'string' && RUN_GROUP.test(group) && !groups.includes(group)) groups.push(group);
  }
  const order = sendOrder(exchanges);
  return { order, position: positions(order, exchanges.length), namespaces, groups, learned: learnedValues(exchanges, needStrings(needs, exchanges.length), order) };
}

function curlCommand(req: TargetRequest, head: string, plan: ReplayPlan, index: number): string {
  const parts = [head];
  parts.push(`-X ${req.method}`);
  parts.push(urlWord(req, plan, index));
  // rest:5: who sent it. Anonymous requests carry no credentials; the unknown identity a token nobody issued.
  if (req.identity === undefined) parts.push('${TOKEN:+-H "Authorization: Bearer $TOKEN"}');
  else if (req.identity === 'unknown') parts.push(`-H 'Authorization: Bearer not-a-token-of-this-server'`);
  else if (req.identity === 'restricted') parts.push('${RESTRICTED_TOKEN:+-H "Authorization: Bearer $RESTRICTED_TOKEN"}');
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (isSecretHeader(name) || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    parts.push(`-H ${quoteWithVars(`${name}: ${redactText(value)}`, nameVars(plan))}`);
  }
  const body = bodyText(req.body);
  // A body with no declared type would go out as a form: a setup step the case did not send itself
  // (a reused namespace's creation) carries a JSON object and no headers.
  if (body !== undefined && !Object.keys(req.headers ?? {}).some((h) => h.toLowerCase() === 'content-type')) parts.push(`-H 'content-type: application/json'`);
  // Binary bodies (protobuf) hold NUL and invalid UTF-8: every byte as a printf escape, fed as a file.
  if (req.body instanceof Uint8Array && !isText(req.body)) parts.push(`--data-binary @<(printf '${[...req.body].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}')`);
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
function nameVars(plan: ReplayPlan): [string, string][] {
  return [...plan.namespaces.map((ns, i): [string, string] => [ns, `"$NS${i + 1}"`]), ...plan.groups.map((g, i): [string, string] => [g, `"$GRP${i + 1}"`])].sort((a, b) => b[0].length - a[0].length);
}

/**
 * Names, and values learned from answers before request `index`, as whole JSON strings only: a
 * version "6" must not replace the 6 inside a name or label.
 */
function bodyVars(plan: ReplayPlan, index: number): [string, string][] {
  const learned = plan.learned.filter((l) => plan.position[l.from]! < plan.position[index]!).map((l): [string, string] => [JSON.stringify(l.value), `'"'"$${l.name}"'"'`]);
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
    else pieces.push(quoteWithVars(redactText(sep + (v === null ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)), vars));
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
function quoteWithVars(text: string, vars: readonly [string, string][]): string {
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
function ownObjectsIn(exchanges: readonly Exchange[], plan: ReplayPlan): { collection: string; selector: string }[] {
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
