/**
 * `svc-conformance`: the command line, its flags and their parsing. `run` is a plan (runner/plan.ts)
 * and the one executor (runner/executor.ts) with the reports watching it (scripts/run-reports.ts); it exits with the code of docs/verdict-rules.md: 0 conformant,
 * 1 nonconformant, 2 usage or configuration error, 3 target unreachable / infrastructure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { ConfigError } from '../harness/transport/index.ts';
import { InfrastructureError } from '../harness/transport/index.ts';
import { suites } from '../suites/checks/index.ts';
import { fileURLToPath } from 'node:url';
import { CAPABILITIES } from '../reports/index.ts';
import { mergeReportsCommand } from './merge-reports.ts';
import { EXIT, executeRun } from '../runner/executor.ts';
import { planRun, type RunOptions } from '../runner/plan.ts';
import { newRunId } from '../runner/env.ts';
import { runReports } from './run-reports.ts';
import { readRunInputs } from './run-inputs.ts';
import { embeddedNotice } from './embedded-notice.ts';
import { dryRunText } from '../reports/dry-run-plan.ts';
import { DEFAULT_RUN_TIMEOUT_MS, HURRIED_LISTING_MS, STOP_GRACE_MS, STOPPED_CLEANUP_MS } from '../runner/run-stop.ts';
import { DEFAULT_SHRINK_TIME_MS } from '../harness/case/index.ts';
import { releaseArg, runtimeConfigArg, versionsCommand } from './versions-command.ts';
import { nodeagentCommand } from './nodeagent-cli.ts';
import { registerControllerDaemonCommands } from './controller-daemon-cli.ts';
import { recheckHistoryCommand } from './recheck-history.ts';
import { registerEnvtestCommand } from './envtest-cli.ts';
import { registerCompareCommand } from './compare-cli.ts';
import { registerMatrixCommand } from './matrix-cli.ts';
import { registerCleanupCommand } from './cleanup-cli.ts';
import { registerRejudgeCommand } from './rejudge-cli.ts';
import { registerServeCommand } from './serve-cli.ts';
import { registerListChecksCommand, registerListExpectationsCommand, registerListFaultsCommand } from './list-cli.ts';
import { capabilityArg, collect, durationArg, intArg, positiveArg, requireArg, scaleArg, shardArg } from './cli-args.ts';
import { DEFAULT_PARALLEL } from '../runner/scheduler.ts';
import { DEFAULT_RUNS } from '../suites/settings.ts';
import { SCALE_CHOICES } from '../harness/case/index.ts';
import { type Requirement } from '../reports/require.ts';
import { reportsDirArg } from './reports-option.ts';
import { resolveExpectations } from '../reports/builtin-expectations.ts';
import { ReportsDirError } from '../reports/reports-ownership.ts';

/**
 * Replays of a failure alone (and beside background writes when none failed again): two tell a
 * failure that repeats from one that happened once, at the cost of a few cases per failure.
 */
