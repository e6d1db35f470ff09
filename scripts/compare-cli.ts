/**
 * `svc-conformance compare` (issue 27): the same generated cases against the implementation under test
 * and a reference server in lockstep (harness/interpreters/lockstep.ts), each side judged by the model, the two
 * answers compared step by step (harness/interpreters/lockstep-case.ts). Writes compare.json, compare.md and
 * compare.html. Exit codes: 0 no violation of the target alone (`--strict`: and no open choice taken
 * differently), 1 the target violates where the reference conforms, 2 usage, 3 unreachable or nothing
 * compared.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { profileMismatch, profiles, type Profile, type ProfileName } from '../reference/profile.ts';
import { ConfigError, loadTargetConfig, type TargetConfig } from '../harness/transport/index.ts';
import { checkReachable, createTargetClient } from '../harness/transport/index.ts';
import { defaultTargetSettings, newRunId, type OpenedEnv } from '../runner/env.ts';
import type { TargetSettings } from '../harness/case/index.ts';
import type { Hooks } from '../harness/case/index.ts';
import { checks } from '../suites/checks/index.ts';
import { COMPARE_SUITES, planCompare, type SideOptions, type SidePlan } from '../runner/compare-plan.ts';
import { startEmbeddedTarget } from '../runner/embedded.ts';
import { readText } from '../runner/executor.ts';
import { openSession } from '../runner/session.ts';
import { lockstepTarget, runLockstep, type LockstepSides, type SideSlot } from '../harness/interpreters/index.ts';
import { classifyCase, type StepResult } from '../harness/interpreters/index.ts';
import { translator } from '../harness/interpreters/index.ts';
import { buildCompareResult, compareExitCode, toCompareJson, toCompareMarkdown, type CompareCheck, type CompareResult } from '../reports/compare-result.ts';
import { toCompareHtml } from '../reports/compare-html.ts';
import { makeWritableDir } from '../reports/reports-dir.ts';
import { COMPARE_CLAIM } from '../reports/reports-ownership.ts';
import { checkOwned, reportsDirArg, writeOwned } from './reports-option.ts';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const version = (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;

export { COMPARE_SUITES, defaultCompareChecks, LEFT_OUT, type SideOptions } from '../runner/compare-plan.ts';

export interface CompareOptions {
  target: SideOptions;
  reference: SideOptions;
  seed?: number;
  runs: number;
  check?: string[];
  suite?: string[];
  path?: string;
  reports: string;
  strict: boolean;
  /** The words that select the two servers, for replay commands (never a secret: file paths only). */
  replayBase?: string;
}

interface PreparedSide {
  cfg: TargetConfig;
  profile: Profile;
  label: string;
  hooks?: Hooks;
  stop?: () => Promise<void>;
}

/** Embedded servers get the windows an external server has when one is compared: the same for both. */
function settingsFor(anyExternal: boolean): TargetSettings {
  if (anyExternal) return { ...defaultTargetSettings, eventualWindowMs: 10_000 };
  return { ...defaultTargetSettings, continueTtlMs: 1500, historyWindowMs: 3000, eventualWindowMs: 5_000, watchWaitMs: 1_500 };
}

