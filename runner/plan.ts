/**
 * The run plan: what `svc-conformance run` will do, decided from its parsed options before anything
 * starts. A pure function: no file is read, no port opened, no clock or randomness (the seed a run
 * draws and its run id are parameters). Configuration mistakes come back as data, in the order the
 * command line reports them (one line, exit 2, the first of them).
 *
 *   planRun({ ...defaults, suite: ['rest-crud'] }, { seed: 42, runId: 'ab12cd34', cwd: '/w' })
 *     -> { plan: { target: { kind: 'embedded', ... }, selection: { selected: [3 checks] }, seed: 42, ... } }
 *   planRun({ ...defaults, server: 'https://x', fault: ['ignore-exact'] }, ...)
 *     -> { errors: ['--fault and --variation apply to the embedded reference server only'] }
 */
import path from 'node:path';
import { profileByName, type Profile, type ProfileName } from '../reference/profile.ts';
import type { AnyCheck, TargetSettings } from '../harness/case/index.ts';
import { defaultTargetSettings } from './env.ts';
import { parseHookArg, type Hooks } from '../harness/case/index.ts';
import { SCALE_WINDOW_MS, type ScaleProfile } from '../harness/case/index.ts';
import { DEFAULT_PARALLEL } from './scheduler.ts';
import { checks as registry, suites as suiteNames } from '../suites/checks/index.ts';
import {
  faults as faultTable,
  partialModes,
  variations as variationTable,
  type FaultName,
  type PartialModeName,
  type VariationName,
} from '../targets/api-server/index.ts';
import { shardOf } from './shard.ts';
import { replayCommand } from './replay-command.ts';
import { cleanupCommandLine } from './cleanup-command.ts';
import type { RunOptions } from './run-options.ts';
import { requireSome, selectChecks, selectionOf } from '../harness/case/index.ts';
import { ConfigError } from '../harness/transport/index.ts';
import { didYouMean } from '../harness/case/index.ts';
import { nodeagentFaultNames, nodeagentFaults } from '../targets/nodeagent-loader/faults.ts';
import { splitCommand, type DaemonLauncher } from '../harness/processes/index.ts';
import type { NodeagentLoaderSettings, NodeagentLoaderTarget } from '../harness/processes/index.ts';
import { embeddedLoaderDescription } from '../targets/nodeagent-loader/embedded.ts';
import type { Target } from '../harness/transport/index.ts';
import type { CheckRecord } from './results.ts';

export type { RunOptions } from './run-options.ts';

/** The embedded reference server and what it is started with. */
export interface EmbeddedTargetPlan {
  readonly kind: 'embedded';
  readonly faults: readonly FaultName[];
  readonly variations: readonly VariationName[];
  /** Whole features the server leaves out (`--without`); absent: none. */
  readonly without?: readonly PartialModeName[];
  readonly release?: string;
  readonly runtimeConfig?: string;
  readonly continueTtlMs: number;
  readonly historyWindowMs: number;
  /** Watch bookmarks the server sends this often (its own default when absent). */
  readonly bookmarkIntervalMs?: number;
  /** Namespaces the server has from its start, as an administrator made them for `--namespace`. */
  readonly namespaces?: readonly string[];
}

/** A target the user names: read from these files when the run starts. */
export interface ExternalTargetPlan {
  readonly kind: 'external';
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly server?: string;
  readonly tokenFile?: string;
  /** `--certificate-authority`: the CA file that verifies a `--server` target's certificate. */
  readonly certificateAuthority?: string;
  readonly inCluster?: true;
  readonly insecureSkipTlsVerify?: true;
  readonly restrictedKubeconfig?: string;
  readonly hooks: Hooks;
}

