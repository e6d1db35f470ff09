/**
 * `svc-conformance`: the command line. `run` starts the embedded reference target unless a target is
 * named, runs the suites through vitest, writes the reports and exits with the code of DESIGN.md:
 * 0 conformant, 1 nonconformant, 2 usage or configuration error, 3 target unreachable / infrastructure.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { makeWritableDir } from './reports-dir.ts';
import path from 'node:path';
import { confirmationBudgetMs, confirmFailures, unconfirmed, type ConfirmOptions } from './confirm-failures.ts';
import { settingFlags } from './replay-flags.ts';
import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { profileByName, profileMismatch, profiles, type Profile, type ProfileName } from '../reference/profile.ts';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../harness/kubeconfig.ts';
import { checkReachable, createTargetClient } from '../harness/client.ts';
import { InfrastructureError } from '../harness/exchange.ts';
import { defaultTargetSettings, newRunId } from '../harness/env.ts';
import type { TargetSettings } from '../harness/check.ts';
import { checks, suites } from '../suites/checks/index.ts';
import { fileURLToPath } from 'node:url';
import { parseDuration } from './duration-flag.ts';
import { startReferenceServer, faults as faultTable, variations as variationTable } from '../targets/api-server/index.ts';
import { catalog, familyOf } from '../reference/catalog/index.ts';
import { excusedFailure } from '../reports/known-failures.ts';
import { baselineClauses, buildRunResult, capabilityFact, CAPABILITIES, type Capability, compareWithBaseline, ExpectationsError, expectationsForRun, mergeExpectations, parseExpectations, parseShard, shardOf, toSummaryJson, toTerminalSummary, writeReports, type BaselineClause, type Expectations } from '../reports/index.ts';
import { mergeReportsCommand } from './merge-reports.ts';
import { requireSome, selectChecks, selectionOf } from '../harness/selection.ts';
import { dryRunPlan } from './dry-run.ts';
import { Progress, shownPath } from '../reports/progress.ts';
import { parseHookArg, type Hooks } from '../harness/hooks.ts';
import { embeddedHooks } from '../targets/api-server/hooks.ts';
import { leftoverLines, sweepRun, type SweepResult } from './sweep.ts';
import { armRunStop, DEFAULT_RUN_TIMEOUT_MS, STOP_EXIT, STOP_GRACE_MS, stopLine, unfinishedRecords, within } from '../harness/run-stop.ts';
import { releaseArg, runtimeConfigArg, versionsCommand } from './versions-command.ts';
import { nodeagentCommand, nodeagentLoaderSettings, writeNodeagentCases } from './nodeagent-cli.ts';
import { prepareDaemon, registerControllerDaemonCommands } from './controller-daemon-cli.ts';
import { kubeconfigText } from '../harness/controller-daemon.ts';
import { parseTokenFile } from '../targets/api-server/authz.ts';
import { SUPERUSER_GROUP, type UserInfo } from '../reference/rbac.ts';
import { recheckHistoryCommand } from './recheck-history.ts';
import { registerEnvtestCommand } from './envtest-cli.ts';
import { DEFAULT_PARALLEL } from '../harness/scheduler.ts';
import { DEFAULT_RUNS } from '../suites/settings.ts';
import { footprintLines, sumFootprints } from '../harness/footprint.ts';
import { SCALE_CHOICES, SCALE_WINDOW_MS, scaleProfileByName, type ScaleProfile } from '../harness/scale.ts';
import type { CheckRecord, ConfirmationLabel, Counterexample } from '../harness/results.ts';

const EXIT = { conformant: 0, nonconformant: 1, usage: 2, unreachable: 3 } as const;
/**
 * Replays of a failure alone (and beside background writes when none failed again): two tell a
 * failure that repeats from one that happened once, at the cost of a few cases per failure.
 */
const DEFAULT_CONFIRM_REPLAYS = 2;
// vitest (about 0.8 s to import) is loaded by `run` only: the loader, linter and daemon commands are
// started once per case by the suites and must not pay for it.
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

