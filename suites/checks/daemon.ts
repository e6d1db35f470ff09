/**
 * The controller daemon suite (node:1.4, node:2.6, node:5, node:8): its --help table against the spec,
 * generated invalid command lines it must refuse (exit non-zero, naming the option), valid ones it must
 * accept (serving /healthz on the port the suite chose), and the leader Lease at its default place.
 * Each start is bounded in time, stopped and reaped; a daemon that neither exits nor serves is an error.
 * Checks only start the daemon and record what it did; every verdict is a judge of
 * `reference/controller-daemon/judge.ts`.
 */
import fc from 'fast-check';
import type { Check, CheckEnv } from '../../harness/check.ts';
import type { CaseContext } from '../../harness/case-context.ts';
import {
  calibrate,
  certificatesIn,
  writeCertPair,
  freePort,
  handshakePatiently,
  observeStart,
  probePatiently,
  runToExit,
  DaemonDidNotExit,
  shellQuote,
  tempDir,
  type ControllerDaemonTarget,
  type Handshake,
  type StartObservation,
} from '../../harness/controller-daemon.ts';
import { awaitLeadership, daemonApiGet, readLeases, writtenElsewhere } from '../../harness/daemon-lease.ts';
import { InfrastructureError } from '../../harness/exchange.ts';
import {
  invalidFlagSet,
  openKinds,
  renderInvalid,
  renderPicks,
  validFlagSet,
  validPickOptions,
  violationKinds,
  type FlagPick,
  type Violation,
  type ViolationKind,
} from '../../generators/daemon-flags.ts';
import {
  flagName,
  gateListClause,
  gates,
  judgeCertDir,
  judgeCipherSuites,
  judgeHelpRun,
  judgeLease,
  judgeOpenDecision,
  judgeRefusal,
  judgeSecurePortZero,
  judgeSni,
  judgeTlsMinVersion,
  judgeUnexpectedExit,
  notReadyReason,
  judgeValidStart,
  judgeVersion,
  leaseTaken,
  leaseWindow,
  optionByName,
  options,
  parseFlags,
  parseHelp,
  withDefaults,
  type Judgement,
  type MainLoopSeen,
  type NamedCertKey,
  type PathSeen,
  type StartSeen,
} from '../../reference/controller-daemon/index.ts';
import { CheckNotApplicable } from '../../harness/violation.ts';
import { daemonReproducer, processSteps, type ProcessAbout } from '../../harness/process-reproducers.ts';
import type { ProfileName } from '../../reference/profile.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

const SUITE = 'controller-daemon';
const notConfigured = (env: CheckEnv) => (env.controllerDaemon ? undefined : 'no controller daemon target (--controller-daemon)');
/** The daemon target, its pace calibrated on the first use (harness/controller-daemon.ts `calibrate`). */
const daemon = async (cx: CaseContext): Promise<ControllerDaemonTarget> => {
  await calibrate(cx.env.controllerDaemon!);
  return cx.env.controllerDaemon!;
};

/** What the suite adds to every start: loopback, its free port, the API server target. */
export function suiteFlags(t: Pick<ControllerDaemonTarget, 'kubeconfigPath'>, profile: ProfileName, port: number | '<port>'): string[] {
  return ['--bind-address=127.0.0.1', `--secure-port=${port}`, `--${flagName(optionByName('svcconfig')!, profile)}=${t.kubeconfigPath}`];
}

/** The command line to paste (the port is whatever is free when you run it). */
const commandLine = (env: CheckEnv, words: readonly string[]) =>
  [env.controllerDaemon?.launcher.display ?? '<daemon>', ...suiteFlags(env.controllerDaemon ?? { kubeconfigPath: '<kubeconfig>' }, env.profile.name, '<port>'), ...words.map(shellQuote)].join(' ');

/** What an observed start was, as plain data for the judges. */
const startSeen = (obs: Exclude<StartObservation, { kind: 'hung' }>): StartSeen =>
  obs.kind === 'exited' ? { kind: 'exited', code: obs.code, output: obs.output } : { kind: 'serving', healthz: obs.healthz };

/** A start that never got ready: the clauses the case would judge are inconclusive, and the check stops. */
const hung = (clauses: readonly ClauseId[], obs: { output: string; waitedMs: number }) => new CheckNotApplicable(clauses, notReadyReason(obs.waitedMs, obs.output), 'inconclusive');