export interface RunPlan {
  readonly profile: Profile;
  readonly seed: number;
  readonly runId: string;
  readonly runs: number;
  /** A counterexample's fast-check path to replay (`--path`). */
  readonly path?: string;
  readonly target: EmbeddedTargetPlan | ExternalTargetPlan;
  /** The judges' windows and sizes; the embedded target's hooks are added once its address is known. */
  readonly settings: TargetSettings;
  readonly selection: {
    /** What --suite and --check chose, in registry order. */
    readonly chosen: readonly AnyCheck[];
    /** Of those, what this shard runs. */
    readonly selected: readonly AnyCheck[];
    readonly shard?: { readonly index: number; readonly count: number };
  };
  /**
   * The node-agent loader the run judges: `--nodeagent-loader CMD`; without it the embedded reference
   * loader (with `--nodeagent-fault`s) when the API target is embedded too or faults are named (a run
   * against a real cluster does not judge our own loader), else none (`description` null).
   */
  readonly nodeagent: { readonly settings?: NodeagentLoaderSettings; readonly description: string | null };
  readonly daemon: { readonly command?: string; readonly startTimeoutMs?: number };
  readonly budgets: {
    readonly timeoutMs: number;
    readonly parallel: number;
    /** Replays of each failure before it is reported; false: none (`--no-confirm`). */
    readonly confirm: number | false;
    readonly confirmTimeMs?: number;
    readonly backgroundWrites: boolean;
  };
  /** Ask the target what the run's identity may do before the checks (harness/transport/preflight.ts). */
  readonly preflight: boolean;
  /** `--namespace`: the run works in these existing namespaces and creates none (docs/partial-targets.md). */
  readonly namespaces?: readonly string[];
  /** Probe what the target serves before the checks, and leave out the checks that need what it lacks (runner/capability-gate.ts). */
  readonly capabilityProbe?: boolean;
  /** A case goes on past a failure the expectations file excuses (`--continue-past-failures`); otherwise it ends there and the check goes on with its next case. */
  readonly continuePastFailures?: boolean;
  /** `--reproduce N`: replay the one counterexample N times after the run. */
  readonly reproduce?: { readonly times: number; readonly check: string; readonly path: string };
  readonly expectations: { readonly files: readonly string[]; readonly capabilities: Readonly<Partial<Record<string, boolean>>> };
  readonly reports: { readonly dir: string; readonly baseline?: string; readonly output: 'text' | 'json' };
  /** External targets: what removes the run's objects after this process is gone (`svc-conformance cleanup`). */
  readonly cleanupCommand?: string;
  /** What a person types to run exactly this again (target options included, secrets never). */
  readonly replayCommand: string;
  /** The same without `--background-writes`: confirmation adds it for its replays beside writes. */
  readonly replayCommandAlone: string;
  /** Never set by planRun: what a run in this process supplies instead (the self-tests, scripts/dev/). */
  readonly inProcess?: InProcessOverrides;
}

/**
 * What the self-tests' in-process runs give the executor instead of what the plan would start; the
 * command line never sets it.
 */
export interface InProcessOverrides {
  /** What the embedded target's TargetConfig calls its source. */
  readonly source?: string;
  /** Failures come back as the checks left them, neither replayed nor labelled. */
  readonly keepFailures?: boolean;
  /**
   * The daemon under test started in this process with its own waits, or 'none': the daemon checks find no daemon.
   * `startLauncher`: the starts with flags go there instead (ControllerDaemonTarget.startLauncher).
   */
  readonly daemon?:
    | 'none'
    | {
        readonly launcher: DaemonLauncher;
        readonly startLauncher?: (profile: ProfileName) => DaemonLauncher;
        readonly startTimeoutMs: number;
        readonly settleMs: number;
        readonly leaseTimeoutMs: number;
      };
  /** The node-agent loader judged, made by the caller (a loader with variations, or a test's own); its maker closes it. */
  readonly nodeagentLoader?: NodeagentLoaderTarget;
  /** The embedded server's variation decision points, as it passes them (the self-tests' variation reach). */
  readonly onVariationPoint?: (v: VariationName) => void;
  /**
   * The checks' requests pass through this before the target's client: a self-test's stand-in for a
   * target that answers some requests itself (a 503, a 404 for a kind it lacks), or a recorder of them.
   */
  readonly checksTarget?: (t: Target) => Target;
  /** The failures the expectations list as known, as the command line's edge tells a run once the target answered (used without an edge). */
  readonly known?: (r: CheckRecord) => boolean;
}

