/**
 * The plan of `svc-conformance compare` (scripts/compare-cli.ts), as runner/plan.ts is the plan of `run`:
 * a pure function of its options (the seed drawn and the two run ids are parameters) that finds every
 * option mistake before a server starts or a file is read, in the order the command reports them (one
 * line, exit 2, the first of them). Each side is a target as a run plan describes one, brought up by the
 * run's bring-up phase; what needs a file or an answer (a kubeconfig, the profile a server's groups
 * speak) is found then. The executor runs it (runner/executor.ts, `executeCompare`).
 *
 *   planCompare({ target: { profile: 'svc', fault: ['nope'] }, reference: { profile: 'svc' }, runs: 8, ... }, drawn)
 *     -> { errors: ['--fault: unknown nope; known: ...'] }
 */
import type { TargetSettings } from '../harness/case/index.ts';
import { didYouMean } from '../harness/case/index.ts';
import { profiles, type Profile, type ProfileName } from '../reference/profile.ts';
import { checks } from '../suites/checks/index.ts';
import { faults as faultTable, variations as variationTable, type FaultName, type VariationName } from '../targets/api-server/index.ts';
import { defaultTargetSettings } from './env.ts';
import type { EmbeddedTargetPlan, ExternalTargetPlan } from './plan.ts';

/** The suites compare covers: stateful REST behaviour that two live servers can answer in lockstep. */
export const COMPARE_SUITES = ['rest-crud', 'rest-paging', 'rest-watch', 'rest-apply', 'rest-dry-run'] as const;
/**
 * Checks of those suites left out by default, and why (each still runs when named with --check):
 * they judge things two servers cannot be held in lockstep on.
 */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  'watch-bookmarks': 'BOOKMARK events come on a timer of each server: nothing to pair',
  'watch-too-old': "waits out each server's history window, which the two need not share",
  'watch-too-old-found':
    "finds a version older than each server's own history, whose bound (and the 410's message) depends on when each compacted",
  'dry-run-admission': 'needs an admission webhook each server can call',
  'apply-schema-change': 'replaces a cluster-wide CRD schema: minutes against a real server',
};

export function defaultCompareChecks(): string[] {
  return checks.filter((c) => (COMPARE_SUITES as readonly string[]).includes(c.suite) && LEFT_OUT[c.id] === undefined).map((c) => c.id);
}

export interface SideOptions {
  kubeconfig?: string;
  context?: string;
  server?: string;
  tokenFile?: string;
  insecureSkipTlsVerify?: boolean;
  profile: ProfileName;
  fault?: string[];
  variation?: string[];
  label?: string;
}

export interface CompareSelection {
  seed?: number;
  check?: string[];
  suite?: string[];
  path?: string;
}

/** The parsed options of `compare` (scripts/compare-cli.ts declares the flags). */
export interface CompareOptions extends CompareSelection {
  target: SideOptions;
  reference: SideOptions;
  runs: number;
  /** Where compare.json, compare.md and compare.html go, as given. */
  reports: string;
  strict: boolean;
  /** The words that select the two servers, for replay commands (never a secret: file paths only). */
  replayBase?: string;
}

export interface ComparePlan {
  /** The checks compared, in the order run. */
  readonly selected: readonly string[];
  /** The target under test, then the reference. */
  readonly sides: readonly [SidePlan, SidePlan];
  readonly seed: number;
  readonly runs: number;
  readonly path?: string;
  readonly strict: boolean;
  /** The judges' windows, the same on both sides. */
  readonly settings: TargetSettings;
  readonly reports: string;
  /** What a replay command starts with: the command and the words that select the two servers. */
  readonly replayBase: string;
}

export interface SidePlan {
  readonly which: 'target' | 'reference';
  /** How this side's options are spelled, for one-line errors: `--profile` or `--reference-profile`. */
  readonly flag: '--' | '--reference-';
  readonly external: boolean;
  readonly faults: readonly FaultName[];
  readonly variations: readonly VariationName[];
  /** The server as a run plan describes it, for the bring-up phase. */
  readonly target: EmbeddedTargetPlan | ExternalTargetPlan;
  readonly profile: Profile;
  readonly runId: string;
  /** Its name in the reports; an external side without `--label` is named once it answered. */
  readonly label?: string;
}

export const isExternalSide = (s: SideOptions): boolean => Boolean(s.kubeconfig || s.context || s.server);