/** --help or --version still running when its window passed: no clause bounds how long it may take either. */
const notExited =
  (clauses: readonly ClauseId[]) =>
  (e: unknown): never => {
    if (e instanceof DaemonDidNotExit) throw new CheckNotApplicable(clauses, notReadyReason(e.waitedMs, e.output, 'exited'), 'inconclusive');
    throw e;
  };

/** The target's paces, for the waits that take them (absent in hand-built targets). */
const paced = (t: ControllerDaemonTarget) => ({ ...(t.pace ? { pace: t.pace } : {}), ...(t.answers ? { answers: t.answers } : {}) });

/**
 * A TLS handshake with a serving daemon, its timeout stretched by how late it answered lately and doubled while
 * nothing answers: a handshake that gets no answer at all is reported as such (`timedOut`), never as
 * a refusal (issue 24: slow is not wrong, and silence is not a refusal either).
 */
const handshake = (t: ControllerDaemonTarget, port: number, o: Omit<Parameters<typeof handshakePatiently>[1], 'timeoutMs'> = {}): Promise<Handshake> =>
  handshakePatiently(port, { ...o, timeoutMs: 3000 }, t.answers);

export const daemonHelp: Check<{ line: string }> = {
  id: 'daemon-help-table',
  suite: SUITE,
  title: '--help lists every option of the spec with its type and default',
  clauses: [...new Set<ClauseId>(['node:2.6/help', 'node:1.4', ...options.filter((o) => !o.pattern).map((o) => o.clause), ...gates.map(gateListClause)])],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: `${env.controllerDaemon?.launcher.display ?? '<daemon>'} --help` }),
  describe: (i) => [i.line],
  run: async (_i, cx) => {
    const t = await daemon(cx);
    const r = await runToExit(t.launcher, ['--help'], t.startTimeoutMs, t.pace).catch(notExited(daemonHelp.clauses));
    cx.judge(judgeHelpRun({ code: r.code, rows: parseHelp(r.output) }, cx.env.profile.name));
  },
};

type InvalidInput = { base: FlagPick[]; violation: Violation; words: string[]; line: string };

/** The word a refusal should name: the violation's last option, or its last stray word. */
function namedWord(v: Violation, profile: ProfileName): string {
  const last = v.flags[v.flags.length - 1];
  return last ? `--${flagName(optionByName(last[0])!, profile)}` : JSON.stringify(v.words![v.words!.length - 1]!.replace(/^--/, '').replace(/=.*$/, ''));
}

function invalidFlagsCheck(v: ViolationKind): Check<InvalidInput> {
  return {
    id: `daemon-invalid-flags/${v.name}`,
    suite: SUITE,
    title: `a command line breaking one rule (${v.rule}) makes the daemon exit non-zero, naming the option`,
    clauses: [v.clause],
    defaultRuns: v.runs ?? 2,
    applicable: notConfigured,
    arbitrary: (env) =>
      invalidFlagSet(env.profile.name, v).map((c) => {
        const words = renderInvalid(c, env.profile.name);
        return { ...c, words, line: commandLine(env, words) };
      }),
    describe: (i) => [i.line, `breaks: ${i.violation.rule} (${i.violation.clause})`],
    reproducer: (i, failure, env, about) => startReproducer(i.words, failure, env, about),
    run: async (i, cx) => {
      const t = await daemon(cx);
      const profile = cx.env.profile.name;
      const port = await freePort();
      const argv = [...suiteFlags(t, profile, port), ...i.words];
      // The generator's promise, checked against the model: the case breaks exactly this clause.
      const parsed = parseFlags(argv, profile);
      if (!parsed.errors.some((e) => e.clause === i.violation.clause)) throw new Error(`generator bug: the model accepts ${argv.join(' ')}`);
      const refusal = { clause: i.violation.clause, rule: i.violation.rule, flag: namedWord(i.violation, profile), binding: v.binding };
      // A control-loop value may be refused when the loop starts, after leadership: watch for the Lease.
      const get = daemonApiGet(t, cx);
      const window = leaseWindow(withDefaults(parsed.options, profile));
      const before = v.binding === 'main-loop' ? await readLeases(get, cx.env.profile, window) : undefined;
      const dp = t.launcher.launch(argv);
      try {
        const obs = await observeStart(dp, port, t);
        if (obs.kind === 'hung') throw hung([i.violation.clause], obs);
        let seen = startSeen(obs);
        let mainLoop: MainLoopSeen | undefined;
        if (seen.kind === 'serving' && before) {
          const w = await awaitLeadership(dp, get, cx.env.profile, window, before, { now: cx.env.now, sleep: cx.env.sleep, settleMs: t.settleMs, ...(t.pace ? { pace: t.pace } : {}) });
          if (w.exited) seen = { kind: 'exited', ...w.exited };
          else mainLoop = { leaderAndRunning: leaseTaken({ before: before.at, after: w.after.at }) || writtenElsewhere(before, w.after, window).length > 0, window };
        }
        cx.judge(judgeRefusal(refusal, seen, mainLoop));
      } finally {
        await dp.stop();
      }
    },
  };
}

