/**
 * `svc-conformance compare`: the same generated cases against the implementation under test
 * and a reference server in lockstep (harness/interpreters/lockstep.ts), each side judged by the model, the two
 * answers compared step by step (harness/interpreters/lockstep-case.ts). Writes compare.json, compare.md and
 * compare.html. Exit codes: 0 no violation of the target alone (`--strict`: and no open choice taken
 * differently), 1 the target violates where the reference conforms, 2 usage, 3 unreachable or nothing
 * compared.
 */
import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { ConfigError } from '../harness/transport/index.ts';
import { newRunId } from '../runner/env.ts';
import { COMPARE_SUITES, planCompare, type CompareOptions } from '../runner/compare-plan.ts';
import { executeCompare } from '../runner/executor.ts';
import type { CompareResult } from '../reports/compare-result.ts';
import { compareReports } from './compare-reports.ts';
import { reportsDirArg } from './reports-option.ts';

export type { CompareOptions, SideOptions } from '../runner/compare-plan.ts';

/** Plans the comparison, runs it through the executor and writes its reports; returns the result and the exit code. */
export async function runCompare(
  o: CompareOptions,
  log: (line: string) => void = () => undefined,
): Promise<{ result: CompareResult; exitCode: number; files: string[] }> {
  const planned = planCompare(o, { seed: Math.floor(Math.random() * 2 ** 31), runIds: [newRunId(), newRunId()] });
  if (planned.errors !== undefined) throw new ConfigError(planned.errors[0]!);
  const edge = compareReports(planned.plan);
  const exitCode = await executeCompare(planned.plan, { log, edge });
  const { result, files } = edge.published!;
  return { result, exitCode, files: [...files] };
}

const intArg =
  (name: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return Number(v);
  };
const positiveArg =
  (name: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
    return Number(v);
  };
