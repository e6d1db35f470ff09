/**
 * Reproductions a person can run without the suite (docs/architecture.md "Oracle rules"): a counterexample's
 * exchanges as a bash script of curl commands, and a one-line form for step lists. Credentials never
 * appear: the token comes from the reader's environment at run time.
 */
import type { Exchange } from '../transport/index.ts';
import { redactText } from '../transport/index.ts';
import { EVALUATOR_JS, requestsOf, type AnswerNeed } from '../../reference/answer-checks.ts';
import { PREMISES_JS, REMAP_JS, mustLearn, premises } from './replay-premises.ts';
import { LATE_JS, lateWatches, pauses } from './replay-timing.ts';
import {
  DOCUMENTS_JS,
  REPRODUCER_EXIT,
  SHELL_ENC,
  SHELL_REP,
  bodyText,
  curlCommand,
  isCrdCreate,
  isSetup,
  isStream,
  isWebhookCreate,
  nameVars,
  ownObjectsIn,
  quoteWithVars,
  replayPlan,
  runLiterals,
  runVars,
  shellQuote,
  type ReplayPlan,
} from './curl-words.ts';

// The words' own users (node test files, process reproducers, the self-tests) take them from here too.
export {
  DOCUMENTS_JS,
  REPRODUCER_EXIT,
  SHELL_ENC,
  SHELL_REP,
  SKIPPED_HEADERS,
  bodyText,
  describeExchange,
  isCrdCreate,
  isSetup,
  isStream,
  isText,
  isWebhookCreate,
  replayPlan,
  sendOrder,
  shellQuote,
} from './curl-words.ts';

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
/**
 * A standalone reproducer: bash, curl and node, nothing of this repository. It
 * creates what the case needs under fresh names, sends the recorded requests with learned values,
 * prints each answer apart, evaluates the answer needed (reference/answer-checks.ts) and exits 1
 * while the failure is present, 0 once the target behaves; it deletes what it created on every exit.
 */
/** What every part of one script reads: the recorded case, its options and the replay plan made of them. */
interface Script {
  readonly exchanges: readonly Exchange[];
  readonly opts: CurlOptions;
  readonly server: string;
  readonly needs: readonly AnswerNeed[];
  readonly plan: ReplayPlan;
  readonly webhooks: readonly Exchange[];
  readonly crds: readonly { readonly e: Exchange; readonly name: string }[];
  readonly dropped: readonly { stream: number; name: string }[];
}

const insecureArg = '${TLS[@]+"${TLS[@]}"}';
const auth = '${TOKEN:+-H "Authorization: Bearer $TOKEN"}';