export const daemonInvalidFlagChecks = violationKinds.map(invalidFlagsCheck);

/** An option set without the option it needs: refusing and ignoring are both allowed; what the daemon did is recorded. */
function openFlagsCheck(v: (typeof openKinds)[number]): Check<InvalidInput> {
  return {
    id: `daemon-open-flags/${v.name}`,
    suite: SUITE,
    title: `an option set without what it needs (${v.rule}): refused or ignored, recorded`,
    clauses: [v.clause],
    defaultRuns: 1,
    applicable: notConfigured,
    arbitrary: (env) =>
      invalidFlagSet(env.profile.name, v, 0).map((c) => {
        const words = renderInvalid(c, env.profile.name);
        return { ...c, words, line: commandLine(env, words) };
      }),
    describe: (i) => [i.line, `open: ${i.violation.rule} (${i.violation.clause})`],
    run: async (i, cx) => {
      const t = await daemon(cx);
      const profile = cx.env.profile.name;
      const port = await freePort();
      const argv = [...suiteFlags(t, profile, port), ...i.words];
      if (!parseFlags(argv, profile).open.some((e) => e.clause === i.violation.clause)) throw new Error(`generator bug: the model decides ${argv.join(' ')}`);
      const dp = t.launcher.launch(argv);
      try {
        const obs = await observeStart(dp, port, t);
        if (obs.kind === 'hung') throw hung([i.violation.clause], obs);
        cx.judge(judgeOpenDecision({ clause: i.violation.clause, rule: i.violation.rule, flag: namedWord(i.violation, profile) }, startSeen(obs)));
      } finally {
        await dp.stop();
      }
    },
  };
}

export const daemonOpenFlagChecks = openKinds.map(openFlagsCheck);

type ValidInput = { picks: FlagPick[]; words: string[]; line: string };

/** The paths probed on a serving daemon without credentials. */
const PROBED_PATHS = ['/healthz', '/readyz', '/livez', '/configz'];

export const daemonValidFlags: Check<ValidInput> = {
  id: 'daemon-valid-flags',
  suite: SUITE,
  title: 'a valid command line starts the daemon serving /healthz on the chosen port',
  clauses: [
    ...new Set<ClauseId>([
      'node:1.4',
      'node:2.6/secure-port',
      'node:2.6/bind-address',
      'node:5/authorization-always-allow-paths',
      'node:5/authorization-kubeconfig',
      ...validPickOptions('svc').map((o) => optionByName(o)!.clause),
    ]),
  ],
  defaultRuns: 3,
  applicable: notConfigured,
  arbitrary: (env) =>
    validFlagSet(env.profile.name).map((picks) => {
      const words = renderPicks(picks, env.profile.name);
      return { picks, words, line: commandLine(env, words) };
    }),
  describe: (i) => [i.line],
  reproducer: (i, failure, env, about) => startReproducer(i.words, failure, env, about),
  run: async (i, cx) => {
    const t = await daemon(cx);
    const profile = cx.env.profile.name;
    const port = await freePort();
    const argv = [...suiteFlags(t, profile, port), ...i.words];
    const parsed = parseFlags(argv, profile);
    if (parsed.errors.length > 0 || parsed.open.length > 0) throw new Error(`generator bug: the model refuses ${argv.join(' ')}`);
    const clauses = [...new Set(i.picks.flatMap((p) => p.flags.map(([o]) => optionByName(o)!.clause)))];
    const dp = t.launcher.launch(argv);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
      if (obs.kind === 'hung') throw hung(['node:1.4', 'node:2.6/secure-port', 'node:2.6/bind-address', ...clauses], obs);
      const paths: PathSeen[] = [];
      if (obs.kind === 'serving') for (const path of PROBED_PATHS) paths.push({ path, ...(await probePatiently(port, path, 1000, t.answers)) });
      const allowed = withDefaults(parsed.options, profile)['authorization-always-allow-paths'] as readonly string[];
      cx.judge(judgeValidStart({ port, clauses, seen: startSeen(obs), paths, allowed }));
    } finally {
      await dp.stop();
    }
  },
};