const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
const quote = (s: string): string => (/^[A-Za-z0-9_./:=@-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const DEFAULT_COMPARE_RUNS = 8;

export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description(
      `the same generated cases against the target and a reference server in lockstep; each answer judged by the model, the two compared step by step (suites: ${COMPARE_SUITES.join(', ')})`,
    )
    .option('--kubeconfig <file>', 'credentials file of the target (default: the embedded reference server)')
    .option('--context <name>', "context of the target's kubeconfig")
    .option('--server <url>', 'target base URL (with --token-file)')
    .option('--token-file <file>', 'bearer token file for --server')
    .option('--insecure-skip-tls-verify', "do not verify the target's certificate")
    .addOption(new Option('--profile <name>', 'naming profile of the target').choices(['svc', 'k8s'] as const).default('svc' as const))
    .option('--fault <name>', 'embedded target only: a planted fault (repeatable; see `list-faults`)', collect)
    .option('--variation <name>', 'embedded target only: a legal variation (repeatable)', collect)
    .option('--label <text>', "the target's name in the reports")
    .option('--reference-kubeconfig <file>', 'credentials file of the reference (default: the embedded reference server)')
    .option('--reference-context <name>', "context of the reference's kubeconfig")
    .option('--reference-server <url>', 'reference base URL (with --reference-token-file)')
    .option('--reference-token-file <file>', 'bearer token file for --reference-server')
    .option('--reference-insecure-skip-tls-verify', "do not verify the reference's certificate")
    .addOption(
      new Option('--reference-profile <name>', 'naming profile of the reference (default: --profile)').choices(['svc', 'k8s'] as const),
    )
    .option('--reference-fault <name>', 'embedded reference only: a planted fault (repeatable)', collect)
    .option('--reference-variation <name>', 'embedded reference only: a legal variation (repeatable)', collect)
    .option('--reference-label <text>', "the reference's name in the reports")
    .option('--seed <n>', 'seed of the generated cases', intArg('--seed'))
    .option('--runs <n>', `cases per check (default ${DEFAULT_COMPARE_RUNS})`, positiveArg('--runs'), DEFAULT_COMPARE_RUNS)
    .option('--suite <name>', `only this suite (repeatable; default ${COMPARE_SUITES.join(', ')})`, collect)
    .option('--check <id>', 'only this check (repeatable; see `list-checks`)', collect)
    .option('--path <path>', 'replay one case (with --seed and one --check)')
    .option('--reports <dir>', 'where to write compare.json, compare.md and compare.html', reportsDirArg, 'results')
    .option('--strict', 'exit 1 also when an open choice is taken differently')
    .action(compareAction);
}

/** The flags of `compare`, as commander hands them over. */
interface CompareFlags {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly server?: string;
  readonly tokenFile?: string;
  readonly insecureSkipTlsVerify?: true;
  readonly profile: 'svc' | 'k8s';
  readonly fault?: string[];
  readonly variation?: string[];
  readonly label?: string;
  readonly referenceKubeconfig?: string;
  readonly referenceContext?: string;
  readonly referenceServer?: string;
  readonly referenceTokenFile?: string;
  readonly referenceInsecureSkipTlsVerify?: true;
  readonly referenceProfile?: 'svc' | 'k8s';
  readonly referenceFault?: string[];
  readonly referenceVariation?: string[];
  readonly referenceLabel?: string;
  readonly seed?: number;
  readonly runs: number;
  readonly suite?: string[];
  readonly check?: string[];
  readonly path?: string;
  readonly reports: string;
  readonly strict?: true;
}

async function compareAction(o: CompareFlags): Promise<void> {
  const replayBase = compareReplayBase(o);
  const { result, exitCode, files } = await runCompare(
    {
      // An empty value (`--server ''`) counts as not given: planCompare tests each for truth.
      target: {
        kubeconfig: o.kubeconfig,
        context: o.context,
        server: o.server,
        tokenFile: o.tokenFile,
        insecureSkipTlsVerify: o.insecureSkipTlsVerify,
        profile: o.profile,
        fault: o.fault,
        variation: o.variation,
        label: o.label,
      },
      reference: {
        kubeconfig: o.referenceKubeconfig,
        context: o.referenceContext,
        server: o.referenceServer,
        tokenFile: o.referenceTokenFile,
        insecureSkipTlsVerify: o.referenceInsecureSkipTlsVerify,
        profile: o.referenceProfile ?? o.profile,
        fault: o.referenceFault,
        variation: o.referenceVariation,
        label: o.referenceLabel,
      },
      seed: o.seed,
      runs: o.runs,
      check: o.check,
      suite: o.suite,
      path: o.path,
      reports: o.reports,
      strict: Boolean(o.strict),
      replayBase,
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  const t = result.totals;
  process.stdout.write(
    `compare: ${result.verdict}: ${t.same} same, ${t['differs-both-conformant']} differ (both conformant), ${t['target-violates']} target violates, ${t['reference-violates']} reference violates, ${t['both-violate-alike'] + t['both-violate-differently']} both violate, ${t.error} errors\n`,
  );
  process.stdout.write(`reports: ${files.join(', ')}\n`);
  process.exitCode = exitCode;
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  process.exit(exitCode);
}

/** The start of every replay command a compare prints: the sides as given, without the selection. */
function compareReplayBase(o: CompareFlags): string {
  const words = (pairs: [string, string | undefined][]) => pairs.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${quote(v!)}`);
  const many = (flag: string, vs: string[] | undefined) => (vs ?? []).map((v) => `${flag} ${quote(v)}`);
  return [
    'npx svc-conformance compare',
    ...words([
      ['--kubeconfig', o.kubeconfig],
      ['--context', o.context],
      ['--server', o.server],
      ['--token-file', o.tokenFile],
      ['--reference-kubeconfig', o.referenceKubeconfig],
      ['--reference-context', o.referenceContext],
      ['--reference-server', o.referenceServer],
      ['--reference-token-file', o.referenceTokenFile],
    ]),
    ...(o.profile !== 'svc' ? [`--profile ${o.profile}`] : []),
    ...(o.referenceProfile ? [`--reference-profile ${o.referenceProfile}`] : []),
    ...many('--fault', o.fault),
    ...many('--variation', o.variation),
    ...many('--reference-fault', o.referenceFault),
    ...many('--reference-variation', o.referenceVariation),
    `--runs ${o.runs}`,
  ].join(' ');
}
