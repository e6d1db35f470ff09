/**
 * Standalone reproducers of failures of processes: the node-agent config loader and
 * the controller daemon. As for the API server's curl scripts, bash and nothing of this repository:
 * the exact file or command line, what was observed, and the answer the model needed, checked.
 * Exit 0 the target behaves (the failure is gone), 1 the failure is present, 2 the script could not
 * run or ask (the command cannot run, no answer within the start window), 3 undecided (the answer
 * needed is not data for this failure: compare by eye).
 */
import type { AnswerNeed } from '../../reference/answer-checks.ts';
import { REPRODUCER_EXIT, shellQuote } from './curl.ts';

export interface ProcessAbout {
  readonly clause: string;
  readonly expected: string;
  readonly observed: string;
  readonly replay?: string;
}

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').slice(0, 400);

function header(what: string, about: ProcessAbout): string[] {
  return [
    '#!/usr/bin/env bash',
    `# Reproducer by svc-conformance for ${about.clause}: ${what}.`,
    `#   expected: ${oneLine(about.expected)}`,
    `#   observed: ${oneLine(about.observed)}`,
    ...(about.replay ? [`#   found by: ${oneLine(about.replay)}`] : []),
    '#',
  ];
}

const EXIT_LINES = [
  '# Exit status: 0 the target gives the answer needed (the failure is gone); 1 the failure is present;',
  '#   2 the script could not run (the command cannot run, no answer in time); 3 undecided: the answer',
  '#   needed is not available as data for this failure (compare the output with the expected line above).',
];

/** The process need of a failure: refuse (exit non-zero), accept (exit 0) or serve; else undecided. */
function want(needs: readonly AnswerNeed[] | undefined): 'refuse' | 'accept' | 'serve' | undefined {
  const t = needs?.[0]?.test;
  if (t?.kind === 'exit') return t.nonZero ? 'refuse' : 'accept';
  if (t?.kind === 'serves') return 'serve';
  return undefined;
}

/** A heredoc delimiter the text does not contain. */
function delimiter(text: string): string {
  let d = 'SVC_CONFORMANCE_FILE';
  while (text.split('\n').includes(d)) d += '_';
  return d;
}

/**
 * A node-agent loader failure: the configuration file (written next to the script when it runs, kept
 * there to read) and the loader command that validates it, run as the suite ran it (the path appended).
 */