export const daemonLeaderLease: Check<{ line: string }> = {
  id: 'daemon-leader-lease',
  suite: SUITE,
  title: 'with --leader-elect the daemon takes the Lease at the default name and namespace',
  clauses: ['node:2.6/leader-elect', 'node:2.6/leader-elect-resource-name', 'node:2.6/leader-elect-resource-namespace'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: commandLine(env, ['--leader-elect=true']) }),
  describe: (i) => [i.line],
  run: async (_i, cx) => {
    const t = await daemon(cx);
    const profile = cx.env.profile.name;
    const window = leaseWindow(withDefaults({ 'leader-elect': true }, profile));
    // External runs give the daemon a private reference server: its Lease is read there (see prepareDaemon).
    const get = daemonApiGet(t, cx);
    // A lease left by an earlier start must be renewed or taken over, not merely found.
    const before = await readLeases(get, cx.env.profile, window);
    const port = await freePort();
    const dp = t.launcher.launch([...suiteFlags(t, profile, port), '--leader-elect=true']);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
      if (obs.kind === 'hung') throw hung(daemonLeaderLease.clauses, obs);
      if (obs.kind === 'exited') {
        cx.judge(judgeUnexpectedExit('node:2.6/leader-elect', 'starts and serves with --leader-elect', obs));
        return;
      }
      const w = await awaitLeadership(dp, get, cx.env.profile, window, before, { now: cx.env.now, sleep: cx.env.sleep, ...(t.pace ? { pace: t.pace } : {}) });
      cx.judge(
        judgeLease({
          window,
          ...(before.at ? { before: before.at } : {}),
          ...(w.after.at ? { after: w.after.at } : {}),
          elsewhere: writtenElsewhere(before, w.after, window),
          namespaceExists: w.namespaceExists,
          ...(w.exited ? { exited: w.exited } : {}),
        }),
      );
    } finally {
      await dp.stop();
    }
  },
};

/**
 * Starts the daemon with the suite's flags and `words`, runs `whileServing` once /healthz answers 200,
 * and always stops it. A start that exits is judged by `onExit`; one that never gets ready leaves `clauses` inconclusive.
 */
async function withServingDaemon(
  cx: CaseContext,
  clauses: readonly ClauseId[],
  words: readonly string[],
  onExit: (obs: Extract<StartSeen, { kind: 'exited' }>) => Judgement[],
  whileServing: (port: number, t: ControllerDaemonTarget) => Promise<Judgement[]>,
): Promise<void> {
  const t = await daemon(cx);
  const port = await freePort();
  const dp = t.launcher.launch([...suiteFlags(t, cx.env.profile.name, port), ...words]);
  try {
    const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
    if (obs.kind === 'hung') throw hung(clauses, obs);
    cx.judge(obs.kind === 'exited' ? onExit({ kind: 'exited', code: obs.code, output: obs.output }) : await whileServing(port, t));
  } finally {
    await dp.stop();
  }
}

export const daemonTlsMinVersion: Check<{ line: string }> = {
  id: 'daemon-tls-min-version',
  suite: SUITE,
  title: '--tls-min-version=VersionTLS13 refuses a TLS 1.2 handshake and accepts TLS 1.3',
  clauses: ['node:2.6/tls-min-version'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: commandLine(env, ['--tls-min-version=VersionTLS13']) }),
  describe: (i) => [i.line, 'then: a TLS 1.2-only handshake, a TLS 1.3 handshake'],
  run: async (_i, cx) => {
    await withServingDaemon(
      cx,
      ['node:2.6/tls-min-version'],
      ['--tls-min-version=VersionTLS13'],
      (obs) => judgeUnexpectedExit('node:2.6/tls-min-version', 'accepted: serves with VersionTLS13', obs),
      async (port, t) => judgeTlsMinVersion(await handshake(t, port, { maxVersion: 'TLSv1.2' }), await handshake(t, port, { minVersion: 'TLSv1.3' })),
    );
  },
};