const intArg = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return Number(v);
};
const portArg = (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('--port must be an integer from 0 to 65535 (0: any free port)');
  return Number(v);
};
const positiveArg = (name: string) => (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a positive integer (a property with no examples checks nothing)`);
  return Number(v);
};
const shardArg = (v: string): { index: number; count: number } => {
  const s = parseShard(v);
  if (s === undefined) throw new InvalidArgumentError('--shard must be i/n with 1 <= i <= n, e.g. 2/3');
  return s;
};
const durationArg = (v: string): number => {
  const ms = parseDuration(v);
  if (ms === undefined) throw new InvalidArgumentError(`not a duration (use e.g. 300ms, 2s, 5m)`);
  return ms;
};
const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
const capabilityArg = (v: string, known: Partial<Record<Capability, boolean>> = {}): Partial<Record<Capability, boolean>> => {
  const fact = capabilityFact(v, known);
  if (fact === undefined) throw new InvalidArgumentError(`unknown capability; known: ${CAPABILITIES.flatMap((c) => [c, `no-${c}`]).join(', ')}`);
  return fact;
};
const scaleArg = (v: string): ScaleProfile => {
  const p = scaleProfileByName(v);
  if (p === undefined) throw new InvalidArgumentError(`unknown scale profile; known: ${SCALE_CHOICES.join(', ')}`);
  return p;
};

const program = new Command('svc-conformance')
  .description('Spec-conformance suite and property checker for the svc control plane')
  .version(version)
  .exitOverride()
  .configureOutput({ outputError: (s, write) => write(s) });

program
  .command('run')
  .description('run the conformance suites (against the embedded reference server unless a target is given)')
  .option('--kubeconfig <file>', 'credentials file of the target (default: embedded reference server)')
  .option('--context <name>', 'context of the kubeconfig (KUBECONFIG or ~/.kube/config when --kubeconfig is absent)')
  .option('--server <url>', 'target base URL (with --token-file for a bearer token)')
  .option('--token-file <file>', 'bearer token file for --server')
  .option('--restricted-kubeconfig <file>', 'credentials of a second, restricted identity for the rest-authz checks (default: the run impersonates a user of its own)')
  .option('--in-cluster', 'use the service-account files of the pod this runs in')
  .option('--insecure-skip-tls-verify', 'do not verify the target\'s certificate')
  .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
  .option('--seed <n>', 'seed of the property runs (printed with every failure)', intArg('--seed'))
  .option('--runs <n>', 'examples per property', positiveArg('--runs'), DEFAULT_RUNS)
  .option('--suite <name>', `only this suite (repeatable): ${suites.join(', ')}`, collect)
  .option('--check <id>', 'only this check (repeatable; see `list-checks`)', collect)
  .option('--focus <regex>', 'only checks whose id, suite, title or a clause id matches (repeatable; case-insensitive)', collect)
  .option('--skip <regex>', 'leave out checks whose id, suite, title or a clause id matches (repeatable; case-insensitive)', collect)
  .option('--dry-run', 'print the plan (target, budget, checks, clauses) and exit; nothing is started or sent')
  .option('--path <path>', 'fast-check path of a counterexample to replay (with --seed and --check)')
  .option('--reports <dir>', 'where to write the reports', 'results')
  .option('--expectations <file>', 'known failures of this target (YAML/JSON; repeatable, the lists are merged): only regressions fail the run', collect)
  .option('--slow', 'also run clauses that wait out the target\'s real time windows (minutes)')
  .option('--continue-ttl <duration>', 'continue-token lifetime the target is configured with', durationArg)
  .option('--history-window <duration>', 'watch/resourceVersion history the target keeps', durationArg)
  .option('--eventual-window <duration>', 'how long to wait for effects the spec promises with no time bound before calling them inconclusive (default 60s; embedded 5s)', durationArg)
  .option('--fault <name>', 'embedded target only: inject a named fault (repeatable; see `list-faults`)', collect)
  .option('--variation <name>', 'embedded target only: a legal behaviour variation (repeatable)', collect)
  .option('--release <version>', 'release of the target when it does not report one at /version (embedded: the release it serves, default 1.24)', releaseArg)
  .option('--target-capability <name>', `what the target has, for expectations entries limited to it (repeatable): ${CAPABILITIES.flatMap((c) => [c, `no-${c}`]).join(', ')}`, capabilityArg)
  .option('--runtime-config <list>', 'embedded target only: <group>/<version>[/<resource>][=true|false],... (rest:9.1.3)', runtimeConfigArg)
  .option('--nodeagent-loader <cmd>', 'node-agent config loader command, run with a file path appended (default with the embedded server: the reference loader)')
  .option('--nodeagent-fault <name>', 'embedded loader only: a planted fault (repeatable; see `nodeagent validate --help`)', collect)
  .option('--controller-daemon <cmd>', 'controller daemon command to test (default with the embedded target: the reference daemon)')
  .option('--daemon-start-timeout <duration>', 'longest wait for one controller daemon start', durationArg)
  .option('--hook <name=cmd>', 'how to restart the target or compact its history: restart=CMD, compact=CMD (repeatable; the embedded server has both)', collect)
  .option('--scale <profile>', `rest-scale: thousands of objects, chains of hundreds of pages, prefix-named namespaces, objects near the size limit (${SCALE_CHOICES.join(', ')}; off by default)`, scaleArg)
  .option('--writers <n>', 'rest-concurrency: writers at once (default 4)', positiveArg('--writers'))
  .option('--ops-per-writer <n>', 'rest-concurrency: operations per writer, at most (default 24)', positiveArg('--ops-per-writer'))
  .option('--shard <i/n>', 'run only shard i of n of the selected checks (deterministic; merge with `merge-reports`)', shardArg)
  .option('--baseline <summary.json>', 'an earlier run\'s summary.json: new failures, fixed, still failing, newly not checked')
  .addOption(new Option('-o, --output <format>', 'stdout: the terminal summary, or summary.json').choices(['text', 'json'] as const).default('text' as const))
  .option('--parallel <n>', `checks run at once (default ${DEFAULT_PARALLEL})`, positiveArg('--parallel'))
  .option('--confirm <n>', `replays of each failure before it is reported: alone, then beside background writes when none failed again (default ${DEFAULT_CONFIRM_REPLAYS})`, positiveArg('--confirm'), DEFAULT_CONFIRM_REPLAYS)
  .option('--no-confirm', 'report failures without replaying them (labelled "not confirmed (off)")')
  .option('--reproduce <n>', 'with --seed, --check and --path: replay that counterexample n times after the run and print how often it failed (its confirmation label comes from these replays)', positiveArg('--reproduce'))
  .option('--confirm-time <duration>', 'longest time confirmation may take (default: as long as the run took, at least 60s and two eventual windows)', durationArg)
  .option('--timeout <duration>', `budget of the whole run: when it runs out no check starts, running ones are abandoned after ${STOP_GRACE_MS / 1000} s, and the reports are written with what the run has (exit 3)`, durationArg, DEFAULT_RUN_TIMEOUT_MS)
  .option('--background-writes', 'one write in a namespace of the run\'s own before every request of a check, so resourceVersions move between its requests as other checks\' writes make them')
  .action(async (o) => {
    process.exitCode = await run(o);
    // The run is over and its reports are written: nothing left behind (a test worker slow to wind
    // down, a keep-alive socket) may hold the process, or CI waits on it. Flush, then go.
    await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
    process.exit(process.exitCode);
  });

program
  .command('serve')
  .description('run the embedded reference API server on loopback until interrupted')
  .option('--port <n>', 'port (0: any free one)', portArg, 0)
  .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
  .option('--continue-ttl <duration>', 'continue-token lifetime', durationArg)
  .option('--history-window <duration>', 'history retention window', durationArg)
  .option('--fault <name>', 'inject a named fault (repeatable)', collect)
  .option('--variation <name>', 'legal behaviour variation (repeatable)', collect)
  .option('--release <version>', 'release the server serves and reports at /version (default 1.24)', releaseArg)
  .option('--runtime-config <list>', '<group>/<version>[/<resource>][=true|false],... (rest:9.1.3)', runtimeConfigArg)
  .option('--kubeconfig-out <file>', 'write a kubeconfig for this server to FILE and print its path (KUBECONFIG=FILE kubectl get ns)')
  .option('--external-namespace-controller', 'leave deleted namespaces Terminating for a real namespace controller (kube-controller-manager) to empty and finalize')
  .option('--token-auth-file <file>', 'authenticate bearer tokens (lines token,user,uid,"group1,group2") and authorize with RBAC; without it everyone may do anything')
  .action(async (o) => {
    const tokens = o.tokenAuthFile === undefined ? undefined : readTokenFile(o.tokenAuthFile);
    const server = await listening(o.port, () => startReferenceServer({
      ...(tokens !== undefined ? { tokens } : {}),
      ...(o.externalNamespaceController ? { builtInNamespaceController: false } : {}),
      port: o.port,
      ...(o.release !== undefined ? { release: o.release } : {}),
      ...(o.runtimeConfig !== undefined ? { runtimeConfig: o.runtimeConfig } : {}),
      profile: profiles[o.profile],
      ...(o.continueTtl !== undefined ? { continueTtlMs: o.continueTtl } : {}),
      ...(o.historyWindow !== undefined ? { historyWindowMs: o.historyWindow } : {}),
      faults: validateNames('fault', o.fault ?? [], faultTable),
      variations: validateNames('variation', o.variation ?? [], variationTable),
    }));
    process.stdout.write(`reference server listening on ${server.url}\n`);
    if (o.kubeconfigOut !== undefined) {
      try {
        // With a token table, the kubeconfig carries its first superuser's token (the file is mode 0600).
        writeKubeconfig(o.kubeconfigOut, server.url, tokens === undefined ? undefined : [...tokens].find(([, u]) => u.groups.includes(SUPERUSER_GROUP))?.[0]);
      } catch (e) {
        await server.close();
        throw e;
      }
      process.stdout.write(`kubeconfig written to ${path.resolve(o.kubeconfigOut)}\n`);
    }
    await new Promise<void>((resolve) => {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
    });
    await server.close();
  });

versionsCommand(program);
registerControllerDaemonCommands(program);
registerEnvtestCommand(program);
program
  .command('recheck-history')
  .description('judge a saved watch history (results/histories/*.json) again with the current model')
  .argument('<file>', 'a histories/<check>-<clause>.json file of an earlier run')
  .action((file) => {
    process.exitCode = recheckHistoryCommand(file, (line) => process.stdout.write(`${line}\n`));
  });

program
  .command('list-checks')
  .description('print every check with its clauses')
  .addOption(new Option('-o, --output <format>', 'one line per check, or a JSON array').choices(['text', 'json'] as const).default('text' as const))
  .action((o) => {
    if (o.output === 'json') {
      process.stdout.write(`${JSON.stringify(checks.map((c) => ({ id: c.id, suite: c.suite, clauses: [...c.clauses] })), null, 2)}\n`);
      return;
    }
    for (const c of checks) process.stdout.write(`${c.suite.padEnd(24)} ${c.id.padEnd(52)} ${c.clauses.join(' ')}\n`);
  });
mergeReportsCommand(program);
program.command('list-faults').description('print the faults and legal variations of the embedded target').action(() => {
  for (const f of faultTable) process.stdout.write(`fault      ${f.name.padEnd(34)} ${f.clause.padEnd(44)} ${f.description}\n`);
  for (const v of variationTable) process.stdout.write(`variation  ${v.name.padEnd(34)} ${''.padEnd(44)} ${v.description}\n`);
});

program.addCommand(nodeagentCommand());

/** Pointing the `svc` names at an upstream server fails every named-group check: say so before running. */
async function refuseProfileMismatch(probe: ReturnType<typeof createTargetClient>, profile: Profile): Promise<void> {
  const r = await probe.send({ method: 'GET', path: '/apis' });
  const groups = (r.json as { groups?: { name?: unknown }[] } | undefined)?.groups;
  if (r.status !== 200 || !Array.isArray(groups)) return;
  const better = profileMismatch(groups.flatMap((g) => (typeof g.name === 'string' ? [g.name] : [])), profile);
  if (better !== undefined) {
    throw new ConfigError(`the target serves ${profiles[better].groupSuffix} groups and no ${profile.groupSuffix} group: run with --profile ${better}`);
  }
}

function parseHooks(args: readonly string[]): Hooks {
  const out: Hooks = {};
  for (const a of args) {
    const parsed = parseHookArg(a);
    if (parsed === undefined) throw new ConfigError(`--hook ${a}: expected restart=CMD or compact=CMD`);
    out[parsed[0]] = parsed[1];
  }
  return out;
}

/** A port someone else holds is the user's configuration, not our crash: one line, exit 2. */
async function listening<T>(port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`port ${port} is already in use on 127.0.0.1; choose another or 0 for any free port`);
    if (code === 'EACCES') throw new ConfigError(`port ${port} needs privileges this process lacks; choose a port above 1023 or 0`);
    throw e;
  }
}

/** Fails before any request is sent: a run whose reports cannot be written has wasted the target's time. */
function ensureWritableDir(dir: string): void {
  try {
    makeWritableDir(dir);
  } catch (e) {
    throw new ConfigError(`--reports ${dir}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** A kubeconfig for the loopback server; an unwritable path is a configuration error (exit 2), not a stack trace. */
function writeKubeconfig(file: string, server: string, token?: string): void {
  try {
    writeFileSync(file, kubeconfigText(server, token), { mode: 0o600 });
  } catch (e) {
    throw new ConfigError(`--kubeconfig-out ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** `serve --token-auth-file`: unreadable or malformed is a configuration error (one line, exit 2). */
function readTokenFile(file: string): Map<string, UserInfo> {
  const parsed = parseTokenFile(readText(file, '--token-auth-file'));
  if ('error' in parsed) throw new ConfigError(`--token-auth-file ${file}: ${parsed.error}`);
  return parsed;
}

function validateNames<T extends string>(what: string, names: readonly string[], table: readonly { name: T }[]): T[] {
  const known = new Set<string>(table.map((t) => t.name));
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) throw new ConfigError(`unknown ${what} ${bad.join(', ')}; known: ${[...known].join(', ')}`);
  return names as T[];
}

type RunOpts = {
  kubeconfig?: string; context?: string; server?: string; tokenFile?: string; inCluster?: true; insecureSkipTlsVerify?: true;
  restrictedKubeconfig?: string;
  profile: ProfileName; seed?: number; runs: number; suite?: string[]; check?: string[]; focus?: string[]; skip?: string[]; dryRun?: true; path?: string; reports: string;
  expectations?: string[]; slow?: true; continueTtl?: number; historyWindow?: number; eventualWindow?: number; fault?: string[]; variation?: string[];
  release?: string; runtimeConfig?: string; targetCapability?: Partial<Record<Capability, boolean>>;
  nodeagentLoader?: string; nodeagentFault?: string[];
  controllerDaemon?: string; daemonStartTimeout?: number;
  shard?: { index: number; count: number }; baseline?: string; output: 'text' | 'json';
  writers?: number; opsPerWriter?: number; hook?: string[]; scale?: ScaleProfile;
  parallel?: number; confirm: number | false; confirmTime?: number; backgroundWrites?: true; reproduce?: number; timeout: number;
};

async function run(o: RunOpts): Promise<number> {
  const started = Date.now();
  const profile = profileByName(o.profile)!;
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runId = newRunId();
  const reportsDir = path.resolve(o.reports);
  const external = Boolean(o.kubeconfig || o.context || o.server || o.inCluster);
  // Every line of the run goes above the live status line once the checks run (reports/progress.ts).
  const progress = new Progress(process.stderr);
  const log = (line: string) => progress.line(line);

  if (o.path !== undefined && (o.seed === undefined || !o.check?.length)) throw new ConfigError('--path replays one counterexample: give it with the --seed and --check it was printed with');
  if (o.reproduce !== undefined && (o.path === undefined || o.check?.length !== 1)) throw new ConfigError('--reproduce N replays one counterexample: give it with the --seed, --check and --path it was printed with');
  for (const s of o.suite ?? []) if (!suites.includes(s)) throw new ConfigError(`unknown suite ${s}; known: ${suites.join(', ')}`);
  for (const c of o.check ?? []) if (!checks.some((k) => k.id === c)) throw new ConfigError(`unknown check ${c}; see \`svc-conformance list-checks\``);
  if (external && ((o.fault?.length ?? 0) > 0 || (o.variation?.length ?? 0) > 0)) throw new ConfigError('--fault and --variation apply to the embedded reference server only');
  if (external && o.runtimeConfig !== undefined) throw new ConfigError('--runtime-config applies to the embedded reference server only');
  // Before the embedded server starts: an error thrown after it would leave its listener holding the process.
  if (!external && (o.hook?.length ?? 0) > 0) throw new ConfigError('--hook applies to an external target; the embedded server has its own restart and compaction hooks');
  if (!external && o.restrictedKubeconfig !== undefined) throw new ConfigError('--restricted-kubeconfig applies to an external target; the embedded server\'s checks impersonate a user of their own');
  const nodeagent = nodeagentLoaderSettings(o, external, profile);
  // Read (and refused when malformed) before anything starts; applied once the target's release is known.
  const listed = o.expectations?.length ? readExpectations(o.expectations) : undefined;
  for (const w of listed?.warnings ?? []) log(`svc-conformance: warning: ${w}`);
  let expectations: Expectations | undefined;
  const baseline = o.baseline === undefined ? undefined : readBaseline(o.baseline);
  const chosen = selectChecks(checks.filter((c) => (!o.suite?.length || o.suite.includes(c.suite)) && (!o.check?.length || o.check.includes(c.id))), selectionOf(o));
  requireSome(chosen, o);
  const selected = o.shard === undefined ? chosen : shardOf(chosen, o.shard.index, o.shard.count);
  if (o.dryRun) {
    process.stdout.write(dryRunPlan({ ...o, parallel: o.parallel ?? DEFAULT_PARALLEL }, version, checks.length, selected));
    return EXIT.conformant;
  }
  ensureWritableDir(reportsDir);

  let targetCfg: TargetConfig;
  let targetSettings: TargetSettings;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let embeddedToken: string | undefined;
  if (external) {
    targetCfg = await loadTargetConfig({
      ...(o.kubeconfig ? { kubeconfig: o.kubeconfig } : {}),
      ...(o.context ? { context: o.context } : {}),
      ...(o.server ? { server: o.server } : {}),
      ...(o.tokenFile ? { token: readText(o.tokenFile, '--token-file').trim() } : {}),
      ...(o.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    });
    targetSettings = {
      ...defaultTargetSettings,
      slow: Boolean(o.slow),
      ...(o.continueTtl !== undefined ? { continueTtlMs: o.continueTtl } : {}),
      ...(o.historyWindow !== undefined ? { historyWindowMs: o.historyWindow } : {}),
      ...(o.eventualWindow !== undefined ? { eventualWindowMs: o.eventualWindow } : {}),
      ...(o.release !== undefined ? { release: o.release } : {}),
    };
  } else {
    // The embedded target runs with a short token lifetime so rest:4.4.4 is checked in seconds.
    // Under --scale a chain of hundreds of pages must finish within both windows: they are as long
    // as a run still waits out without --slow.
    const continueTtlMs = o.continueTtl ?? (o.scale ? SCALE_WINDOW_MS : 1500);
    // ...and a short history window so rest:6.1.3 (410 for a too-old watch) is too.
    const historyWindowMs = o.historyWindow ?? (o.scale ? SCALE_WINDOW_MS : 3000);
    // The run's own identity is a superuser of a server that authenticates and authorizes (rest:5).
    const token = randomBytes(16).toString('hex');
    embeddedToken = token;
    const server = await startReferenceServer({
      profile,
      tokens: new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]]),
      continueTtlMs,
      historyWindowMs,
      ...(o.release !== undefined ? { release: o.release } : {}),
      ...(o.runtimeConfig !== undefined ? { runtimeConfig: o.runtimeConfig } : {}),
      faults: validateNames('fault', o.fault ?? [], faultTable),
      variations: validateNames('variation', o.variation ?? [], variationTable),
    });
    stopEmbedded = () => server.close();
    targetCfg = { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: { Authorization: `Bearer ${token}` }, source: 'embedded reference server' };
    targetSettings = { ...defaultTargetSettings, slow: Boolean(o.slow), continueTtlMs, historyWindowMs, eventualWindowMs: o.eventualWindow ?? 5_000, watchWaitMs: 1_500 };
  }

  // rest-authz: a second identity (its current context); its server must be the target's.
  let restrictedCfg: TargetConfig | undefined;
  if (o.restrictedKubeconfig !== undefined) {
    restrictedCfg = await loadTargetConfig({ kubeconfig: o.restrictedKubeconfig }).catch((e: unknown) => {
      throw e instanceof ConfigError ? new ConfigError(`--restricted-kubeconfig: ${e.message}`) : e;
    });
    if (restrictedCfg.server !== targetCfg.server) throw new ConfigError(`--restricted-kubeconfig ${o.restrictedKubeconfig}: its server ${restrictedCfg.server} is not the target ${targetCfg.server}`);
  }
  const hooks = external ? parseHooks(o.hook ?? []) : embeddedHooks(targetCfg.server);
  if (external && Object.keys(hooks).length > 0) targetSettings = { ...targetSettings, hooks };
  if (!external) targetSettings = { ...targetSettings, hooks };
  if (o.scale !== undefined) targetSettings = { ...targetSettings, scale: o.scale };
  if (o.writers !== undefined || o.opsPerWriter !== undefined) {
    targetSettings = { ...targetSettings, workload: { ...(o.writers !== undefined ? { writers: o.writers } : {}), ...(o.opsPerWriter !== undefined ? { opsPerWriter: o.opsPerWriter } : {}) } };
  }
  const daemon = await prepareDaemon({ ...(o.controllerDaemon !== undefined ? { command: o.controllerDaemon } : {}), bundle: selected.some((c) => c.suite === 'controller-daemon'), external, profile: profile.name, server: targetCfg.server, ...(embeddedToken !== undefined ? { token: embeddedToken } : {}), ...(o.daemonStartTimeout !== undefined ? { startTimeoutMs: o.daemonStartTimeout } : {}) });

  // --timeout, SIGTERM from CI, Ctrl-C: no check starts, running ones are abandoned after a grace,
  // the reports are written with what the run has, then cleanup (bounded). A second signal: out now.
  const stop = armRunStop(Math.max(0, o.timeout - (Date.now() - started)), (signal) => {
    log(`svc-conformance: ${signal} again: exiting without waiting for cleanup of run ${runId}`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
  void stop.stopped.then((reason) => log(`svc-conformance: ${reason}: stopping run ${runId}; reports follow`));

  try {
    const probe = createTargetClient(targetCfg, { maxRetries: 1 });
    try {
      const reported = await checkReachable(probe);
      if (external) await refuseProfileMismatch(probe, profile);
      progress.target(targetCfg.server, reported, external ? targetCfg.source : `embedded reference server${o.fault?.length ? ` with faults ${o.fault.join(', ')}` : ''}${o.variation?.length ? ` with variations ${o.variation.join(', ')}` : ''}`);
      if (listed) expectations = expectationsForRun(listed, { scale: o.scale !== undefined, profile: profile.name, capabilities: o.targetCapability ?? {}, ...(reported ?? o.release ? { release: (reported ?? o.release)! } : {}) });
    } finally {
      await probe.close();
    }
    const { runSuites } = await import('./run-vitest.ts');
    if (o.shard !== undefined) log(`svc-conformance: shard ${o.shard.index}/${o.shard.count}: ${selected.length} of ${chosen.length} checks`);
    const parallel = o.parallel ?? DEFAULT_PARALLEL;
    log(`svc-conformance ${version}: profile ${profile.name}, seed ${seed}, ${o.runs} runs per property, ${selected.length} checks, run id ${runId}`);
    // -o json promises stdout to the summary alone; vitest's reporters print there too.
    const restoreStdout = o.output === 'json' ? stdoutToStderr() : () => undefined;
    const suiteSettings = (ids: readonly string[]) => ({
      target: cloneableTarget(targetCfg),
      ...(restrictedCfg !== undefined ? { restrictedTarget: cloneableTarget(restrictedCfg) } : {}),
      profile: profile.name,
      runId,
      seed,
      runs: o.runs,
      checks: [...ids],
      deadline: stop.deadline,
      parallel: ids.length > 0 && ids.every((id) => checks.find((c) => c.id === id)?.exclusive === true) ? 1 : parallel,
      ...(o.backgroundWrites ? { backgroundWrites: true } : {}),
      ...(o.path ? { path: o.path } : {}),
      targetSettings,
      replayCommand: replayCommand(o, seed),
      ...(nodeagent.settings ? { nodeagentLoader: nodeagent.settings } : {}),
      ...(daemon.settings ? { controllerDaemon: daemon.settings } : {}),
    });
    // Checks that restart or compact the target run after the others, one at a time: a restart cuts
    // every connection and a compaction ages every version, so nothing may run beside them.
    const shared = selected.filter((c) => c.exclusive !== true);
    const exclusive = selected.filter((c) => c.exclusive === true);
    const suitesOf = (cs: readonly { suite: string }[]) => [...new Set(cs.map((c) => c.suite))];
    const outcome = { records: [] as Awaited<ReturnType<typeof runSuites>>['records'], errors: [] as string[], footprints: [] as Awaited<ReturnType<typeof runSuites>>['footprints'], finished: new Set<string>() };
    progress.begin(selected.length);
    for (const [group, sequential] of [[shared, false], [exclusive, true]] as const) {
      if (group.length === 0 || stop.reason !== undefined) continue;
      const part = await runSuites({ ...suiteSettings(group.map((c) => c.id)), ...(group === exclusive ? { namespaceScope: 'x' } : {}) }, { suites: suitesOf(group), reportsDir, progress, sequential, keepAllure: group === exclusive && shared.length > 0, stop: stop.stopped, graceMs: STOP_GRACE_MS });
      outcome.records.push(...part.records);
      outcome.errors.push(...part.errors);
      outcome.footprints.push(...part.footprints);
      for (const id of part.finished) outcome.finished.add(id);
    }
    // Checks whose turn came after the deadline report themselves as not started; the rest are here.
    const notStarted = outcome.records.filter((r) => r.note?.startsWith('run timeout: ')).map((r) => r.check);
    const reason = stop.reason ?? (notStarted.length > 0 ? 'run timeout' : undefined);
    if (reason !== undefined) {
      const unfinished = selected.filter((c) => !outcome.finished.has(c.id) || notStarted.includes(c.id));
      outcome.records.push(...unfinishedRecords(selected, outcome.finished, reason));
      outcome.errors.push(stopLine(reason, Date.now() - started, unfinished.length, selected.length));
    }
    // Replays of one check in this process (--reproduce, confirmation), loaded only when needed: a green
    // run (and every other command) does not pay for it.
    const replayer = async (command: string) => (await import('./confirm-replay.ts')).inProcessReplayer({
      target: targetCfg,
      ...(restrictedCfg !== undefined ? { restricted: restrictedCfg } : {}),
      profile,
      runId,
      settings: targetSettings,
      runs: o.runs,
      replayCommand: command,
      ...(nodeagent.settings ? { nodeagentLoader: nodeagent.settings } : {}),
      ...(daemon.settings ? { controllerDaemon: daemon.settings } : {}),
    });
    if (o.reproduce !== undefined) {
      // The reproduction rate of one counterexample (issue 26 item 3), as etcd's reproduction targets report it.
      const replay = await replayer(replayCommand(o, seed));
      const rate = await reproductionRate(o.reproduce, () => replay(o.check![0]!, { seed, path: o.path } as Counterexample, 'alone'));
      log(`svc-conformance: reproduced ${rate.failed} of ${o.reproduce} replays${rate.clauses.length > 0 ? ` (failed: ${rate.clauses.join(', ')})` : ''}`);
      outcome.records = withReproductionRate(outcome.records, o.reproduce, rate);
    } else if (o.confirm === false) outcome.records = unconfirmed(outcome.records);
    else if (outcome.records.some((r) => r.verdict === 'fail')) {
      // A stopped run confirms nothing more: its failures are reported `not confirmed (time)`.
      const budgetMs = stop.reason !== undefined ? 0 : Math.min(o.confirmTime ?? confirmationBudgetMs(Date.now() - started, targetSettings.eventualWindowMs), Math.max(0, stop.deadline - Date.now()));
      log(`svc-conformance: confirming failures (${o.confirm} replays each, at most ${Math.round(budgetMs / 1000)} s)`);
      const confirmOptions: ConfirmOptions = {
        times: o.confirm,
        deadline: Date.now() + budgetMs,
        now: Date.now,
        known: (r) => expectations !== undefined && excusedFailure(expectations.knownFailures, r),
        log,
        replay: await replayer(replayCommand({ ...o, backgroundWrites: undefined }, seed)),
      };
      const found = outcome.records;
      outcome.records = await Promise.race([confirmFailures(found, confirmOptions), stop.stopped.then(() => confirmFailures(found, { ...confirmOptions, deadline: 0 }))]);
    }
    progress.end();
    restoreStdout();

    // A stopped run writes its reports before cleanup (CI's kill may follow SIGTERM), then again with
    // what cleanup left; a finished run cleans up first and reports once.
    const sweep = async (): Promise<SweepResult | undefined> => {
      if (!external) return undefined;
      const swept = await within(sweepRun(targetCfg, profile, runId, log), SWEEP_LIMIT_MS);
      return swept ?? { leftovers: [], unverified: `cleanup of run ${runId} did not finish within ${SWEEP_LIMIT_MS / 1000} s; list what is left with: kubectl get namespaces -l ${profile.runLabel}=${runId}` };
    };
    // A signal during confirmation also stops the run here: reports first, then cleanup.
    const stoppedFor = reason ?? stop.reason;
    let swept = stoppedFor === undefined ? await sweep() : undefined;
    // Checks finish in any order when run in parallel: records and footprints follow check order.
    const order = new Map(checks.map((c, i) => [c.id, i]));
    const byCheck = (a: { check: string }, b: { check: string }) => (order.get(a.check) ?? 0) - (order.get(b.check) ?? 0);
    const footprint = sumFootprints([...outcome.footprints].sort(byCheck), parallel);
    const report = async (swept: SweepResult | undefined, print: boolean) => {
      const result = buildRunResult({
        records: [...outcome.records].sort(byCheck),
        footprint,
        catalog,
        profile: profile.name,
        seed,
        server: targetCfg.server,
        nodeagentLoader: nodeagent.description,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        version,
        errors: [...outcome.errors, ...(swept?.unverified !== undefined ? [swept.unverified] : []), ...(swept?.leftovers.length ? [`cleanup left ${swept.leftovers.length} object(s) of run ${runId} behind (leftovers)`] : [])],
        ...(expectations ? { expectations } : {}),
        ...(swept !== undefined ? { leftovers: swept.leftovers } : {}),
      });
      const stepSummaryFile = process.env['GITHUB_STEP_SUMMARY'];
      const written = await writeReports(result, reportsDir, familyOf, {
        catalog,
        ...(baseline !== undefined ? { baseline: compareWithBaseline(result, baseline) } : {}),
        ...(stepSummaryFile ? { stepSummaryFile } : {}),
      });
      written.files.push(...(await writeNodeagentCases(result, reportsDir)));
      if (!print) return result;
      // -o json: stdout is the summary alone, for a pipe into jq; the terminal summary goes to stderr.
      const terminal = toTerminalSummary(result, familyOf, { color: o.output === 'text' && process.stdout.isTTY === true, reportsDir: path.relative(process.cwd(), reportsDir) || '.' }) + '\n';
      if (o.output === 'json') {
        process.stderr.write(terminal);
        process.stdout.write(toSummaryJson(result, { catalog, familyOf }));
      } else process.stdout.write(terminal);
      for (const line of footprintLines(footprint)) log(`svc-conformance: ${line}`);
      if (o.scale !== undefined) for (const line of scaleLines(o.scale, footprint)) log(`svc-conformance: ${line}`);
      log(`svc-conformance: open ${shownPath(path.join(reportsDir, 'index.html'))}`);
      return result;
    };
    let result = await report(swept, stoppedFor === undefined || !external);
    if (stoppedFor !== undefined && external) {
      log(`svc-conformance: reports written; cleaning up run ${runId}`);
      swept = await sweep();
      result = await report(swept, true);
    }
    for (const line of swept === undefined ? [] : leftoverLines(swept, profile.runLabel, runId)) log(`svc-conformance: ${line}`);
    if (stoppedFor !== undefined) {
      log(`svc-conformance: ${outcome.errors.find((e) => e.startsWith(stoppedFor)) ?? `${stoppedFor}: every check had finished; reports written`}`);
      return STOP_EXIT[stoppedFor];
    }
    if (swept !== undefined && (swept.leftovers.length > 0 || swept.unverified !== undefined) && result.verdict !== 'nonconformant') return EXIT.unreachable;
    return result.verdict === 'conformant' ? EXIT.conformant : result.verdict === 'nonconformant' ? EXIT.nonconformant : EXIT.unreachable;
  } finally {
    stop.dispose();
    // Bounded: a server that waits on a client that never hangs up must not keep the run alive.
    const cleanup = (async () => {
      await daemon.cleanup();
      await stopEmbedded?.();
    })();
    await Promise.race([cleanup, new Promise<void>((resolve) => setTimeout(resolve, CLEANUP_LIMIT_MS).unref())]);
  }
}

/** Longest cleanup of an external target: the sweep's own wait plus its requests. */
const SWEEP_LIMIT_MS = 60_000;
/** How long stopping the daemon's private server and the embedded target may take at the end. */
const CLEANUP_LIMIT_MS = 15_000;
/** The scale profile's own time and footprint: the rest-scale checks' part of the run's. */
function scaleLines(p: ScaleProfile, f: ReturnType<typeof sumFootprints>): string[] {
  const mine = f.checks.filter((c) => checks.find((k) => k.id === c.check)?.suite === 'rest-scale');
  if (mine.length === 0) return [`scale ${p.name}: no rest-scale check ran (select --suite rest-scale or leave the selection open)`];
  const part = sumFootprints(mine);
  const [first] = footprintLines(part, mine.length);
  return [
    `scale ${p.name}: ${p.objects} objects in one collection, pages of ${p.pageLimit}, ${p.namespaceRoots * p.namespaceDepth} prefix namespaces, objects of ${p.nearLimitBytes} and ${p.overLimitBytes} bytes`,
    `scale ${p.name} time: ${mine.map((c) => `${c.check} ${(c.wallMs / 1000).toFixed(1)} s`).join(', ')}`,
    `scale ${p.name} ${first!}`,
  ];
}

/** What a person types to run exactly this again; target options included, secrets never. */
function replayCommand(o: RunOpts, _seed: number): string {
  const parts = ['npx svc-conformance run'];
  if (o.kubeconfig) parts.push(`--kubeconfig ${o.kubeconfig}`);
  if (o.context) parts.push(`--context ${o.context}`);
  if (o.server) parts.push(`--server ${o.server}`);
  if (o.restrictedKubeconfig) parts.push(`--restricted-kubeconfig ${o.restrictedKubeconfig}`);
  if (o.profile !== 'svc') parts.push(`--profile ${o.profile}`);
  for (const f of o.fault ?? []) parts.push(`--fault ${f}`);
  for (const v of o.variation ?? []) parts.push(`--variation ${v}`);
  if (o.release !== undefined) parts.push(`--release ${o.release}`);
  if (o.runtimeConfig !== undefined) parts.push(`--runtime-config ${o.runtimeConfig}`);
  if (o.scale !== undefined) parts.push(`--scale ${o.scale.name}`);
  if (o.controllerDaemon) parts.push(`--controller-daemon '${o.controllerDaemon.replace(/'/g, `'\\''`)}'`);
  if (o.nodeagentLoader) parts.push(`--nodeagent-loader ${JSON.stringify(o.nodeagentLoader)}`);
  for (const f of o.nodeagentFault ?? []) parts.push(`--nodeagent-fault ${f}`);
  parts.push(...settingFlags(o));
  if (o.backgroundWrites) parts.push('--background-writes');
  return parts.join(' ');
}

/** TLS material as strings: vitest clones the settings into its workers. */
function cloneableTarget(cfg: TargetConfig): TargetConfig {
  const str = (v: string | Buffer | undefined) => (v === undefined ? undefined : typeof v === 'string' ? v : v.toString('utf8'));
  const tls = { ...cfg.tls, ca: str(cfg.tls.ca), cert: str(cfg.tls.cert), key: str(cfg.tls.key) };
  for (const k of ['ca', 'cert', 'key'] as const) if (tls[k] === undefined) delete tls[k];
  return { ...cfg, tls };
}

/** Every --expectations file, merged; a malformed one is a usage error (one line, exit 2). */
function readExpectations(files: readonly string[]): Expectations {
  try {
    return mergeExpectations(files.map((f) => parseExpectations(readText(f, '--expectations'), f)));
  } catch (e) {
    if (e instanceof ExpectationsError) throw new ConfigError(`--expectations ${e.message}`);
    throw e;
  }
}

function stdoutToStderr(): () => void {
  const original = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
  return () => {
    process.stdout.write = original;
  };
}

function readBaseline(file: string): BaselineClause[] {
  let json: unknown;
  try {
    json = JSON.parse(readText(file, '--baseline'));
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError(`--baseline ${file}: not JSON (${(e as Error).message})`);
  }
  try {
    return baselineClauses(json, file);
  } catch (e) {
    throw new ConfigError(`--baseline ${(e as Error).message}`);
  }
}

/** A file an option names; unreadable, the one line names the option too (`--baseline x.json: no such file`). */
function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${option} ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
}

async function main(): Promise<void> {
  // `svc-conformance ... | head`: a reader that stops early is not our crash.
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  try {
    await program.parseAsync(process.argv);
  } catch (e) {
    reportError(e);
    // Whatever started before the error (a listener, a child) must not keep a refused run alive.
    await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
    process.exit(process.exitCode);
  }
}

function reportError(e: unknown): void {
  const err = e as { code?: string; exitCode?: number; message?: string };
  if (typeof err.code === 'string' && err.code.startsWith('commander.')) {
    process.exitCode = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT.usage;
    return;
  }
  if (e instanceof ConfigError) {
    process.stderr.write(`svc-conformance: ${e.message}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  if (e instanceof InfrastructureError) {
    process.stderr.write(`svc-conformance: ${e.message}\n`);
    process.exitCode = EXIT.unreachable;
    return;
  }
  process.stderr.write(`svc-conformance: internal error (please report): ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exitCode = 70;
}

await main();

/** Replays a counterexample `times` times: how many replays failed, and the clauses they failed. */
async function reproductionRate(times: number, replay: () => Promise<readonly CheckRecord[]>): Promise<{ failed: number; clauses: string[]; byClause: Map<string, number> }> {
  let failed = 0;
  const byClause = new Map<string, number>();
  for (let i = 0; i < times; i++) {
    const fails = (await replay()).filter((r) => r.verdict === 'fail');
    if (fails.length > 0) failed++;
    for (const c of new Set(fails.map((f) => f.clause))) byClause.set(c, (byClause.get(c) ?? 0) + 1);
  }
  return { failed, clauses: [...byClause.keys()], byClause };
}

/** The run's failures labelled from the reproduction rate: every replay failed, some did, none did. */
function withReproductionRate(records: readonly CheckRecord[], times: number, rate: { byClause: ReadonlyMap<string, number> }): CheckRecord[] {
  return records.map((r) => {
    if (r.verdict !== 'fail' || r.counterexample === undefined) return r;
    const reproduced = rate.byClause.get(r.clause) ?? 0;
    const label: ConfirmationLabel = reproduced === times ? 'reproduces alone' : reproduced > 0 ? 'flaky' : 'not reproduced';
    return { ...r, counterexample: { ...r.counterexample, confirmation: { label, runs: times, reproduced } } };
  });
}