export function planCompare(
  o: CompareOptions,
  drawn: { readonly seed: number; readonly runIds: readonly [string, string] },
): { plan: ComparePlan; errors?: undefined } | { plan?: undefined; errors: string[] } {
  const errors: string[] = [];
  if (o.path !== undefined && (o.seed === undefined || o.check?.length !== 1))
    errors.push('--path replays one case: give it with the --seed and the one --check it was printed with');
  if (o.path !== undefined && !/^\d+$/.test(o.path))
    errors.push(`--path ${o.path}: compare's paths are case numbers (0, 1, ...), as its reports print them`);
  const ids = checks.map((k) => k.id);
  for (const c of o.check ?? [])
    if (!ids.includes(c)) errors.push(`unknown check ${c}${didYouMean(c, ids)} (see \`svc-conformance list-checks\`)`);
  const suites = [...new Set(checks.map((k) => k.suite))];
  for (const s of o.suite ?? []) if (!suites.includes(s)) errors.push(`unknown suite ${s}${didYouMean(s, suites)}`);
  const settings = settingsFor(isExternalSide(o.target) || isExternalSide(o.reference));
  const target = sidePlan(o.target, 'target', drawn.runIds[0], settings, errors);
  const reference = sidePlan(o.reference, 'reference', drawn.runIds[1], settings, errors);
  if (errors.length > 0) return { errors };
  const selected = o.check?.length
    ? o.check
    : o.suite?.length
      ? checks.filter((c) => o.suite!.includes(c.suite) && LEFT_OUT[c.id] === undefined).map((c) => c.id)
      : defaultCompareChecks();
  return {
    plan: {
      selected,
      sides: [target, reference],
      seed: o.seed ?? drawn.seed,
      runs: o.runs,
      path: o.path,
      strict: o.strict,
      settings,
      reports: o.reports,
      replayBase: o.replayBase ?? 'npx svc-conformance compare',
    },
  };
}

/** Embedded servers get the windows an external server has when one is compared: the same for both. */
function settingsFor(anyExternal: boolean): TargetSettings {
  if (anyExternal) return { ...defaultTargetSettings, eventualWindowMs: 10_000 };
  return { ...defaultTargetSettings, continueTtlMs: 1500, historyWindowMs: 3000, eventualWindowMs: 5_000, watchWaitMs: 1_500 };
}

function sidePlan(s: SideOptions, which: SidePlan['which'], runId: string, settings: TargetSettings, errors: string[]): SidePlan {
  const flag = which === 'target' ? '--' : '--reference-';
  const external = isExternalSide(s);
  if (external && ((s.fault?.length ?? 0) > 0 || (s.variation?.length ?? 0) > 0))
    errors.push(`${flag}fault and ${flag}variation apply to an embedded server only`);
  const faults = knownNames(`${flag}fault`, s.fault ?? [], faultTable, errors);
  const variations = knownNames(`${flag}variation`, s.variation ?? [], variationTable, errors);
  const extra = [...faults.map((f) => `fault ${f}`), ...variations.map((v) => `variation ${v}`)];
  const label = s.label ?? (external ? undefined : `embedded reference server${extra.length ? ` (${extra.join(', ')})` : ''}`);
  return {
    which,
    flag,
    external,
    faults,
    variations,
    target: external
      ? externalTarget(s)
      : { kind: 'embedded', faults, variations, continueTtlMs: settings.continueTtlMs, historyWindowMs: settings.historyWindowMs },
    profile: profiles[s.profile],
    runId,
    label,
  };
}

function externalTarget(s: SideOptions): ExternalTargetPlan {
  return {
    kind: 'external',
    ...(s.kubeconfig ? { kubeconfig: s.kubeconfig } : {}),
    ...(s.context ? { context: s.context } : {}),
    ...(s.server ? { server: s.server } : {}),
    ...(s.tokenFile ? { tokenFile: s.tokenFile } : {}),
    ...(s.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    // compare replaces no schema and restarts nothing: its checks need no hooks.
    hooks: {},
  };
}

function knownNames<T extends string>(what: string, names: readonly string[], table: readonly { name: T }[], errors: string[]): T[] {
  const known = new Set<string>(table.map((t) => t.name));
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) errors.push(`${what}: unknown ${bad.join(', ')}; known: ${[...known].join(', ')}`);
  return names as T[];
}