const DEFAULT_CONFIRM_REPLAYS = 2;
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

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
  .option('--certificate-authority <file>', "CA certificates (PEM) that verify the --server target's certificate (kubectl's option)")
  .option(
    '--restricted-kubeconfig <file>',
    'credentials of a second, restricted identity for the rest-authz checks (default: the run impersonates a user of its own)',
  )
  .option('--in-cluster', 'use the service-account files of the pod this runs in')
  .option('--insecure-skip-tls-verify', "do not verify the target's certificate")
  .addOption(new Option('--profile <name>', 'naming profile').choices(['svc', 'k8s'] as const).default('svc' as const))
  .option('--seed <n>', 'seed of the property runs (printed with every failure)', intArg('--seed'))
  .option('--runs <n>', 'examples per property', positiveArg('--runs'), DEFAULT_RUNS)
  .option('--suite <name>', `only this suite (repeatable): ${suites.join(', ')}`, collect)
  .option('--check <id>', 'only this check (repeatable; see `list-checks`)', collect)
  .option('--focus <regex>', 'only checks whose id, suite, title or a clause id matches (repeatable; case-insensitive)', collect)
  .option('--skip <regex>', 'leave out checks whose id, suite, title or a clause id matches (repeatable; case-insensitive)', collect)
  .option('--dry-run', 'print the plan (target, budget, checks, clauses) and exit; nothing is started or sent')
  .option('--path <path>', 'fast-check path of a counterexample to replay (with --seed and --check)')
  .option('--reports <dir>', 'where to write the reports; files the suite did not write there are never replaced', reportsDirArg, 'results')
  .option(
    '--expectations <file|name>',
    'known failures of this target (YAML/JSON, or the name of a file shipped with the suite: see `list-expectations`; repeatable, the lists are merged): only regressions fail the run',
    collect,
  )
  .option('--slow', "also run clauses that wait out the target's real time windows (minutes)")
  .option('--continue-ttl <duration>', 'continue-token lifetime the target is configured with', durationArg)
  .option('--history-window <duration>', 'watch/resourceVersion history the target keeps', durationArg)
  .option(
    '--eventual-window <duration>',
    'how long to wait for effects the spec promises with no time bound before calling them inconclusive (default 60s; embedded 5s)',
    durationArg,
  )
  .option('--fault <name>', 'embedded target only: inject a named fault (repeatable; see `list-faults`)', collect)
  .option('--variation <name>', 'embedded target only: a legal behaviour variation (repeatable)', collect)
  .option(
    '--without <feature>',
    'embedded target only: leave out a whole feature, as a partial server does (repeatable; see `list-faults`)',
    collect,
  )
  .option(
    '--release <version>',
    'release of the target when it does not report one at /version (embedded: the release it serves, default 1.24)',
    releaseArg,
  )
  .option(
    '--target-capability <name>',
    `what the target has, for expectations entries limited to it (repeatable): ${CAPABILITIES.flatMap((c) => [c, `no-${c}`]).join(', ')}`,
    capabilityArg,
  )
  .option('--runtime-config <list>', 'embedded target only: <group>/<version>[/<resource>][=true|false],... (rest:9.1.3)', runtimeConfigArg)
  .option(
    '--nodeagent-loader <cmd>',
    'node-agent config loader command, run with a file path appended (default with the embedded server: the reference loader)',
  )
  .option('--nodeagent-fault <name>', 'embedded loader only: a planted fault (repeatable; see `nodeagent validate --help`)', collect)
  .option('--controller-daemon <cmd>', 'controller daemon command to test (default with the embedded target: the reference daemon)')
  .option('--daemon-start-timeout <duration>', 'longest wait for one controller daemon start', durationArg)
  .option(
    '--hook <name=cmd>',
    'how to restart the target or compact its history: restart=CMD, compact=CMD (repeatable; the embedded server has both)',
    collect,
  )
  .option(
    '--scale <profile>',
    `rest-scale: thousands of objects, chains of hundreds of pages, prefix-named namespaces, objects near the size limit (${SCALE_CHOICES.join(', ')}; off by default)`,
    scaleArg,
  )
  .option('--writers <n>', 'rest-concurrency: writers at once (default 4)', positiveArg('--writers'))
  .option('--ops-per-writer <n>', 'rest-concurrency: operations per writer, at most (default 24)', positiveArg('--ops-per-writer'))
  .option('--shard <i/n>', 'run only shard i of n of the selected checks (deterministic; merge with `merge-reports`)', shardArg)
  .option('--baseline <summary.json>', "an earlier run's summary.json: new failures, fixed, still failing, newly not checked")
  .addOption(
    new Option('-o, --output <format>', 'stdout: the terminal summary, or summary.json')
      .choices(['text', 'json'] as const)
      .default('text' as const),
  )
  .option('--parallel <n>', `checks run at once (default ${DEFAULT_PARALLEL})`, positiveArg('--parallel'))
  .option(
    '--confirm <n>',
    `replays of each failure before it is reported: alone, then beside background writes when none failed again (default ${DEFAULT_CONFIRM_REPLAYS})`,
    positiveArg('--confirm'),
    DEFAULT_CONFIRM_REPLAYS,
  )
  .option('--no-confirm', 'report failures without replaying them (labelled "not confirmed (off)")')
  .option(
    '--reproduce <n>',
    'with --seed, --check and --path: replay that counterexample n times after the run and print how often it failed (its confirmation label comes from these replays)',
    positiveArg('--reproduce'),
  )
  .option(
    '--confirm-time <duration>',
    'longest time confirmation may take (default: as long as the run took, at least 60s and two eventual windows)',
    durationArg,
  )
  .option(
    '--timeout <duration>',
    `budget of the whole run: when it runs out no check starts, running ones are abandoned after ${STOP_GRACE_MS / 1000} s, the reports are written with what the run has, and cleanup takes at most ${(STOPPED_CLEANUP_MS + HURRIED_LISTING_MS) / 1000} s more (exit 3; docs/stopping-and-cleanup.md)`,
    durationArg,
    DEFAULT_RUN_TIMEOUT_MS,
  )
  .option(
    '--shrink-time <duration>',
    `how long shrinking one failure may take once it is found (default ${DEFAULT_SHRINK_TIME_MS / 1000}s); the report says when it was cut short`,
    durationArg,
  )
  .option(
    '--require <minimums>',
    'minimums the run must reach, e.g. pages>=5,watches.resumed>=1,cells.rest:4.5>=10 (repeatable; below them: not tested, exit 3)',
    requireArg,
  )
  .option(
    '--namespace <name>',
    'work in this existing namespace instead of creating namespaces of its own (repeatable; for targets where the run may not create namespaces)',
    collect,
  )
  .option('--no-preflight', "skip asking the target what the run's identity may do before the checks")
  .option(
    '--continue-past-failures',
    'a case that meets a failure the expectations file excuses goes on, so its later steps are judged too (the model keeps its own state, not the departure the entry excuses: docs/partial-targets.md)',
  )
  .option(
    '--no-capability-probe',
    'skip the capability map: every selected check runs, whatever the target serves (docs/capability-map.md)',
  )
  .option(
    '--background-writes',
    "one write in a namespace of the run's own before every request of a check, so resourceVersions move between its requests as other checks' writes make them",
  )
  .action(async (o) => {
    process.exitCode = await run(o);
    // The run is over and its reports are written: nothing left behind (a test worker slow to wind
    // down, a keep-alive socket) may hold the process, or CI waits on it. Flush, then go.
    await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
    process.exit(process.exitCode);
  });

