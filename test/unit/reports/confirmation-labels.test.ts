// Why: every failure carries its confirmation label wherever a person reads it: the terminal,
// summary.md and the HTML page show the first counterexample's label and count the others'.
import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { toMarkdownSummary } from '../../../reports/markdown.ts';
import { toTerminalSummary } from '../../../reports/text.ts';
import { toHtml } from '../../../reports/html.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { catalog, cx, familyOf, rec } from './fixtures.ts';

const run = buildRunResult({
  records: [
    rec('rest:4.4.3', 'fail', {
      counterexample: cx({
        confirmation: { label: 'needs concurrent writes', runs: 2, reproduced: 0, withWrites: { runs: 2, reproduced: 2 } },
      }),
    }),
    rec('rest:4.4.3', 'fail', {
      check: 'other',
      counterexample: cx({ check: 'other', confirmation: { label: 'reproduces alone', runs: 2, reproduced: 2 } }),
    }),
    rec('rest:4.4.3', 'fail', {
      check: 'third',
      counterexample: cx({ check: 'third', confirmation: { label: 'not confirmed (time)', runs: 1, reproduced: 1 } }),
    }),
  ],
  catalog,
  profile: 'svc',
  seed: 42,
  server: 'http://127.0.0.1:1',
  nodeagentLoader: null,
  startedAt: '2026-01-01T00:00:00Z',
  durationMs: 1,
  version: '0',
  errors: [],
});

describe('confirmation labels in the reports', () => {
  it('the terminal shows the label and counts the others', () => {
    const text = toTerminalSummary(run, familyOf, { color: false, reportsDir: 'results' });
    expect(text).toContain('replayed: needs concurrent writes (0/2 replays alone, 2/2 beside background writes failed again)');
    expect(text).toContain('+2 more counterexample(s) in the HTML report: 1 not confirmed (time), 1 reproduces alone');
  });

  it('summary.md, the HTML page and summary.json carry every label', () => {
    const md = toMarkdownSummary(run);
    expect(md).toContain('needs concurrent writes (0/2 replays alone, 2/2 beside background writes failed again)');
    expect(md).toContain('(+2 more: 1 not confirmed (time), 1 reproduces alone)');
    const page = toHtml(run, familyOf);
    for (const l of ['needs concurrent writes (0/2', 'reproduces alone (2/2', 'not confirmed (time) (1/1']) expect(page).toContain(l);
    const labels = toSummary(run, { catalog, familyOf }).clauses.flatMap((c) => c.counterexamples.map((x) => x.confirmation?.label));
    expect(labels).toEqual(['needs concurrent writes', 'reproduces alone', 'not confirmed (time)']);
  });
});
