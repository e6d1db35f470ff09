/**
 * The controller daemon suite (node:1.4, node:2.6, node:5, node:8): its --help table against the spec,
 * generated invalid command lines it must refuse (exit non-zero, naming the option), valid ones it must
 * accept (serving /healthz on the port the suite chose), and the leader Lease at its default place.
 * Each start is bounded in time, stopped and reaped; a daemon that neither exits nor serves is an error.
 * Every expectation comes from `reference/controller-daemon`.
 */
import fc from 'fast-check';
import { request } from 'undici';
import type { Check, CheckEnv } from '../../harness/check.ts';
import type { CaseContext } from '../../harness/case-context.ts';
import { certificatesIn, writeCertPair, freePort, observeStart, probe, runToExit, shellQuote, tempDir, tlsHandshake, type ControllerDaemonTarget, type StartObservation } from '../../harness/controller-daemon.ts';
import { InfrastructureError } from '../../harness/exchange.ts';
import { invalidFlagSet, renderInvalid, renderPicks, validFlagSet, validPickOptions, violationKinds, type FlagPick, type Violation, type ViolationKind } from '../../generators/daemon-flags.ts';
import { flagName, gateListClause, gates, judgeHelp, optionByName, options, parseFlags, parseHelp, pickCert, withDefaults, type NamedCertKey } from '../../reference/controller-daemon/index.ts';
import { CheckNotApplicable } from '../../harness/violation.ts';
import { fail, pass, rule, unspecified, type Judgement } from '../../reference/judgement.ts';
import type { ProfileName } from '../../reference/profile.ts';
import { objectPath, resourceTypes } from '../../reference/resources.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

const SUITE = 'controller-daemon';
const notConfigured = (env: CheckEnv) => (env.controllerDaemon ? undefined : 'no controller daemon target (--controller-daemon)');
const daemon = (cx: CaseContext): ControllerDaemonTarget => cx.env.controllerDaemon!;

/** What the suite adds to every start: loopback, its free port, the API server target. */
export function suiteFlags(t: Pick<ControllerDaemonTarget, 'kubeconfigPath'>, profile: ProfileName, port: number | '<port>'): string[] {
  return ['--bind-address=127.0.0.1', `--secure-port=${port}`, `--${flagName(optionByName('svcconfig')!, profile)}=${t.kubeconfigPath}`];
}

/** The command line to paste (the port is whatever is free when you run it). */
const commandLine = (env: CheckEnv, words: readonly string[]) =>
  [env.controllerDaemon?.launcher.display ?? '<daemon>', ...suiteFlags(env.controllerDaemon ?? { kubeconfigPath: '<kubeconfig>' }, env.profile.name, '<port>'), ...words.map(shellQuote)].join(' ');

const tail = (s: string) => s.trim().split('\n').slice(-3).join(' | ').slice(0, 400);

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
    const t = daemon(cx);
    const r = await runToExit(t.launcher, ['--help'], t.startTimeoutMs);
    const rows = parseHelp(r.output);
    cx.judge([
      rule('node:2.6/help', r.code === 0 && rows.length > 0, '--help prints the flag table and exits 0', `exit ${r.code}, ${rows.length} flag rows`),
      ...judgeHelp(rows, cx.env.profile.name),
    ]);
  },
};

type InvalidInput = { base: FlagPick[]; violation: Violation; words: string[]; line: string };

function invalidFlagsCheck(v: ViolationKind): Check<InvalidInput> {
  return {
    id: `daemon-invalid-flags/${v.name}`,
    suite: SUITE,
    title: `a command line breaking one rule (${v.rule}) makes the daemon exit non-zero, naming the option`,
    clauses: [v.clause],
    defaultRuns: 2,
    applicable: notConfigured,
    arbitrary: (env) => invalidFlagSet(env.profile.name, v).map((c) => {
      const words = renderInvalid(c, env.profile.name);
      return { ...c, words, line: commandLine(env, words) };
    }),
    describe: (i) => [i.line, `breaks: ${i.violation.rule} (${i.violation.clause})`],
    run: async (i, cx) => {
      const t = daemon(cx);
      const profile = cx.env.profile.name;
      const port = await freePort();
      const argv = [...suiteFlags(t, profile, port), ...i.words];
      // The generator's promise, checked against the model: the case breaks exactly this clause.
      if (!parseFlags(argv, profile).errors.some((e) => e.clause === i.violation.clause)) throw new Error(`generator bug: the model accepts ${argv.join(' ')}`);
      const last = i.violation.flags[i.violation.flags.length - 1];
      const flag = last ? flagName(optionByName(last[0])!, profile) : i.violation.words![i.violation.words!.length - 1]!.replace(/^--/, '').replace(/=.*$/, '');
      const expected = `refused: exit non-zero naming ${last ? `--${flag}` : JSON.stringify(flag)} (${i.violation.rule})`;
      const dp = t.launcher.launch(argv);
      try {
        const obs = await observeStart(dp, port, t);
        if (obs.kind === 'hung') throw new InfrastructureError(`the daemon neither exited nor served /healthz within ${t.startTimeoutMs} ms: ${tail(obs.output)}`);
        if (obs.kind === 'serving') {
          cx.judge([fail(i.violation.clause, expected, `accepted: /healthz answered ${obs.healthz} and the daemon kept running`)]);
          return;
        }
        const js: Judgement[] = [rule(i.violation.clause, obs.code !== 0, expected, `exit ${obs.code}: ${tail(obs.output)}`)];
        if (obs.code !== 0) js.push(obs.output.includes(flag) ? pass(i.violation.clause, `output names --${flag}`) : unspecified(i.violation.clause, `output names --${flag} (message text is not fixed by the spec)`, tail(obs.output)));
        cx.judge(js);
      } finally {
        await dp.stop();
      }
    },
  };
}

