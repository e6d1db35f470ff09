/**
 * The controller daemon suite's verdicts (node:1.4, node:2.6, node:5, node:8), as pure functions of what
 * a check observed: the check starts the daemon, records plain data (exit codes, /healthz and path
 * statuses, TLS handshakes, Leases on the daemon's API server) and hands it here.
 *
 *   judgeVersion({ code: 0, output: 'Kubernetes v1.24.0' })[0].verdict -> 'pass'
 */
import { fail, inconclusive, pass, rule, tagged, unspecified, type Judgement } from '../judgement.ts';
import type { ProfileName } from '../profile.ts';
import { judgeHelp, type HelpRow } from './help.ts';
import type { LeaseWindow } from './leadership.ts';
import { pickCert } from './tls.ts';
import type { NamedCertKey } from './types.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';
import { needExit, needServes } from '../answer-checks.ts';

/** How one start ended, as seen by the suite. */
export type StartSeen =
  | { readonly kind: 'exited'; readonly code: number | null; readonly output: string }
  /** /healthz answered (status given) and the daemon was still running. */
  | { readonly kind: 'serving'; readonly healthz: number };

const tail = (s: string) => s.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
const exitText = (s: { code: number | null; output: string }) => `exit ${s.code}: ${tail(s.output)}`;

/** `--help`: exit 0 with a flag table, then every row against the spec (help.ts). */
export function judgeHelpRun(r: { code: number | null; rows: readonly HelpRow[] }, profile: ProfileName): Judgement[] {
  return [
    rule(
      'node:2.6/help',
      r.code === 0 && r.rows.length > 0,
      '--help prints the flag table and exits 0',
      `exit ${r.code}, ${r.rows.length} flag rows`,
    ),
    ...judgeHelp(r.rows, profile),
  ];
}

/** `--version`: a version printed, exit 0. */
export function judgeVersion(r: { code: number | null; output: string }): Judgement[] {
  return [
    rule(
      'node:2.6/version',
      r.code === 0 && r.output.trim() !== '',
      'a version printed, exit 0',
      `exit ${r.code}: ${tail(r.output) || '(nothing printed)'}`,
    ),
  ];
}

/** What the suite saw of the main loop of a daemon that kept serving with a control-loop value it should refuse. */
export interface MainLoopSeen {
  /** The daemon took its Lease (so its main loop runs) and kept running for the settle time after. */
  readonly leaderAndRunning: boolean;
  readonly window: LeaseWindow;
}

export interface Refusal {
  readonly clause: ClauseId;
  readonly rule: string;
  /** The word the refusal should name (`--cluster-cidr`, or the stray word). */
  readonly flag: string;
  /** `main-loop` rules may be refused when the control loop starts, after leadership (rules.ts). */
  readonly binding: 'refuse' | 'main-loop';
}

/**
 * A command line breaking one rule: refused (exit non-zero) passes, naming the option is recorded; still
 * serving fails, except for a `main-loop` rule while the main loop was not seen running (its refusal may
 * still come when the loop starts): inconclusive, the window named.
 */
/** A command line the spec refuses: the input that shows a daemon accepting what it should not. */
const INVALID = { input: 'invalid-value', class: 'invalid-accepted' } as const;

export function judgeRefusal(v: Refusal, seen: StartSeen, mainLoop?: MainLoopSeen): Judgement[] {
  const expected = `refused: exit non-zero naming ${v.flag} (${v.rule})`;
  if (seen.kind === 'serving') {
    if (v.binding === 'main-loop' && !mainLoop?.leaderAndRunning) {
      return [
        inconclusive(
          v.clause,
          `${expected}, at start or when the control loops start after leadership (Lease ${mainLoop?.window.namespace}/${mainLoop?.window.name} within ${mainLoop?.window.ms} ms: ${mainLoop?.window.basis})`,
          `/healthz answered ${seen.healthz}; the Lease was not taken within the window, so the main loop was not seen running`,
        ),
      ];
    }
    const how = v.binding === 'main-loop' ? 'took its Lease, so its main loop runs, and kept running' : 'the daemon kept running';
    return tagged([fail(v.clause, expected, `accepted: /healthz answered ${seen.healthz} and ${how}`, refusalNeeds(v))], INVALID);
  }
  if (seen.code === 0) return tagged([fail(v.clause, expected, exitText(seen), refusalNeeds(v))], INVALID);
  const bare = v.flag.replace(/^--/, '');
  return [
    ...tagged([pass(v.clause, expected, exitText(seen))], INVALID),
    seen.output.includes(bare)
      ? pass(v.clause, `output names ${v.flag}`)
      : unspecified(v.clause, `output names ${v.flag} (message text is not fixed by the spec)`, tail(seen.output)),
  ];
}