/** AES-128-GCM with either key type is configured; a TLS 1.2 client offering only AES-256-GCM must be refused. */
const CONFIGURED_SUITES = 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256';

export const daemonTlsCipherSuites: Check<{ line: string }> = {
  id: 'daemon-tls-cipher-suites',
  suite: SUITE,
  title: '--tls-cipher-suites limits the TLS 1.2 suites negotiated',
  clauses: ['node:2.6/tls-cipher-suites'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: commandLine(env, [`--tls-cipher-suites=${CONFIGURED_SUITES}`]) }),
  describe: (i) => [i.line, 'then: TLS 1.2 handshakes offering only AES-256-GCM suites, then only AES-128-GCM suites'],
  run: async (_i, cx) => {
    await withServingDaemon(
      cx,
      ['node:2.6/tls-cipher-suites'],
      [`--tls-cipher-suites=${CONFIGURED_SUITES}`],
      (obs) => judgeUnexpectedExit('node:2.6/tls-cipher-suites', 'accepted: serves with preferred suites', obs),
      async (port, t) => {
        const unlisted = await handshake(t, port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384' });
        const listed = await handshake(t, port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256' });
        return judgeCipherSuites(unlisted, listed);
      },
    );
  },
};

export const daemonSecurePortZero: Check<{ line: string }> = {
  id: 'daemon-secure-port-zero',
  suite: SUITE,
  title: '--secure-port=0 disables HTTPS: the daemon runs and serves nothing',
  clauses: ['node:2.6/secure-port'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: commandLine(env, ['--secure-port=0']) }),
  describe: (i) => [i.line, 'then: nothing answers on the port given before 0'],
  run: async (_i, cx) => {
    const t = await daemon(cx);
    const port = await freePort();
    const dp = t.launcher.launch([...suiteFlags(t, cx.env.profile.name, port), '--secure-port=0']);
    try {
      // No answer is expected, so the wait is the settle time: long enough for a daemon that would serve.
      const obs = await observeStart(dp, port, { startTimeoutMs: Math.max(t.settleMs * 2, 1000), ...paced(t) });
      cx.judge(judgeSecurePortZero(obs.kind === 'hung' ? { kind: 'running' } : startSeen(obs), port));
    } finally {
      await dp.stop();
    }
  },
};

export const daemonVersion: Check<{ line: string }> = {
  id: 'daemon-version',
  suite: SUITE,
  title: '--version prints the version and exits 0',
  clauses: ['node:2.6/version'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: `${env.controllerDaemon?.launcher.display ?? '<daemon>'} --version` }),
  describe: (i) => [i.line],
  run: async (_i, cx) => {
    const t = await daemon(cx);
    cx.judge(judgeVersion(await runToExit(t.launcher, ['--version'], t.startTimeoutMs, t.pace).catch(notExited(['node:2.6/version']))));
  },
};

/** Server names asked for, and the patterns of two pairs: a wildcard listed before an exact name. */
const SNI_NAMES = ['api.example.com', 'www.example.com', 'other.test'];
const SNI_PATTERNS = [['*.example.com'], ['api.example.com']];

