// Why: the failure page is what a target's developer reads first. It must carry the
// spec's words for the clause, the answer needed beside the answer got, every request with its answer,
// the replay command and links to both scripts, and stay safe against what a hostile target sends.
import { describe, expect, it } from 'vitest';
import { failurePage } from '../../../reports/failure-page.ts';
import type { ClauseResult, Counterexample } from '../../../runner/results.ts';

const cx = {
  check: 'paging-snapshot',
  clause: 'rest:4.4.6',
  expected: 'remainingItemCount 1',
  observed: 'page 1: remainingItemCount 2',
  steps: ['list configmaps ns0 limit=1'],
  curl: '#!/usr/bin/env bash\necho hi\n',
  requestCount: 3,
  seed: 1,
  replay: 'npx svc-conformance run --check paging-snapshot --seed 1 --path 0',
  needs: [
    {
      says: 'page 1: remainingItemCount absent or 1',
      test: { kind: 'value', at: { request: 1 }, path: ['metadata', 'remainingItemCount'], equals: 1 },
      observed: 'metadata.remainingItemCount 2',
      met: false,
    },
  ],
  answers: [
    { request: 0, call: 'POST /api/v1/namespaces', setup: true },
    {
      request: 1,
      call: 'GET /api/v1/namespaces/n/configmaps?limit=1',
      status: 200,
      resourceVersion: '6',
      continue: 't',
      remainingItemCount: 2,
      items: [{ namespace: 'n', name: 'alpha', resourceVersion: '5' }],
    },
    {
      request: 2,
      call: 'GET /api/v1/namespaces/n/configmaps?limit=1&continue=t',
      status: 200,
      resourceVersion: '6',
      items: [{ namespace: 'n', name: 'ctl', resourceVersion: '2', notCreatedBySuite: true }],
    },
  ],
} as unknown as Counterexample;
const clause = {
  id: 'rest:4.4.6',
  section: '4.4',
  summary: 'remainingItemCount',
  status: 'failed',
  checks: 1,
  counterexamples: [cx],
  notes: [],
} as unknown as ClauseResult;
const links = {
  report: '../index.html',
  script: '../counterexamples/rest_4.4.6-1.sh',
  nodeTest: '../counterexamples/rest_4.4.6-1.test.mjs',
};

describe('failurePage', () => {
  const page = failurePage(clause, cx, links);
  it("puts the spec's words, then the diff, before the requests", () => {
    const spec = page.indexOf('class="clause"');
    const diff = page.indexOf('class="diff"');
    const sent = page.indexOf('id="exchanges"');
    expect(spec).toBeGreaterThan(0);
    expect(page.slice(spec, diff)).toContain('is the number of further items');
    expect(diff).toBeGreaterThan(spec);
    expect(sent).toBeGreaterThan(diff);
    expect(page.slice(diff, sent)).toContain('page 1: remainingItemCount absent or 1');
    expect(page.slice(diff, sent)).toContain('metadata.remainingItemCount 2');
  });
  it('lists every request, items of every page, the foreign one named; the replay; both scripts', () => {
    expect(page).toContain('ctl@2 (not created by the suite)');
    expect(page).toContain('made before the case for it');
    expect(page).toContain(cx.replay);
    expect(page).toContain('href="../counterexamples/rest_4.4.6-1.sh"');
    expect(page).toContain('href="../counterexamples/rest_4.4.6-1.test.mjs"');
    expect(page).toContain('href="../index.html"');
  });
  it('is self-contained and escapes what the target sent', () => {
    expect(page).not.toMatch(/<script|<link|<img|src=|@import|url\(/i);
    const hostile = failurePage(
      clause,
      { ...cx, observed: '<script>alert(1)</script>', curl: '<img src=x onerror=alert(1)>' } as Counterexample,
      links,
    );
    expect(hostile).not.toMatch(/<script|<img/i);
    expect(hostile).toContain('&lt;script&gt;');
  });
});