/** `run`: the plan of the options, its files read (refused alike by a --dry-run, a CI lint step), then its dry-run text or the one executor with the reports watching. */
async function run(o: RunOptions & { require?: Requirement[] }): Promise<number> {
  if (o.expectations !== undefined) o = { ...o, expectations: o.expectations.map(expectationsFile) };
  const planned = planRun(o, { seed: Math.floor(Math.random() * 2 ** 31), runId: newRunId(), cwd: process.cwd() });
  if (planned.errors !== undefined) throw new ConfigError(planned.errors[0]!);
  const notice = embeddedNotice(o, process.env);
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
  const inputs = await readRunInputs(planned.plan, { dryRun: o.dryRun });
  if (o.dryRun) {
    process.stdout.write(dryRunText(o, planned.plan));
    return EXIT.conformant;
  }
  return (await executeRun(planned.plan, runReports(planned.plan, inputs, { ...o, argv: process.argv.slice(2) }))).exitCode;
}

registerServeCommand(program);
versionsCommand(program);
registerControllerDaemonCommands(program);
registerEnvtestCommand(program);
registerCompareCommand(program);
registerMatrixCommand(program);
registerCleanupCommand(program);
registerRejudgeCommand(program);
program
  .command('recheck-history')
  .description('judge a saved watch history (results/histories/*.json) again with the current model')
  .argument('<file>', 'a histories/<check>-<clause>.json file of an earlier run')
  .action((file) => {
    process.exitCode = recheckHistoryCommand(file, (line) => process.stdout.write(`${line}\n`));
  });

registerListChecksCommand(program);
mergeReportsCommand(program);
registerListExpectationsCommand(program);

/** `--expectations NAME|FILE`: a file as given, else the suite's own file of that name; neither is a usage error. */
function expectationsFile(value: string): string {
  const r = resolveExpectations(value, process.cwd());
  if ('error' in r) throw new ConfigError(`--expectations ${r.error}`);
  return r.file;
}

registerListFaultsCommand(program);
program.addCommand(nodeagentCommand());

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
  if (e instanceof ConfigError || e instanceof ReportsDirError) {
    process.stderr.write(`svc-conformance: ${e.message}\n`);
    process.exitCode = EXIT.usage;
    return;
  }
  if (e instanceof InfrastructureError) {
    process.stderr.write(`svc-conformance: ${e.message}\n`);
    process.exitCode = EXIT.unreachable;
    return;
  }
  process.stderr.write(`svc-conformance: internal error (please report): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 70;
}

await main();
