/**
 * The plan of `svc-conformance compare` (scripts/compare-cli.ts), as runner/plan.ts is the plan of `run`:
 * a pure function of its options that finds every option mistake before a server starts or a file is
 * read, in the order the command reports them (one line, exit 2, the first of them). What needs a file
 * or an answer (a kubeconfig, the profile a server's groups speak) is found when the sides come up.
 *
 *   planCompare({ target: { profile: 'svc', fault: ['nope'] }, reference: { profile: 'svc' }, runs: 8 })
 *     -> { errors: ['--fault: unknown nope; known: ...'] }
 */
import { didYouMean } from '../harness/case/index.ts';
import type { ProfileName } from '../reference/profile.ts';
import { checks } from '../suites/checks/index.ts';
import { faults as faultTable, variations as variationTable, type FaultName, type VariationName } from '../targets/api-server/index.ts';

/** The suites compare covers: stateful REST behaviour that two live servers can answer in lockstep. */
export const COMPARE_SUITES = ['rest-crud', 'rest-paging', 'rest-watch', 'rest-apply', 'rest-dry-run'] as const;
/**
 * Checks of those suites left out by default, and why (each still runs when named with --check):
 * they judge things two servers cannot be held in lockstep on.
 */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  'watch-bookmarks': 'BOOKMARK events come on a timer of each server: nothing to pair',
  'watch-too-old': "waits out each server's history window, which the two need not share",
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

export interface ComparePlan {
  /** The checks compared, in the order run. */
  readonly selected: readonly string[];
  /** Each side's planted faults and variations (empty for an external side). */
  readonly sides: readonly [SidePlan, SidePlan];
}

export interface SidePlan {
  readonly external: boolean;
  readonly faults: readonly FaultName[];
  readonly variations: readonly VariationName[];
}

export const isExternalSide = (s: SideOptions): boolean => Boolean(s.kubeconfig || s.context || s.server);

export function planCompare(
  o: CompareSelection & { readonly target: SideOptions; readonly reference: SideOptions },
): { plan: ComparePlan; errors?: undefined } | { plan?: undefined; errors: string[] } {
  const errors: string[] = [];
  if (o.path !== undefined && (o.seed === undefined || o.check?.length !== 1)) errors.push('--path replays one case: give it with the --seed and the one --check it was printed with');
  if (o.path !== undefined && !/^\d+$/.test(o.path)) errors.push(`--path ${o.path}: compare's paths are case numbers (0, 1, ...), as its reports print them`);
  const ids = checks.map((k) => k.id);
  for (const c of o.check ?? []) if (!ids.includes(c)) errors.push(`unknown check ${c}${didYouMean(c, ids)} (see \`svc-conformance list-checks\`)`);
  const suites = [...new Set(checks.map((k) => k.suite))];
  for (const s of o.suite ?? []) if (!suites.includes(s)) errors.push(`unknown suite ${s}${didYouMean(s, suites)}`);
  const target = sidePlan(o.target, '--', errors);
  const reference = sidePlan(o.reference, '--reference-', errors);
  if (errors.length > 0) return { errors };
  const selected = o.check?.length ? o.check : o.suite?.length ? checks.filter((c) => o.suite!.includes(c.suite) && LEFT_OUT[c.id] === undefined).map((c) => c.id) : defaultCompareChecks();
  return { plan: { selected, sides: [target, reference] } };
}

function sidePlan(s: SideOptions, flag: string, errors: string[]): SidePlan {
  const external = isExternalSide(s);
  if (external && ((s.fault?.length ?? 0) > 0 || (s.variation?.length ?? 0) > 0)) errors.push(`${flag}fault and ${flag}variation apply to an embedded server only`);
  return { external, faults: knownNames(`${flag}fault`, s.fault ?? [], faultTable, errors), variations: knownNames(`${flag}variation`, s.variation ?? [], variationTable, errors) };
}

function knownNames<T extends string>(what: string, names: readonly string[], table: readonly { name: T }[], errors: string[]): T[] {
  const known = new Set<string>(table.map((t) => t.name));
  const bad = names.filter((n) => !known.has(n));
  if (bad.length > 0) errors.push(`${what}: unknown ${bad.join(', ')}; known: ${[...known].join(', ')}`);
  return names as T[];
}
