/**
 * `svc-conformance matrix`: several runs' summary.json side by side, clauses as rows and
 * implementations as columns, the rows where they differ first (the wpt.fyi / test262.fyi shape).
 * Pure: runs in, matrix data and its Markdown out; matrix-html.ts renders the page.
 */
import { familyOf } from '../reference/catalog/index.ts';

export interface MatrixRunInput {
  /** The folder the summary came from, relative to where the matrix is written (for links). */
  readonly dir: string;
  readonly label: string;
  readonly summary: {
    readonly version?: unknown;
    readonly profile?: unknown;
    readonly seed?: unknown;
    readonly verdict?: unknown;
    readonly target?: { readonly server?: unknown; readonly label?: unknown; readonly description?: unknown };
    readonly clauses?: readonly {
      readonly id?: unknown;
      readonly status?: unknown;
      readonly expectedFailure?: unknown;
      readonly summary?: unknown;
      readonly counterexamples?: readonly unknown[];
      readonly notes?: readonly unknown[];
    }[];
  };
}

export interface MatrixColumn {
  readonly label: string;
  readonly dir: string;
  readonly server: string | null;
  /** What the run tested, as it named it ("embedded reference server", a URL with its kubeconfig); absent in older summaries. */
  readonly target: string | null;
  readonly profile: string;
  readonly version: string;
  readonly seed: number | null;
  readonly verdict: string;
}

export interface MatrixCell {
  readonly status: string;
  readonly counterexamples: number;
  /** The run's HTML report at this clause (its counterexample when it failed), relative to the matrix. */
  readonly href: string;
}

export interface MatrixRow {
  readonly id: string;
  readonly area: string;
  readonly summary: string;
  readonly differs: boolean;
  readonly cells: readonly MatrixCell[];
}

export interface Matrix {
  readonly tool: 'svc-conformance';
  readonly kind: 'matrix';
  readonly columns: readonly MatrixColumn[];
  /** Set when the runs are not alike in what they ran: their results differ for more than the target. */
  readonly marks: { readonly seedsDiffer: boolean; readonly versionsDiffer: boolean; readonly profilesDiffer: boolean };
  readonly totals: { readonly rows: number; readonly differing: number };
  readonly rows: readonly MatrixRow[];
}

const ABSENT = 'absent';

export function anchorOf(id: string): string {
  return `clause-${id.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

export function buildMatrix(runs: readonly MatrixRunInput[]): Matrix {
  const columns: MatrixColumn[] = runs.map((r) => ({
    label: r.label,
    dir: r.dir,
    server: typeof r.summary.target?.server === 'string' ? r.summary.target.server : null,
    target: typeof r.summary.target?.description === 'string' ? r.summary.target.description : null,
    profile: typeof r.summary.profile === 'string' ? r.summary.profile : '?',
    version: typeof r.summary.version === 'string' ? r.summary.version : '?',
    seed: typeof r.summary.seed === 'number' ? r.summary.seed : null,
    verdict: typeof r.summary.verdict === 'string' ? r.summary.verdict : '?',
  }));
  const byRun = runs.map((r) => new Map((r.summary.clauses ?? []).filter((c) => typeof c.id === 'string').map((c) => [c.id as string, c])));
  const ids = [...new Set(byRun.flatMap((m) => [...m.keys()]))].sort();
  const rows: MatrixRow[] = ids.map((id) => {
    const cells = byRun.map((m, i) => {
      const c = m.get(id);
      const failed = (c?.counterexamples?.length ?? 0) > 0;
      const dir = runs[i]!.dir.replace(/\/$/, '');
      return {
        status: cellStatus(c),
        counterexamples: c?.counterexamples?.length ?? 0,
        href: `${dir}/index.html#${failed ? '' : 'row-'}${anchorOf(id)}`,
      };
    });
    const summary = byRun.map((m) => m.get(id)?.summary).find((s): s is string => typeof s === 'string') ?? '';
    return { id, area: areaOf(id), summary, differs: new Set(cells.map((c) => c.status)).size > 1, cells };
  });
  // Differing rows first, and among them those where some run failed or errored: the likeliest bugs.
  const rank = (r: MatrixRow): number => (!r.differs ? 2 : r.cells.some((c) => c.status === 'failed' || c.status === 'error') ? 0 : 1);
  rows.sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id, 'en', { numeric: true }));
  const distinct = <T>(xs: readonly T[]) => new Set(xs).size > 1;
  return {
    tool: 'svc-conformance',
    kind: 'matrix',
    columns,
    marks: {
      seedsDiffer: distinct(columns.map((c) => c.seed)),
      versionsDiffer: distinct(columns.map((c) => c.version)),
      profilesDiffer: distinct(columns.map((c) => c.profile)),
    },
    totals: { rows: rows.length, differing: rows.filter((r) => r.differs).length },
    rows,
  };
}

/** A failure the run's expectations file excused is `known`, never shown as failed. */
function cellStatus(c: { readonly status?: unknown; readonly expectedFailure?: unknown } | undefined): string {
  if (typeof c?.status !== 'string') return ABSENT;
  return c.status === 'failed' && c.expectedFailure === true ? 'known' : c.status;
}

function areaOf(id: string): string {
  try {
    return familyOf(id);
  } catch {
    return id.split('/')[0] ?? id;
  }
}

export function toMatrixJson(m: Matrix): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function marksLine(m: Matrix): string | undefined {
  const parts = [
    m.marks.seedsDiffer ? `seeds differ (${m.columns.map((c) => c.seed ?? '?').join(', ')}): the runs generated different cases` : '',
    m.marks.versionsDiffer ? `suite versions differ (${m.columns.map((c) => c.version).join(', ')})` : '',
    m.marks.profilesDiffer ? `profiles differ (${m.columns.map((c) => c.profile).join(', ')})` : '',
  ].filter(Boolean);
  return parts.length ? `Not alike: ${parts.join('; ')}.` : undefined;
}

export function toMatrixMarkdown(m: Matrix): string {
  const marks = marksLine(m);
  const lines = [
    '# svc-conformance matrix',
    '',
    `${m.columns.length} runs, ${m.totals.rows} clauses, ${m.totals.differing} where the runs differ (listed first).`,
    ...(marks ? ['', `**${marks}**`] : []),
    '',
    '| run | target | profile | suite version | seed | verdict |',
    '|---|---|---|---|---:|---|',
    ...m.columns.map(
      (c) => `| ${md(c.label)} | ${md(c.target ?? c.server ?? '')} | ${c.profile} | ${c.version} | ${c.seed ?? ''} | ${c.verdict} |`,
    ),
    '',
    `| clause | area | ${m.columns.map((c) => md(c.label)).join(' | ')} |`,
    `|---|---|${m.columns.map(() => '---').join('|')}|`,
    ...m.rows.map(
      (r) =>
        `| ${r.differs ? '**' : ''}${r.id}${r.differs ? '**' : ''} | ${md(r.area)} | ${r.cells.map((c) => (c.counterexamples > 0 ? `[${c.status}](${c.href})` : c.status)).join(' | ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