export function loaderReproducer(o: {
  fileName: string;
  text: string;
  command: string;
  needs?: readonly AnswerNeed[];
  about: ProcessAbout;
}): string {
  const w = want(o.needs);
  const d = delimiter(o.text);
  const says = o.needs?.[0]?.says ?? '';
  const lines = [
    ...header(`one node-agent configuration file and the loader's answer`, o.about),
    '# Runs any node-agent config loader that speaks the loader protocol (exit 0 accepted, non-zero rejected);',
    '# nothing of svc-conformance is needed but the loader you test.',
    `#   LOADER  the command that validates a file, run with the file's path appended (default: the recorded one)`,
    `# It writes the file next to itself (${o.fileName}, left there to read), runs "$LOADER <file>" and prints its answer.`,
    ...EXIT_LINES,
    'set -u',
    `LOADER=\${LOADER:-${shellQuote(o.command)}}`,
    'DIR=$(cd "$(dirname "$0")" && pwd)',
    `FILE="$DIR/"${shellQuote(o.fileName)}`,
    `cat > "$FILE" <<'${d}' || { echo "cannot write $FILE" >&2; exit ${REPRODUCER_EXIT.couldNotRun}; }`,
    o.text.endsWith('\n') ? o.text.slice(0, -1) : o.text,
    d,
    'OUT=$(sh -c "$LOADER \\"\\$1\\"" sh "$FILE" 2>&1); CODE=$?',
    'echo "=== $LOADER $FILE: exit $CODE"',
    'printf \'%s\\n\' "$OUT"',
    `case $CODE in 126|127) echo "the loader command cannot run (exit $CODE)" >&2; exit ${REPRODUCER_EXIT.couldNotRun} ;; esac`,
    `[ "$CODE" -gt 128 ] && { echo "the loader was killed (exit $CODE)" >&2; exit ${REPRODUCER_EXIT.couldNotRun}; }`,
  ];
  if (w === 'refuse' || w === 'accept') {
    const ok = w === 'refuse' ? '[ "$CODE" -ne 0 ]' : '[ "$CODE" -eq 0 ]';
    lines.push(
      `SAYS=${shellQuote(says)}`,
      `if ${ok}; then echo "ok    $SAYS (observed: exit $CODE)"; echo "the target gives the answer needed: the failure is gone"; exit ${REPRODUCER_EXIT.behaves}; fi`,
      'echo "FAILS $SAYS (observed: exit $CODE)"',
      'echo "the failure is present"',
      `exit ${REPRODUCER_EXIT.failing}`,
    );
  } else {
    lines.push(
      'echo "undecided: the answer this failure needed is not available as data; compare the answer above with the expected line at the top" >&2',
      `exit ${REPRODUCER_EXIT.undecided}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A controller daemon failure: the exact command line (the suite's loopback address, a free port and a
 * kubeconfig, then the case's flags), started and watched as the suite did: it exits, or it serves
 * /healthz on the port, within START_TIMEOUT seconds; a daemon that serves is given SETTLE seconds to
 * exit still (a refusal may come just after the port opens).
 */
export function daemonReproducer(o: {
  command: string;
  kubeconfigFlag: string;
  words: readonly string[];
  needs?: readonly AnswerNeed[];
  about: ProcessAbout;
  startTimeoutS: number;
  settleS: number;
}): string {
  const w = o.needs?.length ? want(o.needs) : undefined;
  const says = o.needs?.[0]?.says ?? '';
  const lines = [
    ...header('one start of the controller daemon with this command line', o.about),
    '# Runs any controller daemon of the kind; nothing of svc-conformance is needed but the daemon you test.',
    '#   DAEMON         the daemon command, the flags below are appended (default: the recorded one)',
    '#   SVCCONFIG      kubeconfig of an API server the daemon may use; unset, one is written for SERVER',
    '#   SERVER, TOKEN  the API server (and bearer token) for that kubeconfig',
    '#   START_TIMEOUT  seconds to wait for the daemon to exit or serve /healthz (default ' + String(o.startTimeoutS) + ')',
    '# The command line: "$DAEMON" --bind-address=127.0.0.1 --secure-port=<a free port> ' +
      `${o.kubeconfigFlag}=<kubeconfig> ${o.words.map(shellQuote).join(' ')}`,
    ...EXIT_LINES,
    'set -u',
    `command -v curl >/dev/null || { echo "this reproducer needs curl on PATH" >&2; exit ${REPRODUCER_EXIT.couldNotRun}; }`,
    `DAEMON=\${DAEMON:-${shellQuote(o.command)}}`,
    `START_TIMEOUT=\${START_TIMEOUT:-${o.startTimeoutS}}`,
    `SETTLE=${o.settleS}`,
    'R=$(mktemp -d)',
    'PID=',
    'cleanup() { local code=$?; [ -n "$PID" ] && kill "$PID" 2>/dev/null && sleep 0.5 && kill -9 "$PID" 2>/dev/null; rm -rf "$R"; exit $code; }',
    'trap cleanup EXIT',
    `trap 'exit ${REPRODUCER_EXIT.couldNotRun}' INT TERM`,
    'if [ -n "${SVCCONFIG:-}" ]; then KC=$SVCCONFIG',
    'elif [ -n "${SERVER:-}" ]; then',
    '  KC="$R/kubeconfig"',
    '  { echo "apiVersion: v1"; echo "kind: Config"; echo "clusters:"; echo "- name: target"; echo "  cluster: {server: \\"$SERVER\\"}"; echo "users:"; echo "- name: suite";',
    '    if [ -n "${TOKEN:-}" ]; then echo "  user: {token: \\"$TOKEN\\"}"; else echo "  user: {}"; fi',
    '    echo "contexts:"; echo "- name: target"; echo "  context: {cluster: target, user: suite}"; echo "current-context: target"; } > "$KC"',
    `else echo "set SVCCONFIG (a kubeconfig) or SERVER (an API server URL) for the daemon's API server" >&2; exit ${REPRODUCER_EXIT.couldNotRun}; fi`,
    '# A free port: one the kernel hands out and closes again (node when present), else a random high one.',
    'PORT=$(node -e \'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})\' 2>/dev/null || echo $((20000 + RANDOM % 20000)))',
    `ARGS=(--bind-address=127.0.0.1 "--secure-port=$PORT" ${shellQuote(`${o.kubeconfigFlag}=`)}"$KC" ${o.words.map(shellQuote).join(' ')})`,
    'echo "=== $DAEMON ${ARGS[*]}"',
    '# exec: the daemon itself gets the PID that is watched and stopped.',
    'sh -c "exec $DAEMON \\"\\$@\\"" sh "${ARGS[@]}" > "$R/out" 2>&1 &',
    'PID=$!',
    'SEEN=',
    'for _ in $(seq 1 $((START_TIMEOUT * 10))); do',
    '  if ! kill -0 "$PID" 2>/dev/null; then wait "$PID"; CODE=$?; SEEN=exited; break; fi',
    '  S=$(curl -sk -o /dev/null -w \'%{http_code}\' --max-time 1 "https://127.0.0.1:$PORT/healthz")',
    '  if [ "$S" != 000 ]; then',
    '    SEEN=serving',
    '    for _ in $(seq 1 $((SETTLE * 10))); do kill -0 "$PID" 2>/dev/null || { wait "$PID"; CODE=$?; SEEN=exited; break; }; sleep 0.1; done',
    '    break',
    '  fi',
    '  sleep 0.1',
    'done',
    'echo "--- its output:"; tail -n 20 "$R/out"',
    `[ -z "$SEEN" ] && { echo "the daemon neither exited nor served /healthz within $START_TIMEOUT s: nothing to decide" >&2; exit ${REPRODUCER_EXIT.couldNotRun}; }`,
    'if [ "$SEEN" = exited ]; then OBS="exit $CODE"; PID=; else OBS="serves (/healthz answered $S) and keeps running"; fi',
    'echo "=== observed: $OBS"',
  ];
  if (w === 'refuse' || w === 'serve') {
    const ok = w === 'refuse' ? '[ "$SEEN" = exited ] && [ "$CODE" -ne 0 ]' : '[ "$SEEN" = serving ]';
    lines.push(
      `SAYS=${shellQuote(says)}`,
      `if ${ok}; then echo "ok    $SAYS (observed: $OBS)"; echo "the target gives the answer needed: the failure is gone"; exit ${REPRODUCER_EXIT.behaves}; fi`,
      'echo "FAILS $SAYS (observed: $OBS)"',
      'echo "the failure is present"',
      `exit ${REPRODUCER_EXIT.failing}`,
    );
  } else {
    lines.push(
      'echo "undecided: the answer this failure needed is not available as data; compare what the daemon did with the expected line at the top" >&2',
      `exit ${REPRODUCER_EXIT.undecided}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A process failure whose answer needed is not data (a handshake, a Lease, the --help table): the
 * steps that show it, as comments, and exit 3 (undecided) so no CI takes it for a pass.
 */
export function processSteps(steps: readonly string[], about: ProcessAbout): string {
  return [
    ...header('the steps below, by hand', about),
    ...steps.map((s) => `#   ${oneLine(s)}`),
    '#',
    ...EXIT_LINES,
    'echo "undecided: this failure is shown by the steps at the top of this script (run them by hand); the answer it needed is not available as data" >&2',
    `exit ${REPRODUCER_EXIT.undecided}`,
    '',
  ].join('\n');
}