export const daemonTlsSni: Check<{ line: string }> = {
  id: 'daemon-tls-sni-cert-key',
  suite: SUITE,
  title: '--tls-sni-cert-key: the pair naming the server exactly beats a wildcard, whatever the order',
  clauses: ['node:2.6/tls-sni-cert-key'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) =>
    fc.constant({
      line: commandLine(
        env,
        SNI_PATTERNS.map((p, i) => `--tls-sni-cert-key=<pair ${i}>:${p.join(',')}`),
      ),
    }),
  describe: (i) => [i.line, `then: TLS handshakes naming ${SNI_NAMES.join(', ')}`],
  run: async (_i, cx) => {
    const clause = 'node:2.6/tls-sni-cert-key';
    const tmp = tempDir('svc-conformance-sni');
    try {
      const made = SNI_PATTERNS.map((names, i) => ({ names, files: writeCertPair(tmp.dir, `pair${i}`, names[0]!.replace('*', 'wildcard')) }));
      if (made.some((m) => !m.files)) throw new CheckNotApplicable([clause], 'the openssl command is needed to make the SNI certificates');
      const pairs = made.map((m) => ({ pair: { cert: m.files!.cert, key: m.files!.key, names: m.names } as NamedCertKey, fingerprint256: m.files!.fingerprint256 }));
      const words = pairs.map(({ pair: p }) => `--tls-sni-cert-key=${p.cert},${p.key}:${p.names.join(',')}`);
      await withServingDaemon(
        cx,
        [clause],
        words,
        (obs) => judgeUnexpectedExit(clause, 'accepted: serves with the SNI pairs', obs),
        async (port, t) => {
          const def = await handshake(t, port);
          if (!def.ok) throw new InfrastructureError(`TLS handshake with the daemon failed: ${def.error}`);
          const handshakes = [];
          for (const name of SNI_NAMES) handshakes.push({ name, seen: await handshake(t, port, { servername: name }) });
          return judgeSni(pairs, def.fingerprint256, handshakes);
        },
      );
    } finally {
      tmp.remove();
    }
  },
};

export const daemonCertDir: Check<{ line: string }> = {
  id: 'daemon-self-signed-cert-dir',
  suite: SUITE,
  title: 'with HTTPS on and no certificate files, the served self-signed certificate is generated in --cert-dir',
  clauses: ['node:2.6/cert-dir', 'node:2.6/tls-cert-file'],
  defaultRuns: 1,
  applicable: notConfigured,
  arbitrary: (env) => fc.constant({ line: commandLine(env, ['--cert-dir=<empty temporary directory>']) }),
  describe: (i) => [i.line, 'then: the certificate served is one of the files in --cert-dir'],
  run: async (_i, cx) => {
    const tmp = tempDir('svc-conformance-cert-dir');
    try {
      await withServingDaemon(
        cx,
        ['node:2.6/cert-dir'],
        [`--cert-dir=${tmp.dir}`],
        (obs) => judgeUnexpectedExit('node:2.6/cert-dir', 'accepted: serves with a generated pair', obs),
        async (port, t) => {
          const h = await handshake(t, port);
          if (!h.ok) throw new InfrastructureError(`TLS handshake with the daemon failed: ${h.error}`);
          return judgeCertDir(h.fingerprint256, certificatesIn(tmp.dir));
        },
      );
    } finally {
      tmp.remove();
    }
  },
};

/**
 * The standalone reproducer of a start (issue 26 item 2): the exact command line, started and watched
 * as the suite did, with the answer the judge needed (refuse, or serve) checked; where the judge
 * attached none (a handshake, a Lease, --help) the script still shows the command line and what it did.
 */
function startReproducer(words: readonly string[], failure: Judgement, env: CheckEnv, about: ProcessAbout): string {
  const t = env.controllerDaemon;
  return daemonReproducer({
    command: t?.launcher.display ?? '<daemon command>',
    kubeconfigFlag: `--${flagName(optionByName('svcconfig')!, env.profile.name)}`,
    words,
    ...(failure.needs ? { needs: failure.needs } : {}),
    about,
    startTimeoutS: Math.max(30, Math.ceil((t?.startTimeoutMs ?? 0) / 1000)),
    settleS: Math.max(1, Math.ceil((t?.settleMs ?? 0) / 1000)),
  });
}

/** A check with no command line of its own to start (--help, --version, handshakes): its steps, undecided. */
const stepsReproducer = (c: Check<{ line: string }>): Check<{ line: string }> => ({
  ...c,
  reproducer: (i, _failure, _env, about) => processSteps(c.describe(i), about),
});

export const daemonChecks = [
  stepsReproducer(daemonHelp),
  ...daemonInvalidFlagChecks,
  ...daemonOpenFlagChecks,
  daemonValidFlags,
  ...[daemonLeaderLease, daemonTlsMinVersion, daemonTlsCipherSuites, daemonTlsSni, daemonCertDir, daemonSecurePortZero, daemonVersion].map(stepsReproducer),
];
