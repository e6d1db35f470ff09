// The coverage table of docs/coverage.md: informative clauses counted apart from the gaps, and every
// gap listed with the reason its report gives.
import { describe, expect, it } from 'vitest';
import { coverageTable } from '../../../reports/coverage-table.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { catalog, familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';

describe('coverageTable', () => {
  it('counts verdicts, informative and not checked per area, and lists each gap with its reason', () => {
    const summary = toSummary(sampleRun(), { catalog, familyOf });
    const lines = coverageTable(summary);
    expect(lines).toContain('| node:1 overview | 1 | 0 | 1 | 0 |');
    expect(lines).toContain('| rest:4.4 paging | 3 | 3 | 0 | 0 |');
    expect(lines.some((l) => l.startsWith('| **all** |'))).toBe(true);
    const gapped = {
      ...summary,
      clauses: summary.clauses.map((c) => (c.id === 'rest:4.4.9' ? { ...c, status: 'notChecked' as const, notes: ['needs a hook'] } : c)),
    };
    expect(coverageTable(gapped)).toContain('- `rest:4.4.9`: needs a hook');
  });
});