export function toCurlScript(exchanges: readonly Exchange[], opts: CurlOptions): string {
  const needs = opts.needs ?? [];
  const plan = replayPlan(exchanges, needs);
  const crds = exchanges
    .filter(isCrdCreate)
    .map((e) => ({ e, name: String((e.request.body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '') }))
    .filter((c) => c.name !== '');
  const dropped = opts.compacted === true ? heldWatches(exchanges, plan, needs) : [];
  const sc: Script = {
    exchanges,
    opts,
    server: redactText(opts.server.replace(/\/+$/, '')),
    needs,
    plan,
    webhooks: exchanges.filter(isWebhookCreate),
    crds,
    dropped,
  };
  const lines = [...headerLines(sc), ...cleanupLines(sc), ...shellFunctions(sc), '', ...requestLines(sc)];
  lines.push(...verdictBlock(needs, exchanges, plan, dropped));
  return lines.join('\n');
}

/** The script's header (what it is, what it reads from the environment, its exit statuses) and its variables. */
function headerLines({ exchanges, opts, server, plan, webhooks, crds, needs }: Script): string[] {
  const about = opts.about;
  const usesRestricted = exchanges.some((e) => e.request.identity === 'restricted');
  return [
    '#!/usr/bin/env bash',
    `# Reproducer by svc-conformance${about ? ` for ${about.clause}` : ''}: ${exchanges.length} request(s), recorded against ${server}.`,
    ...(about
      ? [
          `#   expected: ${oneLine(about.expected)}`,
          `#   observed: ${oneLine(about.observed)}`,
          ...(about.replay ? [`#   found by: ${oneLine(about.replay)}`] : []),
        ]
      : []),
    '#',
    '# Runs against any API server of the kind; nothing of svc-conformance is needed (bash, curl, node).',
    `#   SERVER    base URL of the target (default: the recorded one); plain http:// works`,
    '#   TOKEN     bearer token sent with the requests; unset, they carry no credentials',
    ...(usesRestricted ? ['#   RESTRICTED_TOKEN  bearer token of the restricted identity, for the requests the case sent as it'] : []),
    "#   CA        CA bundle file that verifies the server's certificate",
    `#   INSECURE  1: skip certificate verification (curl -k); nothing else does${opts.insecure === true ? ' (the recorded run skipped it)' : ''}`,
    '# It creates namespaces of its own (fresh names each run)' +
      (crds.length > 0 ? ' and the custom resource definition the case uses' : '') +
      ", sends the case's requests,",
    '# prints each answer, checks the answer the spec needs, and deletes what it created on every exit.',
    ...webhooks.map(
      (w) =>
        `# This case registers an admission webhook that the suite served during its run (${oneLine(redactText(webhookUrls(w).join(', ') || 'its URL'))}); this script cannot serve it: without a webhook answering there, the target's answers differ from the recorded ones.`,
    ),
    ...(needs.length > 0
      ? ['# The same case as a node test (node --test, Node alone) is the .test.mjs file of the same name beside this script.']
      : []),
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
  ];
}

/** The trap that deletes what the script created, on every exit. */
function cleanupLines({ exchanges, plan, crds, webhooks }: Script): string[] {
  return [
    'cleanup() {',
    '  local code=$?',
    // Status 1 means "the failure is present" and only the verdict says it: a shell error (an unset
    // variable, a command that failed) before the verdict is "could not run".
    `  [ "$code" = ${REPRODUCER_EXIT.failing} ] && [ -z "\${DECIDED:-}" ] && code=${REPRODUCER_EXIT.couldNotRun}`,
    '  jobs -p | xargs -r kill 2>/dev/null',
    ...plan.namespaces.map((_, i) => `  curl -sS -o /dev/null -X DELETE "$SERVER/api/v1/namespaces/$NS${i + 1}" ${auth} ${insecureArg}`),
    ...ownObjectsIn(exchanges, plan).map(
      (c) =>
        `  curl -sS -o /dev/null -X DELETE "$SERVER"${shellQuote(`${c.collection}?labelSelector=${encodeURIComponent(c.selector)}`)} ${auth} ${insecureArg}`,
    ),
    ...crds.map(
      (c) =>
        `  curl -sS -o /dev/null -X DELETE "$SERVER"${quoteWithVars(redactText(`${c.e.request.path}/${c.name}`), nameVars(plan))} ${auth} ${insecureArg}`,
    ),
    ...webhooks
      .map((w) => {
        const name = String((w.request.body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '');
        return name === ''
          ? ''
          : `  curl -sS -o /dev/null -X DELETE "$SERVER"${quoteWithVars(redactText(`${w.request.path}/${name}`), nameVars(plan))} ${auth} ${insecureArg}`;
      })
      .filter((l) => l !== ''),
    '  rm -rf "$R"',
    '  exit $code',
    '}',
    'trap cleanup EXIT',
    "trap 'exit 2' INT TERM",
  ];
}

/** The shell functions the requests are sent with: the ones this case needs. */
function shellFunctions({ exchanges, dropped, crds }: Script): string[] {
  return [
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
  ];
}

/** The case's requests in the order the script sends them, with the pauses, waits and values learned between. */
function requestLines({ exchanges, needs, plan, dropped }: Script): string[] {
  // A setup request the failure is about (a namespace create refused) is sent as a call: its answer is judged, it does not stop the script.
  const judged = new Set(needs.flatMap((n) => requestsOf(n.test)));
  const lines: string[] = [];
  const order = plan.order;
  const streams: number[] = [];
  const waits = pauses(exchanges, order);
  for (const i of order) {
    const e = exchanges[i]!;
    const pause = waits.get(i);
    if (pause !== undefined)
      lines.push(`# the failing case waited ${pause} ms here: so does this run`, `sleep ${(pause / 1000).toFixed(3)}`);
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
      if (typeof spec?.group === 'string' && typeof version === 'string')
        lines.push(`served ${quoteWithVars(`/apis/${spec.group}/${version}`, nameVars(plan))}`);
    }
    for (const l of plan.learned.filter((x) => x.from === i))
      lines.push(`${l.name}=$(learn "$R/${i}.b" ${shellQuote(JSON.stringify(l.path))}); ${l.name}_Q=$(enc "$${l.name}")`);
    lines.push('');
  }
  if (streams.length > 0) lines.push('wait', ...streams.map((i) => `show ${i}`), '');
  return lines;
}

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').slice(0, 400);

function webhookUrls(e: Exchange): string[] {
  const hooks =
    (e.request.body as { webhooks?: { clientConfig?: { url?: unknown; service?: { name?: unknown } } }[] } | undefined)?.webhooks ?? [];
  return hooks
    .map((h) =>
      typeof h.clientConfig?.url === 'string'
        ? h.clientConfig.url
        : typeof h.clientConfig?.service?.name === 'string'
          ? `service ${h.clientConfig.service.name}`
          : '',
    )
    .filter((u) => u !== '');
}

/** The recorded answer, as a comment; a setup step the case did not send itself needs none. */
function comment(e: Exchange): string | undefined {
  if (e.response) return `# recorded: ${e.response.status}`;
  if (isSetup(e)) return undefined;
  return `# recorded: transport error: ${redactText(e.transportError ?? 'unknown').replace(/\s*\n\s*/g, ' ')}`;
}

/** The watches a need reads that start from a learned resourceVersion, with the learned value's shell name. */
export function heldWatches(
  exchanges: readonly Exchange[],
  plan: ReplayPlan,
  needs: readonly AnswerNeed[],
): { stream: number; name: string }[] {
  return lateWatches(exchanges, plan.learned, needs).map((w) => {
    const rv = (exchanges[w.stream]!.request.query ?? []).find(([k]) => k === 'resourceVersion')?.[1];
    return { stream: w.stream, name: plan.learned.find((l) => l.value === rv && l.from === w.from)!.name };
  });
}

/** The end of a reproducer: the needs evaluated on the answers it got, and the exit status. */
function verdictBlock(
  needs: readonly AnswerNeed[],
  exchanges: readonly Exchange[],
  plan: ReplayPlan,
  dropped: readonly { stream: number }[],
): string[] {
  const count = exchanges.length;
  if (needs.length === 0) {
    return [
      'echo "undecided: the answer this failure needed is not available as data; compare the answers above with the expected line at the top" >&2',
      `exit ${REPRODUCER_EXIT.undecided}`,
    ];
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
