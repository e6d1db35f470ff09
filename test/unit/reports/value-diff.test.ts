// A counterexample's structured diff is data in summary.json and a table in the HTML
// page, one row per field path; hostile values stay escaped.
import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { toHtml } from '../../../reports/html.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { counterexampleText } from '../../../reports/counterexample-text.ts';
import { diffRows } from '../../../reports/value-diff.ts';
import { diffValues } from '../../../reference/value-diff.ts';
import { catalog, cx, familyOf, rec } from './fixtures.ts';

const expectedValue = { 'x/a': { resourceVersion: '12', labels: { app: 'web' } }, 'x/b': { resourceVersion: '11' } };
const observedValue = { 'x/a': { resourceVersion: '10', labels: { app: '<script>' } }, 'x/c': { resourceVersion: '13' } };
const diff = diffValues(expectedValue, observedValue);

function run() {
  return buildRunResult({
    records: [
      rec('rest:4.4.3', 'fail', { counterexample: cx({ expectedValue, observedValue, diff }) }),
      rec('rest:4.4.6', 'fail', { counterexample: cx({ clause: 'rest:4.4.6' }) }),
    ],
    catalog,
    profile: 'svc',
    seed: 1,
    server: null,
    nodeagentLoader: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1,
    version: '0.1.0',
    errors: [],
  });
}

describe('structured diffs in reports', () => {
  it('rows: removed, modified, added, with both sides as JSON', () => {
    expect(diffRows(diff)).toEqual([
      { mark: '-', kind: 'removed', path: '["x/b"]', expected: '{"resourceVersion":"11"}', observed: '' },
      { mark: '~', kind: 'modified', path: '["x/a"].resourceVersion', expected: '"12"', observed: '"10"' },
      { mark: '~', kind: 'modified', path: '["x/a"].labels.app', expected: '"web"', observed: '"<script>"' },
      { mark: '+', kind: 'added', path: '["x/c"]', expected: '', observed: '{"resourceVersion":"13"}' },
    ]);
  });

  it('summary.json carries the values and the diff as data', () => {
    const c = toSummary(run()).clauses.find((x) => x.id === 'rest:4.4.3')!;
    expect(c.counterexamples[0]).toMatchObject({ expectedValue, observedValue, diff });
    const other = toSummary(run()).clauses.find((x) => x.id === 'rest:4.4.6')!;
    expect(other.counterexamples[0]).not.toHaveProperty('diff');
  });

  it('the HTML counterexample shows a diff table (escaped), and none without a diff', () => {
    const page = toHtml(run(), familyOf);
    expect(page).toContain('<table class="diff">');
    expect(page).toContain('<tr class="d-modified"><td>~</td><td><code>[&quot;x/a&quot;].resourceVersion</code></td>');
    expect(page).toContain('&quot;&lt;script&gt;&quot;');
    expect(page).not.toContain('"<script>"');
    expect(page.match(/<table class="diff">/g)).toHaveLength(1);
  });

  it('the text counterexample lists one line per path', () => {
    expect(counterexampleText(cx({ diff }))).toContain(
      'difference:\n  - ["x/b"]: {"resourceVersion":"11"}\n  ~ ["x/a"].resourceVersion: "12" -> "10"',
    );
  });
});