export type PlanResult =
  | { readonly plan: RunPlan; readonly errors?: undefined }
  | { readonly plan?: undefined; readonly errors: readonly string[] };

/** The embedded target's windows are short so time-bound clauses (rest:4.4.4, rest:6.1.3) are checked in seconds. */
export const EMBEDDED_CONTINUE_TTL_MS = 1500;
export const EMBEDDED_HISTORY_WINDOW_MS = 3000;
export const EMBEDDED_EVENTUAL_WINDOW_MS = 5_000;
export const EMBEDDED_WATCH_WAIT_MS = 1_500;

export const isExternal = (o: Pick<RunOptions, 'kubeconfig' | 'context' | 'server' | 'inCluster'>): boolean =>
  Boolean(o.kubeconfig || o.context || o.server || o.inCluster);

export function planRun(o: RunOptions, drawn: { readonly seed: number; readonly runId: string; readonly cwd: string }): PlanResult {
  const errors: string[] = [];
  const external = isExternal(o);
  optionErrors(o, external, errors);
  const faults = unknownNames('fault', o.fault ?? [], faultTable, errors);
  const variations = unknownNames('variation', o.variation ?? [], variationTable, errors);
  const without = unknownNames('--without feature', o.without ?? [], partialModes, errors);
  const hooks: Hooks = {};
  for (const a of external ? (o.hook ?? []) : []) {
    const parsed = parseHookArg(a);
    if (parsed === undefined) errors.push(`--hook ${a}: expected restart=CMD or compact=CMD`);
    else hooks[parsed[0]] = parsed[1];
  }
  // --focus/--skip narrow what --suite and --check chose; a bad pattern or an empty selection is a configuration error.
  let chosen = registry.filter((c) => (!o.suite?.length || o.suite.includes(c.suite)) && (!o.check?.length || o.check.includes(c.id)));
  // Only once the named suites and checks exist: an unknown one is the mistake to report, not the empty selection it makes.
  if (errors.length === 0)
    try {
      chosen = selectChecks(chosen, selectionOf(o));
      requireSome(chosen, o);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      errors.push(e.message);
    }
  if (errors.length > 0) return { errors };

  const seed = o.seed ?? drawn.seed;
  const profile = profileByName(o.profile)!;
  const { target, settings } = targetOf(o, external, { faults, variations, without, hooks });
  const selected = o.shard === undefined ? chosen : shardOf(chosen, o.shard.index, o.shard.count);
  return {
    plan: {
      profile,
      seed,
      runId: drawn.runId,
      runs: o.runs,
      path: o.path,
      target,
      settings,
      selection: { chosen, selected, shard: o.shard },
      nodeagent: nodeagentOf(o.nodeagentLoader, o.nodeagentFault ?? [], external),
      daemon: { command: o.controllerDaemon, startTimeoutMs: o.daemonStartTimeout },
      budgets: {
        timeoutMs: o.timeout,
        parallel: o.parallel ?? DEFAULT_PARALLEL,
        confirm: o.confirm,
        confirmTimeMs: o.confirmTime,
        backgroundWrites: Boolean(o.backgroundWrites),
      },
      preflight: o.preflight !== false,
      ...(o.namespace !== undefined && o.namespace.length > 0 ? { namespaces: o.namespace } : {}),
      ...(o.capabilityProbe === false ? { capabilityProbe: false } : {}),
      ...(o.continuePastFailures === true ? { continuePastFailures: true } : {}),
      ...(o.reproduce !== undefined ? { reproduce: { times: o.reproduce, check: o.check![0]!, path: o.path! } } : {}),
      expectations: { files: o.expectations ?? [], capabilities: o.targetCapability ?? {} },
      reports: { dir: path.resolve(drawn.cwd, o.reports), baseline: o.baseline, output: o.output },
      ...(target.kind === 'external' ? { cleanupCommand: cleanupCommandLine(target, drawn.runId, drawn.cwd) } : {}),
      replayCommand: replayCommand(o),
      replayCommandAlone: replayCommand({ ...o, backgroundWrites: undefined }),
    },
  };
}