/**
 * A refusal at start is the whole rule for a flag the daemon reads at start: exiting non-zero meets
 * it (the message is not fixed). A control-loop value may be refused later, after leadership, which a
 * start alone does not show: no need then.
 */
const refusalNeeds = (v: Refusal) =>
  v.binding === 'main-loop' ? {} : { needs: [needExit(`the daemon refuses the command line (exits non-zero) rather than serve`, true)] };

/**
 * A command line setting an option without the option it needs (rules binding `open`): refusing it and
 * accepting it (the option has no effect) are both allowed; what the daemon did is recorded.
 */
export function judgeOpenDecision(o: { clause: ClauseId; rule: string; flag: string }, seen: StartSeen): Judgement[] {
  const expected = `${o.flag} without what it needs (${o.rule}): refused, or accepted with no effect`;
  if (seen.kind === 'serving') return [unspecified(o.clause, expected, `accepted: /healthz answered ${seen.healthz}`)];
  return [unspecified(o.clause, expected, `refused: ${exitText(seen)}`)];
}

/** A path probed on a serving daemon without credentials: its status, or undefined when nothing answered. */
export interface PathSeen {
  readonly path: string;
  readonly status: number | undefined;
  /** How long the suite waited for an answer, at most (named when none came). */
  readonly waitedMs?: number;
}

/**
 * Authorization of a daemon without `--authorization-kubeconfig` (node:5): a path listed in
 * `--authorization-always-allow-paths` is authorized: any answer but 401/403 (a listed path need not
 * exist: 404 is fine). Any other path is forbidden (403). No answer within the suite's wait decides
 * neither (node:5 bounds no answer time): inconclusive, the wait named.
 *
 *   judgePaths([{ path: '/readyz', status: undefined, waitedMs: 4000 }], ['/readyz'])[0].verdict -> 'inconclusive'
 */
export function judgePaths(paths: readonly PathSeen[], allowed: readonly string[]): Judgement[] {
  return paths.map(({ path, status, waitedMs }) => {
    const listed = allowed.includes(path);
    const clause = listed ? 'node:5/authorization-always-allow-paths' : 'node:5/authorization-kubeconfig';
    const expected = listed
      ? `${path} authorized without credentials (not 401/403; it need not exist)`
      : `${path} forbidden (no --authorization-kubeconfig)`;
    if (status === undefined)
      return inconclusive(
        clause,
        expected,
        `${path}: no answer${waitedMs !== undefined ? ` within ${waitedMs} ms` : ''} (the spec bounds no answer time)`,
      );
    return rule(clause, listed ? status !== 401 && status !== 403 : status === 403, expected, `${path}: ${status}`);
  });
}

/** A valid command line: the daemon serves /healthz on the chosen port and address; each option's clause passes. */
export function judgeValidStart(o: {
  port: number;
  clauses: readonly ClauseId[];
  seen: StartSeen;
  paths: readonly PathSeen[];
  allowed: readonly string[];
  /** What a clause expects of this command line, where more can be said than "accepted" (the gates the life cycle lets a daemon set). */
  expects?: Partial<Record<ClauseId, string>>;
}): Judgement[] {
  const expected = (c: ClauseId) => `${o.expects?.[c] ?? 'accepted'}: serves /healthz on the chosen port`;
  if (o.seen.kind === 'exited') {
    const blamed: readonly ClauseId[] = o.clauses.length > 0 ? o.clauses : ['node:1.4'];
    return blamed.map((c) =>
      fail(c, expected(c), exitText(o.seen as Extract<StartSeen, { kind: 'exited' }>), {
        needs: [needServes('the daemon starts and serves /healthz on --secure-port')],
      }),
    );
  }
  return [
    pass('node:1.4', 'started with options only'),
    pass('node:2.6/secure-port', `serves HTTPS on --secure-port ${o.port}`),
    pass('node:2.6/bind-address', 'serves on --bind-address 127.0.0.1'),
    ...o.clauses.map((c) => pass(c, o.expects?.[c] ?? 'accepted')),
    ...judgePaths(o.paths, o.allowed),
  ];
}

/**
 * A start that neither exited nor served /healthz within the window the suite gave it. No clause of
 * the daemon's document bounds how long a start may take, so this decides nothing about `clauses`:
 * they are inconclusive with this reason (never a pass, and no error of the suite: the daemon under
 * test is what did not answer). The check stops there: every further start would wait as long.
 */
