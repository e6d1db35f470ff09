/**
 * The controller daemon suite (node:1.4, node:2.6, node:5, node:8): its --help table against the spec,
 * generated invalid command lines it must refuse (exit non-zero, naming the option), valid ones it must
 * accept (serving /healthz on the port the suite chose), and the leader Lease at its default place.
 * Each start is bounded in time, stopped and reaped; a daemon that neither exits nor serves is an error.
 * Checks only start the daemon and record what it did; every verdict is a judge of
 * `reference/controller-daemon/judge.ts`.
 */
import {
  judgeHelpRun,
  judgeLease,
  judgeOpenDecision,
  judgeRefusal,
  judgeUnexpectedExit,
  judgeValidStart,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { freePort, observeStart, probePatiently, runToExit } from '../../harness/processes/index.ts';
import { awaitLeadership, daemonApiGet, readLeases, writtenElsewhere } from '../../harness/interpreters/index.ts';
import {
  gateLifecyclePick,
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
  lifecycleExpectation,
  leaseTaken,
  leaseWindow,
  optionByName,
  options,
  parseFlags,
  parseHelp,
  withDefaults,
  type MainLoopSeen,
  type PathSeen,
} from '../../reference/controller-daemon/index.ts';
import type { ProfileName } from '../../reference/profile.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import {
  SUITE,
  notConfigured,
  daemon,
  commandLine,
  startSeen,
  hung,
  notExited,
  paced,
  startReproducer,
  stepsReproducer,
  suiteFlags,
  startLauncher,
} from './daemon-start.ts';
import {
  daemonTlsMinVersion,
  daemonTlsCipherSuites,
  daemonSecurePortZero,
  daemonVersion,
  daemonTlsSni,
  daemonCertDir,
} from './daemon-tls.ts';

export const daemonHelp: Check<{ line: string }> = {
  id: 'daemon-help-table',
  suite: SUITE,
  title: '--help lists every option of the spec with its type and default',
  clauses: [
    ...new Set<ClauseId>([
      'node:2.6/help',
      'node:1.4',
      ...options.filter((o) => !o.pattern).map((o) => o.clause),
      ...gates.map(gateListClause),
    ]),
  ],
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
  return last
    ? `--${flagName(optionByName(last[0])!, profile)}`
    : JSON.stringify(v.words![v.words!.length - 1]!.replace(/^--/, '').replace(/=.*$/, ''));
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
      if (!parsed.errors.some((e) => e.clause === i.violation.clause))
        throw new Error(`generator bug: the model accepts ${argv.join(' ')}`);
      const refusal = { clause: i.violation.clause, rule: i.violation.rule, flag: namedWord(i.violation, profile), binding: v.binding };
      // A control-loop value may be refused when the loop starts, after leadership: watch for the Lease.
      const get = daemonApiGet(t, cx);
      const window = leaseWindow(withDefaults(parsed.options, profile));
      const before = v.binding === 'main-loop' ? await readLeases(get, cx.env.profile, window) : undefined;
      const dp = startLauncher(t, profile).launch(argv);
      try {
        const obs = await observeStart(dp, port, t);
        if (obs.kind === 'hung') throw hung([i.violation.clause], obs);
        let seen = startSeen(obs);
        let mainLoop: MainLoopSeen | undefined;
        if (seen.kind === 'serving' && before) {
          const w = await awaitLeadership(dp, get, cx.env.profile, window, before, {
            now: cx.env.now,
            sleep: cx.env.sleep,
            settleMs: t.settleMs,
            pace: t.pace,
          });
          if (w.exited) seen = { kind: 'exited', ...w.exited };
          else
            mainLoop = {
              leaderAndRunning:
                leaseTaken({ before: before.at, after: w.after.at }) || writtenElsewhere(before, w.after, window).length > 0,
              window,
            };
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
      if (!parseFlags(argv, profile).open.some((e) => e.clause === i.violation.clause))
        throw new Error(`generator bug: the model decides ${argv.join(' ')}`);
      const dp = startLauncher(t, profile).launch(argv);
      try {
        const obs = await observeStart(dp, port, t);
        if (obs.kind === 'hung') throw hung([i.violation.clause], obs);
        cx.judge(
          judgeOpenDecision({ clause: i.violation.clause, rule: i.violation.rule, flag: namedWord(i.violation, profile) }, startSeen(obs)),
        );
      } finally {
        await dp.stop();
      }
    },
  };
}

export const daemonOpenFlagChecks = openKinds.map(openFlagsCheck);

/**
 * `also`: clauses a start of this command line judges besides its options' own, each with what it
 * expects of the start (2.6's type row for its fixed line; the gate life cycle for the gates it sets).
 */
type ValidInput = { picks: FlagPick[]; words: string[]; line: string; also?: Partial<Record<ClauseId, string>> };

/**
 * 2.6's own row ("Types: `duration` like `1m0s`; `strings` comma-separated list"): a command line that
 * writes durations in that form and strings as comma-separated lists, started on every run.
 */
const TYPES_EXAMPLE: FlagPick[] = [
  { flags: [['leader-elect-lease-duration', '1m0s']] },
  { flags: [['attach-detach-reconcile-sync-period', '5m0s']] },
  { flags: [['authorization-always-allow-paths', '/healthz,/readyz,/livez,/metrics']] },
  { flags: [['tls-cipher-suites', 'TLS_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']] },
];

/** What every start of a valid command line judges besides its options' own clauses (judgeValidStart). */
const SERVING_START_CLAUSES: readonly ClauseId[] = [
  'node:1.4',
  'node:2.6/secure-port',
  'node:2.6/bind-address',
  'node:5/authorization-always-allow-paths',
  'node:5/authorization-kubeconfig',
];