export const daemonInvalidFlagChecks = violationKinds.map(invalidFlagsCheck);

type ValidInput = { picks: FlagPick[]; words: string[]; line: string };

/** /healthz, /readyz, /livez answer 200 when always allowed; other paths are forbidden without an authorization kubeconfig. */
async function judgePaths(port: number, allowed: readonly string[]): Promise<Judgement[]> {
  const js: Judgement[] = [];
  for (const path of ['/healthz', '/readyz', '/livez', '/configz']) {
    const status = await probe(port, path);
    if (allowed.includes(path)) js.push(rule('node:5/authorization-always-allow-paths', status === 200, `${path} answers 200 without credentials`, `${path}: ${status ?? 'no answer'}`));
    else js.push(rule('node:5/authorization-kubeconfig', status === 403, `${path} forbidden (no --authorization-kubeconfig)`, `${path}: ${status ?? 'no answer'}`));
  }
  return js;
}

export const daemonValidFlags: Check<ValidInput> = {
  id: 'daemon-valid-flags',
  suite: SUITE,
  title: 'a valid command line starts the daemon serving /healthz on the chosen port',
  clauses: [...new Set<ClauseId>(['node:1.4', 'node:2.6/secure-port', 'node:2.6/bind-address', 'node:5/authorization-always-allow-paths', 'node:5/authorization-kubeconfig', ...validPickOptions('svc').map((o) => optionByName(o)!.clause)])],
  defaultRuns: 3,
  applicable: notConfigured,
  arbitrary: (env) => validFlagSet(env.profile.name).map((picks) => {
    const words = renderPicks(picks, env.profile.name);
    return { picks, words, line: commandLine(env, words) };
  }),
  describe: (i) => [i.line],
  run: async (i, cx) => {
    const t = daemon(cx);
    const profile = cx.env.profile.name;
    const port = await freePort();
    const argv = [...suiteFlags(t, profile, port), ...i.words];
    const parsed = parseFlags(argv, profile);
    if (parsed.errors.length > 0) throw new Error(`generator bug: the model refuses ${argv.join(' ')}`);
    const clauses = [...new Set(i.picks.flatMap((p) => p.flags.map(([o]) => optionByName(o)!.clause)))];
    const blamed: readonly ClauseId[] = clauses.length > 0 ? clauses : ['node:1.4'];
    const dp = t.launcher.launch(argv);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true });
      if (obs.kind === 'hung') throw new InfrastructureError(`the daemon neither exited nor served /healthz within ${t.startTimeoutMs} ms: ${tail(obs.output)}`);
      if (obs.kind === 'exited') {
        cx.judge(blamed.map((c) => fail(c, 'accepted: serves /healthz on the chosen port', `exit ${obs.code}: ${tail(obs.output)}`)));
        return;
      }
      const allowed = withDefaults(parsed.options, profile)['authorization-always-allow-paths'] as readonly string[];
      cx.judge([
        pass('node:1.4', 'started with options only'),
        pass('node:2.6/secure-port', `serves HTTPS on --secure-port ${port}`),
        pass('node:2.6/bind-address', 'serves on --bind-address 127.0.0.1'),
        ...clauses.map((c) => pass(c, 'accepted')),
        ...(await judgePaths(port, allowed)),
      ]);
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
    const t = daemon(cx);
    const profile = cx.env.profile.name;
    const defaults = withDefaults({}, profile);
    const name = defaults['leader-elect-resource-name'] as string;
    const namespace = defaults['leader-elect-resource-namespace'] as string;
    const path = objectPath(resourceTypes(cx.env.profile).leases, name, namespace);
    // External runs give the daemon a private reference server: its Lease is read there (see prepareDaemon).
    const read = async (): Promise<{ status: number; json: unknown }> => {
      if (t.apiServerUrl === undefined) return cx.send({ method: 'GET', path });
      const r = await request(new URL(path, t.apiServerUrl));
      const text = await r.body.text();
      return { status: r.statusCode, json: r.statusCode === 200 ? JSON.parse(text) : undefined };
    };
    const rvOf = async () => {
      const r = await read();
      const lease = r.json as { metadata?: { resourceVersion?: string }; spec?: { holderIdentity?: string } } | undefined;
      return r.status === 200 ? { rv: lease?.metadata?.resourceVersion, holder: lease?.spec?.holderIdentity } : undefined;
    };
    // A lease left by an earlier start must be renewed or taken over, not merely found.
    const before = await rvOf();
    const port = await freePort();
    const dp = t.launcher.launch([...suiteFlags(t, profile, port), '--leader-elect=true']);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true });
      if (obs.kind === 'hung') throw new InfrastructureError(`the daemon neither exited nor served /healthz within ${t.startTimeoutMs} ms: ${tail(obs.output)}`);
      if (obs.kind === 'exited') {
        cx.judge([fail('node:2.6/leader-elect', 'starts and serves with --leader-elect', `exit ${obs.code}: ${tail(obs.output)}`)]);
        return;
      }
      const deadline = cx.env.now() + t.leaseTimeoutMs;
      let now = await rvOf();
      while (!(now && now.holder && now.rv !== before?.rv) && cx.env.now() < deadline) {
        await cx.env.sleep(200);
        now = await rvOf();
      }
      const held = Boolean(now && now.holder && now.rv !== before?.rv);
      const expected = `Lease ${namespace}/${name} written with a holder within ${t.leaseTimeoutMs} ms`;
      const observed = held ? `held by ${now!.holder}` : now ? `unchanged since before the start (holder ${JSON.stringify(now.holder ?? '')})` : 'no such Lease';
      cx.judge([
        rule('node:2.6/leader-elect-resource-name', held, expected, observed),
        rule('node:2.6/leader-elect-resource-namespace', held, expected, observed),
        rule('node:2.6/leader-elect', held, 'leadership taken through the lock', observed),
      ]);
    } finally {
      await dp.stop();
    }
  },
};