export function notReadyReason(waitedMs: number, output: string, awaited: 'exited' | 'exited or served' = 'exited or served'): string {
  const said = output.trim().split('\n').slice(-3).join(' | ').slice(0, 300);
  const what = awaited === 'exited' ? 'the daemon had not exited' : 'the daemon neither exited nor served /healthz';
  return `${what} within the ${waitedMs} ms the suite waited (no clause bounds a start; --daemon-start-timeout widens the window)${said === '' ? '' : `: ${said}`}`;
}

/** A start that should serve but exited: the clause under test fails. */
export function judgeUnexpectedExit(clause: ClauseId, expected: string, seen: Extract<StartSeen, { kind: 'exited' }>): Judgement[] {
  return [fail(clause, expected, exitText(seen))];
}

/** A Lease as read from the daemon's API server. */
export interface LeaseSeen {
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion?: string;
  readonly holder?: string;
}

export interface LeaseObservation {
  readonly window: LeaseWindow;
  /** The Lease at the expected place before the start, and at the end of the wait. */
  readonly before?: LeaseSeen;
  readonly after?: LeaseSeen;
  /** Leases elsewhere written with a holder after the start (new, or a new resourceVersion). */
  readonly elsewhere: readonly LeaseSeen[];
  /** Whether the lock namespace existed on the server at the end of the wait. */
  readonly namespaceExists: boolean;
  /** The daemon exited during the wait. */
  readonly exited?: { readonly code: number | null; readonly output: string };
}

const LEASE_CLAUSES = ['node:2.6/leader-elect-resource-name', 'node:2.6/leader-elect-resource-namespace', 'node:2.6/leader-elect'] as const;

/** The Lease at the expected place was written with a holder after the start (a renewal or a takeover). */
export const leaseTaken = (o: Pick<LeaseObservation, 'before' | 'after'>): boolean =>
  Boolean(o.after?.holder && o.after.resourceVersion !== o.before?.resourceVersion);

/**
 * `--leader-elect=true`: the daemon holds the Lease at its default name and namespace. Written there:
 * pass. Written elsewhere: the place is wrong. Nothing written within the window the spec's durations
 * give: inconclusive, with the window named, and the server's fault named when the lock namespace does
 * not exist there (no daemon can create a Lease in it).
 */
export function judgeLease(o: LeaseObservation): Judgement[] {
  const place = `${o.window.namespace}/${o.window.name}`;
  const expected = `Lease ${place} written with a holder within ${o.window.ms} ms (${o.window.basis})`;
  if (leaseTaken(o)) return LEASE_CLAUSES.map((c) => pass(c, expected, `held by ${o.after!.holder}`));
  if (o.exited) return [fail('node:2.6/leader-elect', 'starts and serves with --leader-elect', exitText(o.exited))];
  const other = o.elsewhere[0];
  if (other) {
    const observed = `Lease written at ${other.namespace}/${other.name} (holder ${other.holder}) instead`;
    return [
      rule('node:2.6/leader-elect-resource-name', other.name === o.window.name, expected, observed),
      rule('node:2.6/leader-elect-resource-namespace', other.namespace === o.window.namespace, expected, observed),
      pass('node:2.6/leader-elect', 'leadership taken through a lock', observed),
    ];
  }
  const observed = !o.namespaceExists
    ? `the daemon's API server has no namespace ${o.window.namespace}: no daemon can create its Lease there (the server's fault, not the daemon's)`
    : o.after
      ? `unchanged since before the start (holder ${JSON.stringify(o.after.holder ?? '')}) at the end of the window`
      : 'no such Lease at the end of the window (the daemon may still be waiting for the server)';
  return LEASE_CLAUSES.map((c) => inconclusive(c, expected, observed));
}

/**
 * A TLS handshake as the suite saw it. `timedOut`: no answer at all within the suite's wait, which is
 * neither a refusal nor an acceptance.
 */
export type HandshakeSeen =
  | { readonly ok: true; readonly protocol: string; readonly fingerprint256: string }
  | { readonly ok: false; readonly error: string; readonly timedOut?: true };

/**
 * One handshake against what it should do: a handshake without any answer decides nothing (the spec
 * bounds no handshake time), so it is inconclusive whichever outcome was expected.
 *
 *   handshakeRule(c, 'refused', { ok: false, error: 'no answer', timedOut: true }, 'x').verdict -> 'inconclusive'
 */
