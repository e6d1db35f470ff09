/**
 * The coverage table of the README, from a summary.json: per area, the clauses with a
 * verdict, the informative ones (no black-box test can judge them; each with its reason in the
 * report) and the ones not checked, then every clause not checked with the reason the report gives.
 * Pure: summary in, Markdown out.
 *
 *   | area | clauses | verdict | informative | not checked |
 *   | rest:4.4 paging | 7 | 7 | 0 | 0 |
 */
import type { SummaryJson } from './summary-json.ts';

const hasVerdict = (s: string) => s !== 'informative' && s !== 'notChecked';

export function coverageTable(summary: Pick<SummaryJson, 'clauses' | 'coverage'>): string[] {
  const areas = summary.coverage?.areas ?? {};
  const rows = Object.entries(areas).map(([name, a]) => `| ${name} | ${a.clauses} | ${a.verdicts} | ${a.informative} | ${a.notChecked} |`);
  const all = summary.clauses;
  const verdicts = all.filter((c) => hasVerdict(c.status)).length;
  const informative = all.filter((c) => c.status === 'informative').length;
  const gaps = all.filter((c) => c.status === 'notChecked');
  const pct = (n: number) => (all.length === 0 ? '0' : ((100 * n) / all.length).toFixed(1));
  return [
    '| area | clauses | verdict | informative | not checked |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    `| **all** | ${all.length} | ${verdicts} | ${informative} | ${gaps.length} |`,
    '',
    `${verdicts + informative} of ${all.length} clauses (${pct(verdicts + informative)} %) have a verdict or are informative with a reason; ${gaps.length} are not checked:`,
    '',
    ...gaps.map((c) => `- \`${c.id}\`: ${c.notes[0] ?? 'not checked'}`),
  ];
}
