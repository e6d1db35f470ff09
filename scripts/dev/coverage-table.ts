/**
 * `npm run coverage:table -- results/summary.json`: prints the coverage table of docs/coverage.md (reports/
 * coverage-table.ts) from a run's summary.json. A missing or unreadable file is one line, exit 2.
 */
import { readFileSync } from 'node:fs';
import { coverageTable } from '../../reports/coverage-table.ts';
import type { SummaryJson } from '../../reports/summary-json.ts';

const file = process.argv[2] ?? 'results/summary.json';
let summary: SummaryJson;
try {
  summary = JSON.parse(readFileSync(file, 'utf8')) as SummaryJson;
} catch (e) {
  process.stderr.write(`coverage:table: cannot read ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  process.exit(2);
}
if (summary.coverage === undefined || !Array.isArray(summary.clauses)) {
  process.stderr.write(`coverage:table: ${file} has no coverage block (written by an older version?)\n`);
  process.exit(2);
}
process.stdout.write(`${coverageTable(summary).join('\n')}\n`);