function handshakeRule(clause: ClauseId, want: 'refused' | 'accepted', seen: HandshakeSeen, expected: string): Judgement {
  if (!seen.ok && seen.timedOut) return inconclusive(clause, expected, `no answer: ${seen.error} (the spec bounds no handshake time)`);
  const observed = seen.ok ? `accepted (${seen.protocol})` : `refused: ${seen.error}`;
  return rule(clause, want === 'accepted' ? seen.ok : !seen.ok, expected, observed);
}

/** `--tls-min-version=VersionTLS13`: TLS 1.2 refused, TLS 1.3 accepted. */
export function judgeTlsMinVersion(v12: HandshakeSeen, v13: HandshakeSeen): Judgement[] {
  const clause = 'node:2.6/tls-min-version';
  return [
    handshakeRule(clause, 'refused', v12, 'a TLS 1.2 handshake refused'),
    handshakeRule(clause, 'accepted', v13, 'a TLS 1.3 handshake accepted'),
  ];
}

/** `--tls-cipher-suites`: a TLS 1.2 client offering only unlisted suites refused, one offering a listed suite accepted. */
export function judgeCipherSuites(unlisted: HandshakeSeen, listed: HandshakeSeen): Judgement[] {
  const clause = 'node:2.6/tls-cipher-suites';
  return [
    handshakeRule(clause, 'refused', unlisted, 'a TLS 1.2 handshake offering only unlisted suites refused'),
    handshakeRule(clause, 'accepted', listed, 'a TLS 1.2 handshake offering a listed suite accepted'),
  ];
}

/** `--secure-port=0`: the daemon keeps running and serves nothing. `running`: neither exited nor served within the settle time. */
export function judgeSecurePortZero(seen: StartSeen | { readonly kind: 'running' }, port: number): Judgement[] {
  const clause = 'node:2.6/secure-port';
  const expected = 'keeps running without serving HTTPS';
  if (seen.kind === 'exited') return [fail(clause, expected, exitText(seen))];
  if (seen.kind === 'serving') return [fail(clause, expected, `HTTPS still served on ${port} (/healthz ${seen.healthz})`)];
  return [pass(clause, expected, 'running, nothing served')];
}

/** One SNI pair the suite made: its patterns and the fingerprint of its certificate. */
export interface SniPairMade {
  readonly pair: NamedCertKey;
  readonly fingerprint256: string;
}

/**
 * `--tls-sni-cert-key`: for each server name, the certificate served is the pair `pickCert` chooses
 * (exact beats wildcard, whatever the order), or the default certificate when no pattern matches.
 */
export function judgeSni(
  made: readonly SniPairMade[],
  defaultPrint: string,
  handshakes: readonly { name: string; seen: HandshakeSeen }[],
): Judgement[] {
  const clause = 'node:2.6/tls-sni-cert-key';
  const label = (fp: string) =>
    made.find((m) => m.fingerprint256 === fp)?.pair.names.join(',') ??
    (fp === defaultPrint ? 'the default certificate' : 'another certificate');
  return handshakes.map(({ name, seen }) => {
    const want = pickCert(
      name,
      made.map((m) => m.pair),
    );
    const wantPrint = want ? made.find((m) => m.pair === want)!.fingerprint256 : defaultPrint;
    if (!seen.ok && seen.timedOut)
      return inconclusive(
        clause,
        `${name}: the pair for ${want ? want.names.join(',') : 'no pattern (default certificate)'}`,
        `no answer: ${seen.error} (the spec bounds no handshake time)`,
      );
    return rule(
      clause,
      seen.ok && seen.fingerprint256 === wantPrint,
      `${name}: the pair for ${want ? want.names.join(',') : 'no pattern (default certificate)'}`,
      seen.ok ? `${name}: ${label(seen.fingerprint256)}` : `handshake failed: ${seen.error}`,
    );
  });
}

/** With HTTPS on and no certificate files, the certificate served is one generated in `--cert-dir`. */
export function judgeCertDir(served: string, inDir: readonly string[]): Judgement[] {
  const expected = 'the served certificate is stored in --cert-dir';
  const observed =
    inDir.length === 0
      ? 'no certificate in --cert-dir'
      : inDir.includes(served)
        ? 'served certificate found in --cert-dir'
        : `${inDir.length} certificate(s) in --cert-dir, none the one served`;
  return [
    rule('node:2.6/cert-dir', inDir.includes(served), expected, observed),
    rule('node:2.6/tls-cert-file', inDir.includes(served), expected, observed),
  ];
}
