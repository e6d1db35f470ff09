/**
 * The controller daemon's serving side (node:5, node:2.6 TLS options): minimum TLS version, cipher suites,
 * a secure port of 0, --version, certificates chosen by server name, and the certificate directory.
 * Each check starts the daemon through daemon-start.ts and records what a TLS client saw; every verdict
 * is a judge of `reference/controller-daemon/judge.ts`.
 */
import {
  judgeCertDir,
  judgeCipherSuites,
  judgeSecurePortZero,
  judgeSni,
  judgeTlsMinVersion,
  judgeUnexpectedExit,
  judgeVersion,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import {
  certificatesIn,
  writeCertPair,
  freePort,
  observeStart,
  runToExit,
  takeCalibrationRun,
  tempDir,
} from '../../harness/processes/index.ts';
import { InfrastructureError } from '../../harness/transport/index.ts';
import { type NamedCertKey } from '../../reference/controller-daemon/index.ts';
import { CheckNotApplicable } from '../../harness/case/index.ts';
import {
  SUITE,
  notConfigured,
  daemon,
  commandLine,
  startSeen,
  hung,
  notExited,
  paced,
  handshake,
  withServingDaemon,
  suiteFlags,
  startLauncher,
} from './daemon-start.ts';

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
      async (port, t) =>
        judgeTlsMinVersion(await handshake(t, port, { maxVersion: 'TLSv1.2' }), await handshake(t, port, { minVersion: 'TLSv1.3' })),
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
        const unlisted = await handshake(t, port, {
          maxVersion: 'TLSv1.2',
          ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384',
        });
        const listed = await handshake(t, port, {
          maxVersion: 'TLSv1.2',
          ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256',
        });
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
    const dp = startLauncher(t, cx.env.profile.name).launch([...suiteFlags(t, cx.env.profile.name, port), '--secure-port=0']);
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
    // The pace's calibration ran this very command line (harness/processes/controller-daemon.ts): its answer is judged, once.
    const run =
      takeCalibrationRun(t) ??
      (await runToExit(t.launcher, ['--version'], t.startTimeoutMs, t.pace).catch(notExited(['node:2.6/version'])));
    cx.judge(judgeVersion(run));
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
      const made = await Promise.all(
        SNI_PATTERNS.map(async (names, i) => ({
          names,
          files: await writeCertPair(tmp.dir, `pair${i}`, names[0]!.replace('*', 'wildcard')),
        })),
      );
      if (made.some((m) => !m.files)) throw new CheckNotApplicable([clause], 'the openssl command is needed to make the SNI certificates');
      const pairs = made.map((m) => ({
        pair: { cert: m.files!.cert, key: m.files!.key, names: m.names } as NamedCertKey,
        fingerprint256: m.files!.fingerprint256,
      }));
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
