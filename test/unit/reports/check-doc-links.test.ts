// Every check a report names links to that check's page (what it sends, what it judges, how to read a
// failure), and the page is written beside the report: index.html's check rows and failure cards, the
// failure pages and summary.md all resolve on disk.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeReports } from '../../../reports/write.ts';
import type { RunResult } from '../../../runner/results.ts';
import { emptyFootprint } from '../../../harness/case/footprint.ts';
import { familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';

/** The sample run, its failure found by a registered check, with a footprint naming two checks. */
function runNamingChecks(): RunResult {
  const run = sampleRun();
  const clauses = run.clauses.map((c) => ({ ...c, counterexamples: c.counterexamples.map((cx) => ({ ...cx, check: 'paging-snapshot' })) }));
  const checks = ['paging-snapshot', 'crud-sequences', 'not-a-registered-check'].map((id) => ({
    ...emptyFootprint(id),
    wallMs: 1000,
    requests: { GET: 3 },
  }));
  return {
    ...run,
    clauses,
    footprint: { namespaces: 1, clusterObjects: 0, requests: { GET: 9 }, bytesSent: 0, bytesReceived: 0, checkWallMs: 3000, checks },
  };
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const hrefs = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

describe('check pages beside the report', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-check-docs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('index.html, the failure pages and summary.md link pages that exist; an unknown check is not linked', async () => {
    await writeReports(runNamingChecks(), dir, familyOf);
    expect((await readdir(join(dir, 'checks'))).sort()).toEqual(['README.md', 'crud-sequences.md', 'paging-snapshot.md']);
    const index = await readFile(join(dir, 'index.html'), 'utf8');
    const fromIndex = hrefs(index, /href="(checks\/[^"]+)"/g);
    expect(new Set(fromIndex)).toEqual(new Set(['checks/paging-snapshot.md', 'checks/crud-sequences.md']));
    expect(index).toContain('<code>not-a-registered-check</code>');
    const summary = await readFile(join(dir, 'summary.md'), 'utf8');
    const fromSummary = hrefs(summary, /\]\((checks\/[^)]+)\)/g);
    expect(fromSummary.length).toBeGreaterThan(0);
    const pages = await readdir(join(dir, 'failures'));
    const fromPages = (
      await Promise.all(
        pages.map(async (p) =>
          hrefs(await readFile(join(dir, 'failures', p), 'utf8'), /href="(\.\.\/checks\/[^"]+)"/g).map((h) => join('failures', h)),
        ),
      )
    ).flat();
    expect(fromPages.length).toBe(pages.length);
    for (const h of [...fromIndex, ...fromSummary, ...fromPages]) expect(existsSync(join(dir, h)), h).toBe(true);
    const page = await readFile(join(dir, 'checks', 'paging-snapshot.md'), 'utf8');
    expect(page).toMatch(/^# `paging-snapshot`: /);
    expect(page).toContain('## What it sends');
    expect(page).toContain('## How to read a failure');
    expect(dirname(fromIndex[0]!)).toBe('checks');
    // The page is the one docs/checks/ ships (rendered from the same registry, kept fresh by test/docs).
    expect(page).toBe(readFileSync(join(root, 'docs', 'checks', 'paging-snapshot.md'), 'utf8'));
  });

  it('removes the pages an earlier run left in the same folder', async () => {
    await writeReports(runNamingChecks(), dir, familyOf);
    await writeReports(sampleRun(), dir, familyOf);
    // The sample run's failure comes from a check the registry does not know: no page, no folder.
    expect(existsSync(join(dir, 'checks'))).toBe(false);
  });
});