/**
 * Starts the daemon with the suite's flags and `words`, runs `whileServing` once /healthz answers 200,
 * and always stops it. A start that exits is judged by `onExit`; one that hangs is an error.
 */
async function withServingDaemon(cx: CaseContext, words: readonly string[], onExit: (obs: Extract<StartObservation, { kind: 'exited' }>) => Judgement[], whileServing: (port: number) => Promise<Judgement[]>): Promise<void> {
  const t = daemon(cx);
  const port = await freePort();
  const dp = t.launcher.launch([...suiteFlags(t, cx.env.profile.name, port), ...words]);
  try {
    const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true });
    if (obs.kind === 'hung') throw new InfrastructureError(`the daemon neither exited nor served /healthz within ${t.startTimeoutMs} ms: ${tail(obs.output)}`);
    cx.judge(obs.kind === 'exited' ? onExit(obs) : await whileServing(port));
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
    const clause = 'node:2.6/tls-min-version';
    await withServingDaemon(cx, ['--tls-min-version=VersionTLS13'], (obs) => [fail(clause, 'accepted: serves with VersionTLS13', `exit ${obs.code}: ${tail(obs.output)}`)], async (port) => {
      const v12 = await tlsHandshake(port, { maxVersion: 'TLSv1.2' });
      const v13 = await tlsHandshake(port, { minVersion: 'TLSv1.3' });
      return [
        rule(clause, !v12.ok, 'a TLS 1.2 handshake refused', v12.ok ? `TLS 1.2 accepted (${v12.protocol})` : `refused: ${v12.error}`),
        rule(clause, v13.ok, 'a TLS 1.3 handshake accepted', v13.ok ? v13.protocol : `refused: ${v13.error}`),
      ];
    });
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
    const clause = 'node:2.6/tls-cipher-suites';
    await withServingDaemon(cx, [`--tls-cipher-suites=${CONFIGURED_SUITES}`], (obs) => [fail(clause, 'accepted: serves with preferred suites', `exit ${obs.code}: ${tail(obs.output)}`)], async (port) => {
      const other = await tlsHandshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384' });
      const listed = await tlsHandshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256' });
      return [
        rule(clause, !other.ok, 'a TLS 1.2 handshake offering only unlisted suites refused', other.ok ? `accepted (${other.protocol})` : `refused: ${other.error}`),
        rule(clause, listed.ok, 'a TLS 1.2 handshake offering a listed suite accepted', listed.ok ? listed.protocol : `refused: ${listed.error}`),
      ];
    });
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
    const clause = 'node:2.6/secure-port';
    const t = daemon(cx);
    const port = await freePort();
    const dp = t.launcher.launch([...suiteFlags(t, cx.env.profile.name, port), '--secure-port=0']);
    try {
      // No answer is expected, so the wait is the settle time: long enough for a daemon that would serve.
      const obs = await observeStart(dp, port, { startTimeoutMs: Math.max(t.settleMs * 2, 1000) });
      const expected = 'keeps running without serving HTTPS';
      if (obs.kind === 'exited') cx.judge([fail(clause, expected, `exit ${obs.code}: ${tail(obs.output)}`)]);
      else if (obs.kind === 'serving') cx.judge([fail(clause, expected, `HTTPS still served on ${port} (/healthz ${obs.healthz})`)]);
      else cx.judge([pass(clause, expected, 'running, nothing served')]);
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
    const t = daemon(cx);
    const r = await runToExit(t.launcher, ['--version'], t.startTimeoutMs);
    cx.judge([rule('node:2.6/version', r.code === 0 && r.output.trim() !== '', 'a version printed, exit 0', `exit ${r.code}: ${tail(r.output) || '(nothing printed)'}`)]);
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
  arbitrary: (env) => fc.constant({ line: commandLine(env, SNI_PATTERNS.map((p, i) => `--tls-sni-cert-key=<pair ${i}>:${p.join(',')}`)) }),
  describe: (i) => [i.line, `then: TLS handshakes naming ${SNI_NAMES.join(', ')}`],
  run: async (_i, cx) => {
    const clause = 'node:2.6/tls-sni-cert-key';
    const tmp = tempDir('svc-conformance-sni');
    try {
      const made = SNI_PATTERNS.map((names, i) => ({ names, files: writeCertPair(tmp.dir, `pair${i}`, names[0]!.replace('*', 'wildcard')) }));
      if (made.some((m) => !m.files)) throw new CheckNotApplicable([clause], 'the openssl command is needed to make the SNI certificates');
      const pairs: NamedCertKey[] = made.map((m) => ({ cert: m.files!.cert, key: m.files!.key, names: m.names }));
      const words = pairs.map((p) => `--tls-sni-cert-key=${p.cert},${p.key}:${p.names.join(',')}`);
      await withServingDaemon(cx, words, (obs) => [fail(clause, 'accepted: serves with the SNI pairs', `exit ${obs.code}: ${tail(obs.output)}`)], async (port) => {
        const def = await tlsHandshake(port);
        if (!def.ok) throw new InfrastructureError(`TLS handshake with the daemon failed: ${def.error}`);
        const js: Judgement[] = [];
        for (const name of SNI_NAMES) {
          const want = pickCert(name, pairs);
          const wantPrint = want ? made[pairs.indexOf(want)]!.files!.fingerprint256 : def.fingerprint256;
          const got = await tlsHandshake(port, { servername: name });
          const label = (fp: string) => made.find((m) => m.files!.fingerprint256 === fp)?.names.join(',') ?? (fp === def.fingerprint256 ? 'the default certificate' : 'another certificate');
          js.push(rule(clause, got.ok && got.fingerprint256 === wantPrint, `${name}: the pair for ${want ? want.names.join(',') : 'no pattern (default certificate)'}`, got.ok ? `${name}: ${label(got.fingerprint256)}` : `handshake failed: ${got.error}`));
        }
        return js;
      });
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
      await withServingDaemon(cx, [`--cert-dir=${tmp.dir}`], (obs) => [fail('node:2.6/cert-dir', 'accepted: serves with a generated pair', `exit ${obs.code}: ${tail(obs.output)}`)], async (port) => {
        const h = await tlsHandshake(port);
        if (!h.ok) throw new InfrastructureError(`TLS handshake with the daemon failed: ${h.error}`);
        const inDir = certificatesIn(tmp.dir);
        const expected = 'the served certificate is stored in --cert-dir';
        const observed = inDir.length === 0 ? 'no certificate in --cert-dir' : inDir.includes(h.fingerprint256) ? 'served certificate found in --cert-dir' : `${inDir.length} certificate(s) in --cert-dir, none the one served`;
        return [rule('node:2.6/cert-dir', inDir.includes(h.fingerprint256), expected, observed), rule('node:2.6/tls-cert-file', inDir.includes(h.fingerprint256), expected, observed)];
      });
    } finally {
      tmp.remove();
    }
  },
};

export const daemonChecks = [daemonHelp, ...daemonInvalidFlagChecks, daemonValidFlags, daemonLeaderLease, daemonTlsMinVersion, daemonTlsCipherSuites, daemonTlsSni, daemonCertDir, daemonSecurePortZero, daemonVersion];