async function prepareSide(s: SideOptions, planned: SidePlan, which: 'target' | 'reference', settings: TargetSettings): Promise<PreparedSide> {
  const profile = profiles[s.profile];
  const flag = which === 'target' ? '--' : '--reference-';
  if (planned.external) {
    const cfg = await loadTargetConfig({
      ...(s.kubeconfig ? { kubeconfig: s.kubeconfig } : {}),
      ...(s.context ? { context: s.context } : {}),
      ...(s.server ? { server: s.server } : {}),
      ...(s.tokenFile ? { token: readText(s.tokenFile, `${flag}token-file`).trim() } : {}),
      ...(s.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    }).catch((e: unknown) => {
      throw e instanceof ConfigError && which === 'reference' ? new ConfigError(`reference: ${e.message}`) : e;
    });
    const probe = createTargetClient(cfg, { maxRetries: 1 });
    let reported: string | undefined;
    try {
      reported = await checkReachable(probe);
      const r = await probe.send({ method: 'GET', path: '/apis' });
      const groups = (r.json as { groups?: { name?: unknown }[] } | undefined)?.groups;
      const better = Array.isArray(groups)
        ? profileMismatch(
            groups.flatMap((g) => (typeof g.name === 'string' ? [g.name] : [])),
            profile,
          )
        : undefined;
      if (better !== undefined) throw new ConfigError(`the ${which} serves ${profiles[better].groupSuffix} groups and no ${profile.groupSuffix} group: give ${flag}profile ${better}`);
    } finally {
      await probe.close();
    }
    return { cfg, profile, label: s.label ?? `${reported ?? 'unknown version'} at ${cfg.server}` };
  }
  const { faults, variations } = planned;
  const embedded = await startEmbeddedTarget({ faults, variations, continueTtlMs: settings.continueTtlMs, historyWindowMs: settings.historyWindowMs }, profile);
  const extra = [...faults.map((f) => `fault ${f}`), ...variations.map((v) => `variation ${v}`)];
  return {
    cfg: embedded.config,
    profile,
    label: s.label ?? `embedded reference server${extra.length ? ` (${extra.join(', ')})` : ''}`,
    hooks: embedded.hooks,
    stop: () => embedded.close(),
  };
}

/** Runs the comparison and writes its reports; returns the result and the exit code. */
export async function runCompare(o: CompareOptions, log: (line: string) => void = () => undefined): Promise<{ result: CompareResult; exitCode: number; files: string[] }> {
  const started = new Date();
  const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);
  const planned = planCompare(o);
  if (planned.errors !== undefined) throw new ConfigError(planned.errors[0]!);
  const { selected, sides: sidePlans } = planned.plan;
  const reportsDir = path.resolve(o.reports);
  try {
    makeWritableDir(reportsDir);
  } catch (e) {
    throw new ConfigError(`--reports ${o.reports}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  checkOwned(reportsDir, COMPARE_CLAIM);
  const settings = settingsFor(sidePlans[0].external || sidePlans[1].external);
  const prepared: PreparedSide[] = [];
  const opened: OpenedEnv[] = [];
  try {
    prepared.push(await prepareSide(o.target, sidePlans[0], 'target', settings));
    prepared.push(await prepareSide(o.reference, sidePlans[1], 'reference', settings));
    const [ta, tb] = prepared as [PreparedSide, PreparedSide];
    if (ta.cfg.server === tb.cfg.server) throw new ConfigError(`the target and the reference are the same server (${ta.cfg.server}): compare needs two`);
    const runIds = [newRunId(), newRunId()] as const;
    const slots: [SideSlot, SideSlot] = [{}, {}];
    for (const [i, p] of prepared.entries()) {
      const side = i as 0 | 1;
      const env = openSession({ target: p.cfg, profile: p.profile, runId: runIds[side], settings: { ...settings, ...(p.hooks ? { hooks: p.hooks } : {}) }, signals: true });
      opened.push(env);
    }
    const wrapped = (i: 0 | 1) => ({ ...opened[i]!.env, target: lockstepTarget(opened[i]!.env.target, i, slots[i]) });
    const sides: LockstepSides = { envs: [wrapped(0), wrapped(1)], slots };
    const translate = translator([...profilePairs(tb.profile, ta.profile), [runIds[1], runIds[0]]], [[tb.profile.clusterName, ta.profile.clusterName]]);
    log(`svc-conformance compare ${version}: target ${ta.label}, reference ${tb.label}; seed ${seed}, ${o.runs} cases per check, ${selected.length} checks`);
    const steps: StepResult[] = [];
    const checkRows: CompareCheck[] = [];
    let notCompared = 0;
    for (const id of selected) {
      const check = checks.find((c) => c.id === id)!;
      const t0 = Date.now();
      const { cases, notApplicable } = await runLockstep(check, sides, { seed, runs: o.runs, ...(o.path !== undefined ? { path: o.path } : {}) });
      let stepCount = 0;
      for (const c of cases) {
        const classified = classifyCase(c, translate);
        notCompared += classified.notCompared;
        stepCount += classified.results.filter((r) => r.step >= 0).length;
        steps.push(...classified.results);
      }
      checkRows.push({ id, suite: check.suite, cases: cases.length, steps: stepCount, ...(notApplicable !== undefined ? { notApplicable } : {}) });
      const mine = steps.filter((s) => s.check === id && s.class !== 'same');
      log(`  ${id}: ${cases.length} cases, ${stepCount} steps, ${mine.length} not alike${notApplicable ? ` (not applicable: ${notApplicable})` : ''} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    const base = o.replayBase ?? 'npx svc-conformance compare';
    const result = buildCompareResult({
      version,
      seed,
      runs: o.runs,
      strict: o.strict,
      startedAt: started,
      durationMs: Date.now() - started.getTime(),
      target: { server: ta.cfg.server, profile: ta.profile.name, label: ta.label },
      reference: { server: tb.cfg.server, profile: tb.profile.name, label: tb.label },
      suites: [...new Set(checkRows.map((c) => c.suite))],
      checks: checkRows,
      steps,
      notCompared,
      replayOf: (s) => `${base} --check ${s.check} --seed ${s.seed} --path ${s.path}`,
    });
    const files = [
      [path.join(reportsDir, 'compare.json'), toCompareJson(result)],
      [path.join(reportsDir, 'compare.md'), toCompareMarkdown(result)],
      [path.join(reportsDir, 'compare.html'), toCompareHtml(result)],
    ] as const;
    writeOwned(reportsDir, COMPARE_CLAIM, files);
    return { result, exitCode: compareExitCode(result), files: files.map(([f]) => f) };
  } finally {
    for (const e of opened) await e.close().catch(() => undefined);
    for (const p of prepared) await p.stop?.().catch(() => undefined);
  }
}

/** The identifiers of one profile that another spells differently (reference/profile.ts), as from->to pairs. */
export function profilePairs(from: Profile, to: Profile): [string, string][] {
  const keys = [
    'groupSuffix',
    'metaGroup',
    'deprecatedAnnotation',
    'protobufMediaType',
    'listTypeExtension',
    'listMapKeysExtension',
    'mapTypeExtension',
    'patchStrategyExtension',
    'patchMergeKeyExtension',
    'preserveUnknownFieldsExtension',
    'controllerManagerName',
    'systemNamespace',
    'nodeLeaseNamespace',
    'publicNamespace',
  ] as const;
  // The namespace name label (rest:2.3) is spelled from the cluster's own domain, not the group suffix.
  const nameLabel = (p: Profile) => (p.name === 'k8s' ? 'kubernetes.io/metadata.name' : `${p.groupSuffix}/metadata.name`);
  return [[nameLabel(from), nameLabel(to)] as [string, string], ...keys.map((k) => [from[k], to[k]] as [string, string])].filter(([f, t]) => f !== t);
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

export const DEFAULT_COMPARE_RUNS = 8;

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
    .addOption(new Option('--reference-profile <name>', 'naming profile of the reference (default: --profile)').choices(['svc', 'k8s'] as const))
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
    .action(async (o) => {
      const words = (pairs: [string, string | undefined][]) => pairs.filter(([, v]) => v !== undefined).map(([k, v]) => `${k} ${quote(v!)}`);
      const many = (flag: string, vs: string[] | undefined) => (vs ?? []).map((v) => `${flag} ${quote(v)}`);
      const replayBase = [
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
      const { result, exitCode, files } = await runCompare(
        {
          target: {
            ...pick(o.kubeconfig, o.context, o.server, o.tokenFile, o.insecureSkipTlsVerify),
            profile: o.profile,
            ...(o.fault ? { fault: o.fault } : {}),
            ...(o.variation ? { variation: o.variation } : {}),
            ...(o.label !== undefined ? { label: o.label } : {}),
          },
          reference: {
            ...pick(o.referenceKubeconfig, o.referenceContext, o.referenceServer, o.referenceTokenFile, o.referenceInsecureSkipTlsVerify),
            profile: o.referenceProfile ?? o.profile,
            ...(o.referenceFault ? { fault: o.referenceFault } : {}),
            ...(o.referenceVariation ? { variation: o.referenceVariation } : {}),
            ...(o.referenceLabel !== undefined ? { label: o.referenceLabel } : {}),
          },
          ...(o.seed !== undefined ? { seed: o.seed } : {}),
          runs: o.runs,
          ...(o.check ? { check: o.check } : {}),
          ...(o.suite ? { suite: o.suite } : {}),
          ...(o.path !== undefined ? { path: o.path } : {}),
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
    });
}

function pick(kubeconfig?: string, context?: string, server?: string, tokenFile?: string, insecure?: true): Omit<SideOptions, 'profile'> {
  return {
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(context ? { context } : {}),
    ...(server ? { server } : {}),
    ...(tokenFile ? { tokenFile } : {}),
    ...(insecure ? { insecureSkipTlsVerify: true } : {}),
  };
}
