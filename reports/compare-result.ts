/**
 * The result of `svc-conformance compare` as data: classified steps in, compare.json and
 * the exit code out. compare.json is a public interface like summary.json; its schema is
 * reports/compare-schema.ts (docs/schemas/compare.schema.json).
 */
import { STEP_CLASSES, type StepClass, type StepResult } from '../harness/interpreters/index.ts';

export interface CompareSide {
  readonly server: string;
  readonly profile: string;
  readonly label: string;
}

export interface CompareCheck {
  readonly id: string;
  readonly suite: string;
  readonly cases: number;
  readonly steps: number;
  readonly notApplicable?: string;
}

export interface Divergence extends StepResult {
  /** Replays this case in lockstep; `run` with the same flags replays it against one server. */
  readonly replay: string;
}

export interface CompareResult {
  readonly tool: 'svc-conformance';
  readonly kind: 'compare';
  readonly version: string;
  readonly seed: number;
  readonly runs: number;
  readonly strict: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  /** `same`; `differs` (open choices only); `target-violates` (a step the target fails and the reference passes); `error` (nothing compared). */
  readonly verdict: 'same' | 'differs' | 'target-violates' | 'error';
  readonly target: CompareSide;
  readonly reference: CompareSide;
  readonly suites: readonly string[];
  readonly checks: readonly CompareCheck[];
  readonly totals: Readonly<Record<StepClass, number>> & { readonly notCompared: number };
  /** Open-choice divergences by kind (status-code, order, omitted-empty, timing, ...). */
  readonly kinds: Readonly<Record<string, number>>;
  /** Every step that is not `same`, most serious first. */
  readonly divergences: readonly Divergence[];
}

/** Most serious first: what fails the run, then what the reference gets wrong, then open choices. */
const SEVERITY: readonly StepClass[] = [
  'target-violates',
  'both-violate-differently',
  'reference-violates',
  'both-violate-alike',
  'differs-both-conformant',
  'error',
  'same',
];

export function buildCompareResult(o: {
  version: string;
  seed: number;
  runs: number;
  strict: boolean;
  startedAt: Date;
  durationMs: number;
  target: CompareSide;
  reference: CompareSide;
  suites: readonly string[];
  checks: readonly CompareCheck[];
  steps: readonly StepResult[];
  notCompared: number;
  replayOf: (s: StepResult) => string;
}): CompareResult {
  const totals = Object.fromEntries(STEP_CLASSES.map((c) => [c, 0])) as Record<StepClass, number>;
  const kinds: Record<string, number> = {};
  for (const s of o.steps) {
    totals[s.class]++;
    if (s.class === 'differs-both-conformant') for (const k of s.kinds) kinds[k] = (kinds[k] ?? 0) + 1;
  }
  const divergences = o.steps
    .filter((s) => s.class !== 'same')
    .map((s) => ({ ...s, replay: o.replayOf(s) }))
    .sort(
      (x, y) =>
        SEVERITY.indexOf(x.class) - SEVERITY.indexOf(y.class) ||
        x.check.localeCompare(y.check) ||
        Number(x.path) - Number(y.path) ||
        x.step - y.step,
    );
  const compared = STEP_CLASSES.filter((c) => c !== 'error').reduce((n, c) => n + totals[c], 0);
  const verdict: CompareResult['verdict'] =
    totals['target-violates'] > 0
      ? 'target-violates'
      : compared === 0
        ? 'error'
        : divergences.some((d) => d.class !== 'error')
          ? 'differs'
          : 'same';
  return {
    tool: 'svc-conformance',
    kind: 'compare',
    version: o.version,
    seed: o.seed,
    runs: o.runs,
    strict: o.strict,
    startedAt: o.startedAt.toISOString(),
    durationMs: o.durationMs,
    verdict,
    target: o.target,
    reference: o.reference,
    suites: [...o.suites],
    checks: [...o.checks],
    totals: { ...totals, notCompared: o.notCompared },
    kinds,
    divergences,
  };
}

/**
 * 1 when the target violates where the reference conforms (`--strict`: also any open choice taken
 * differently, or both violating differently); 3 when nothing could be compared; else 0.
 */