function nodeagentOf(loader: string | undefined, faults: readonly string[], external: boolean): RunPlan['nodeagent'] {
  if (loader !== undefined) return { settings: { command: loader }, description: loader };
  if (external && faults.length === 0) return { description: null };
  return { settings: { faults: [...faults] }, description: embeddedLoaderDescription(faults) };
}

/** The mistakes among the options that need no file and no target: each a line of its own. */
function optionErrors(o: RunOptions, external: boolean, errors: string[]): void {
  if (o.path !== undefined && (o.seed === undefined || !o.check?.length))
    errors.push('--path replays one counterexample: give it with the --seed and --check it was printed with');
  if (o.reproduce !== undefined && (o.path === undefined || o.check?.length !== 1))
    errors.push('--reproduce N replays one counterexample: give it with the --seed, --check and --path it was printed with');
  for (const s of o.suite ?? [])
    if (!suiteNames.includes(s)) errors.push(`unknown suite ${s}${didYouMean(s, suiteNames)} (known: ${suiteNames.join(', ')})`);
  for (const c of o.check ?? [])
    if (!registry.some((k) => k.id === c))
      errors.push(
        `unknown check ${c}${didYouMean(
          c,
          registry.map((k) => k.id),
        )} (see \`svc-conformance list-checks\`)`,
      );
  if (o.certificateAuthority !== undefined && o.server === undefined)
    errors.push('--certificate-authority applies to --server; a kubeconfig names its own (certificate-authority of its cluster)');
  if (o.certificateAuthority !== undefined && o.insecureSkipTlsVerify)
    errors.push('--certificate-authority and --insecure-skip-tls-verify contradict each other: give one');
  if (external && ((o.fault?.length ?? 0) > 0 || (o.variation?.length ?? 0) > 0))
    errors.push('--fault and --variation apply to the embedded reference server only');
  if (external && (o.without?.length ?? 0) > 0) errors.push('--without applies to the embedded reference server only');
  if (external && o.runtimeConfig !== undefined) errors.push('--runtime-config applies to the embedded reference server only');
  if (!external && (o.hook?.length ?? 0) > 0)
    errors.push('--hook applies to an external target; the embedded server has its own restart and compaction hooks');
  if (!external && o.restrictedKubeconfig !== undefined)
    errors.push("--restricted-kubeconfig applies to an external target; the embedded server's checks impersonate a user of their own");
  for (const f of o.nodeagentFault ?? [])
    if (!nodeagentFaultNames.has(f))
      errors.push(
        `unknown node-agent fault ${f}${didYouMean(
          f,
          nodeagentFaults.map((x) => x.name),
        )} (known: ${nodeagentFaults.map((x) => x.name).join(', ')})`,
      );
  if (o.nodeagentLoader !== undefined && (o.nodeagentFault?.length ?? 0) > 0)
    errors.push('--nodeagent-fault applies to the embedded node-agent loader only');
  if (o.nodeagentLoader !== undefined && o.nodeagentLoader.trim() === '') errors.push('--nodeagent-loader needs a command');
  if (o.controllerDaemon !== undefined && splitCommand(o.controllerDaemon).length === 0) errors.push('--controller-daemon needs a command');
  for (const n of o.namespace ?? [])
    if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(n))
      errors.push(`--namespace ${n}: not a namespace name (lowercase letters, digits and '-', at most 63)`);
  if (new Set(o.namespace ?? []).size !== (o.namespace ?? []).length) errors.push('--namespace: a namespace is named twice');
  if ((o.namespace?.length ?? 0) > 0 && o.backgroundWrites)
    errors.push('--background-writes writes in a namespace of its own, which the run does not create with --namespace');
}