/** The paths probed on a serving daemon without credentials. */
const PROBED_PATHS = ['/healthz', '/readyz', '/livez', '/configz'];

export const daemonValidFlags: Check<ValidInput> = {
  id: 'daemon-valid-flags',
  suite: SUITE,
  title: 'a valid command line starts the daemon serving /healthz on the chosen port',
  clauses: [...new Set<ClauseId>([...SERVING_START_CLAUSES, ...validPickOptions('svc').map((o) => optionByName(o)!.clause)])],
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
    const clauses = [
      ...new Set<ClauseId>([
        ...i.picks.flatMap((p) => p.flags.map(([o]) => optionByName(o)!.clause)),
        ...(Object.keys(i.also ?? {}) as ClauseId[]),
      ]),
    ];
    const dp = startLauncher(t, profile).launch(argv);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
      if (obs.kind === 'hung') throw hung(['node:1.4', 'node:2.6/secure-port', 'node:2.6/bind-address', ...clauses], obs);
      const paths: PathSeen[] = [];
      if (obs.kind === 'serving')
        for (const path of PROBED_PATHS) paths.push({ path, ...(await probePatiently(port, path, 1000, t.answers)) });
      const allowed = withDefaults(parsed.options, profile)['authorization-always-allow-paths'] as readonly string[];
      cx.judge(judgeValidStart({ port, clauses, seen: startSeen(obs), paths, allowed, expects: i.also }));
    } finally {
      await dp.stop();
    }
  },
};

/**
 * 2.6's type row on every run, as a check of its own (a fixed case cannot shrink, so in the random
 * check it would hide the smallest failing command line): durations written like `1m0s` and
 * comma-separated strings lists, which a daemon must accept and serve with.
 */
export const daemonTypesRow: Check<ValidInput> = {
  ...daemonValidFlags,
  id: 'daemon-valid-flags-types-row',
  title:
    "a command line writing durations like 1m0s and strings as comma-separated lists (2.6's type row) starts the daemon serving, on every run",
  clauses: [
    ...new Set<ClauseId>([
      ...SERVING_START_CLAUSES,
      'node:2.6/types',
      ...TYPES_EXAMPLE.flatMap((p) => p.flags.map(([o]) => optionByName(o)!.clause)),
    ]),
  ],
  defaultRuns: 1,
  arbitrary: (env) => {
    const words = renderPicks(TYPES_EXAMPLE, env.profile.name);
    return fc.constant<ValidInput>({ picks: TYPES_EXAMPLE, words, line: commandLine(env, words), also: { 'node:2.6/types': 'accepted' } });
  },
};

/**
 * rest:9.3's feature-gate life cycle, as far as the gate lists of node:2.6 let a daemon show it, on
 * every run: an alpha gate "can be enabled" and a beta gate that is on by default "can be disabled"
 * (reference/controller-daemon/gates.ts lifecycleGates), both in one --feature-gates, and the daemon
 * serves. The defaults of each stage are judged where --help lists the gates (node:2.6/feature-gates/*);
 * the lists name no GA or deprecated gate, so the GA half of the life cycle has nothing to run on.
 */
export const daemonGateLifecycle: Check<ValidInput> = {
  ...daemonValidFlags,
  id: 'daemon-gate-lifecycle',
  title:
    'an alpha gate can be enabled and a beta gate on by default disabled (the feature-gate life cycle): the daemon starts serving, on every run',
  clauses: [...SERVING_START_CLAUSES, 'node:2.6/feature-gates', 'rest:9.3/feature-gate-lifecycle'],
  defaultRuns: 2,
  arbitrary: (env) =>
    gateLifecyclePick(env.profile.name).map((pick) => {
      const words = renderPicks([pick], env.profile.name);
      const gates = pick.flags.find(([o]) => o === 'feature-gates')![1];
      return {
        picks: [pick],
        words,
        line: commandLine(env, words),
        also: { 'rest:9.3/feature-gate-lifecycle': lifecycleExpectation(gates, env.profile.name) },
      };
    }),
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
    const dp = startLauncher(t, profile).launch([...suiteFlags(t, profile, port), '--leader-elect=true']);
    try {
      const obs = await observeStart(dp, port, { startTimeoutMs: t.startTimeoutMs, waitFor200: true, ...paced(t) });
      if (obs.kind === 'hung') throw hung(daemonLeaderLease.clauses, obs);
      if (obs.kind === 'exited') {
        cx.judge(judgeUnexpectedExit('node:2.6/leader-elect', 'starts and serves with --leader-elect', obs));
        return;
      }
      const w = await awaitLeadership(dp, get, cx.env.profile, window, before, { now: cx.env.now, sleep: cx.env.sleep, pace: t.pace });
      cx.judge(
        judgeLease({
          window,
          before: before.at,
          after: w.after.at,
          elsewhere: writtenElsewhere(before, w.after, window),
          namespaceExists: w.namespaceExists,
          exited: w.exited,
        }),
      );
    } finally {
      await dp.stop();
    }
  },
};

export const daemonChecks = [
  stepsReproducer(daemonHelp),
  ...daemonInvalidFlagChecks,
  ...daemonOpenFlagChecks,
  daemonValidFlags,
  daemonTypesRow,
  daemonGateLifecycle,
  ...[daemonLeaderLease, daemonTlsMinVersion, daemonTlsCipherSuites, daemonTlsSni, daemonCertDir, daemonSecurePortZero, daemonVersion].map(
    stepsReproducer,
  ),
];