export function compareExitCode(r: CompareResult): 0 | 1 | 3 {
  if (r.totals['target-violates'] > 0) return 1;
  if (r.strict && (r.totals['differs-both-conformant'] > 0 || r.totals['both-violate-differently'] > 0)) return 1;
  if (r.verdict === 'error') return 3;
  return 0;
}

export function toCompareJson(r: CompareResult): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

const CLASS_TITLE: Record<StepClass, string> = {
  'target-violates': 'target violates (the reference conforms)',
  'both-violate-differently': 'both violate, different clauses',
  'reference-violates': 'reference violates (the target conforms)',
  'both-violate-alike': 'both violate alike',
  'differs-both-conformant': 'differs, both conformant (an open choice)',
  error: 'error (infrastructure or suite; no verdict)',
  same: 'same',
};
export const classTitle = (c: StepClass): string => CLASS_TITLE[c];
export const severityOrder = SEVERITY;

const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (v: unknown, n = 160): string => {
  const t = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

/** compare.md: the totals, then every divergence, most serious first, with its replay. */
export function toCompareMarkdown(r: CompareResult, o: { maxListed?: number } = {}): string {
  const max = o.maxListed ?? 200;
  const lines = [
    `# svc-conformance compare: ${r.verdict}`,
    '',
    `Target **${md(r.target.label)}** (${md(r.target.server)}, profile ${r.target.profile}) against reference **${md(r.reference.label)}** (${md(r.reference.server)}, profile ${r.reference.profile}); seed ${r.seed}, ${r.runs} cases per check${r.strict ? ', strict' : ''}. Suites: ${r.suites.join(', ')}.`,
    '',
    '| class | steps |',
    '|---|---:|',
    ...severityOrder.map((c) => `| ${classTitle(c)} | ${r.totals[c]} |`),
    `| not compared (after one side's case stopped) | ${r.totals.notCompared} |`,
    '',
  ];
  if (Object.keys(r.kinds).length > 0)
    lines.push(
      `Open choices taken differently, by kind: ${Object.entries(r.kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}.`,
      '',
    );
  lines.push('## Divergences', '');
  if (r.divergences.length === 0) lines.push('None: every compared step answered alike.', '');
  for (const d of r.divergences.slice(0, max)) {
    lines.push(
      `### ${classTitle(d.class)}: ${d.check} case ${d.path} step ${d.step}${d.clauses.length ? ` (${d.clauses.join(', ')})` : ''}`,
      '',
    );
    lines.push(`- request: \`${md(d.request)}\``);
    if (d.kinds.length) lines.push(`- kinds: ${d.kinds.join(', ')}`);
    for (const f of d.failures?.target ?? [])
      lines.push(`- target fails ${f.clause}: expected ${md(f.expected)}; observed ${md(f.observed)}`);
    for (const f of d.failures?.reference ?? [])
      lines.push(`- reference fails ${f.clause}: expected ${md(f.expected)}; observed ${md(f.observed)}`);
    if (d.note) lines.push(`- note: ${md(d.note)}`);
    if (d.target || d.reference)
      lines.push(
        `- answers: target ${d.target?.status ?? d.target?.transportError ?? '-'} / reference ${d.reference?.status ?? d.reference?.transportError ?? '-'}`,
      );
    for (const x of d.differences.slice(0, 8))
      lines.push(`  - \`${md(x.path)}\` ${x.kind}: target ${md(short(x.target))} / reference ${md(short(x.reference))}`);
    lines.push(`- replay: \`${d.replay}\``, '');
  }
  if (r.divergences.length > max) lines.push(`(${r.divergences.length - max} more in compare.json and compare.html)`, '');
  lines.push('## Checks', '', '| check | suite | cases | steps | note |', '|---|---|---:|---:|---|');
  for (const c of r.checks) lines.push(`| ${c.id} | ${c.suite} | ${c.cases} | ${c.steps} | ${md(c.notApplicable ?? '')} |`);
  return `${lines.join('\n')}\n`;
}