/** The target the plan names and the settings its windows and budgets come to. */
function targetOf(
  o: RunOptions,
  external: boolean,
  embedded: { faults: FaultName[]; variations: VariationName[]; without: PartialModeName[]; hooks: Hooks },
): { target: RunPlan['target']; settings: TargetSettings } {
  const { faults, variations, without, hooks } = embedded;
  let settings: TargetSettings;
  let target: RunPlan['target'];
  if (external) {
    target = {
      kind: 'external',
      ...(o.kubeconfig ? { kubeconfig: o.kubeconfig } : {}),
      ...(o.context ? { context: o.context } : {}),
      ...(o.server ? { server: o.server } : {}),
      ...(o.tokenFile ? { tokenFile: o.tokenFile } : {}),
      ...(o.certificateAuthority !== undefined ? { certificateAuthority: o.certificateAuthority } : {}),
      ...(o.inCluster ? { inCluster: true } : {}),
      ...(o.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
      ...(o.restrictedKubeconfig !== undefined ? { restrictedKubeconfig: o.restrictedKubeconfig } : {}),
      hooks,
    };
    settings = {
      ...defaultTargetSettings,
      slow: Boolean(o.slow),
      ...(o.continueTtl !== undefined ? { continueTtlMs: o.continueTtl } : {}),
      ...(o.historyWindow !== undefined ? { historyWindowMs: o.historyWindow } : {}),
      ...(o.eventualWindow !== undefined ? { eventualWindowMs: o.eventualWindow } : {}),
      ...(o.release !== undefined ? { release: o.release } : {}),
      ...(Object.keys(hooks).length > 0 ? { hooks } : {}),
    };
  } else {
    // Under --scale a chain of hundreds of pages must finish within both windows: they are as long
    // as a run still waits out without --slow.
    const continueTtlMs = o.continueTtl ?? (o.scale ? SCALE_WINDOW_MS : EMBEDDED_CONTINUE_TTL_MS);
    const historyWindowMs = o.historyWindow ?? (o.scale ? SCALE_WINDOW_MS : EMBEDDED_HISTORY_WINDOW_MS);
    target = {
      kind: 'embedded',
      faults,
      variations,
      ...(without.length > 0 ? { without } : {}),
      continueTtlMs,
      historyWindowMs,
      ...(o.release !== undefined ? { release: o.release } : {}),
      ...(o.runtimeConfig !== undefined ? { runtimeConfig: o.runtimeConfig } : {}),
      ...(o.namespace !== undefined && o.namespace.length > 0 ? { namespaces: o.namespace } : {}),
    };
    settings = {
      ...defaultTargetSettings,
      slow: Boolean(o.slow),
      continueTtlMs,
      historyWindowMs,
      eventualWindowMs: o.eventualWindow ?? EMBEDDED_EVENTUAL_WINDOW_MS,
      watchWaitMs: EMBEDDED_WATCH_WAIT_MS,
    };
  }
  if (o.shrinkTime !== undefined) settings = { ...settings, shrinkTimeMs: o.shrinkTime };
  if (o.scale !== undefined) settings = { ...settings, scale: o.scale };
  if (o.writers !== undefined || o.opsPerWriter !== undefined) {
    settings = {
      ...settings,
      workload: {
        ...(o.writers !== undefined ? { writers: o.writers } : {}),
        ...(o.opsPerWriter !== undefined ? { opsPerWriter: o.opsPerWriter } : {}),
      },
    };
  }
  return { target, settings };
}

function unknownNames<T extends string>(what: string, names: readonly string[], table: readonly { name: T }[], errors: string[]): T[] {
  const known = new Set<string>(table.map((t) => t.name));
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) errors.push(`unknown ${what} ${bad.join(', ')}${didYouMean(bad[0]!, known)} (see \`svc-conformance list-faults\`)`);
  return names as T[];
}
