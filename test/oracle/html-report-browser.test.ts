// Why (issue 19 item 1): the report is read in a browser, and the failure must be the first thing seen.
// A planted-fault run's page is rendered in headless Chromium at 1400x900: the first failure starts in
// the first screen and nothing scrolls sideways. A screenshot is kept for a person to look at.
import { describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runAgainst } from '../../scripts/dev/in-process-run.ts';
import { buildRunResult } from '../../reports/aggregate.ts';
import { toHtml } from '../../reports/html.ts';
import { catalog, familyOf } from '../../reference/catalog/index.ts';

const chromium = ['chromium', 'chromium-browser', 'google-chrome'].find((b) => {
  try {
    execFileSync(b, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

describe.skipIf(chromium === undefined)('the HTML report in a browser (skipped: no chromium; apt-get install chromium)', () => {
  it('shows a planted fault\'s failure in the first 1400x900 screen, with no sideways scroll', async () => {
    const records = await runAgainst({ checks: ['paging-snapshot', 'crud-sequences', 'watch-cell-unset'], faults: ['page-rv-drift'], runs: 20, seed: 5 });
    const run = buildRunResult({ records, catalog, profile: 'svc', seed: 5, server: 'http://127.0.0.1:1', nodeagentLoader: null, startedAt: new Date(0).toISOString(), durationMs: 1000, version: 'test', errors: [] });
    expect(run.verdict).toBe('nonconformant');
    const dir = mkdtempSync(path.join(tmpdir(), 'report-'));
    const page = toHtml(run, familyOf);
    writeFileSync(path.join(dir, 'index.html'), page);
    // The report has no script; the probe copy reads the layout into the title for --dump-dom.
    const probe = page.replace('</body>', '<script>const f = document.querySelector(".failure"); document.title = JSON.stringify({ top: f ? f.getBoundingClientRect().top : -1, width: document.documentElement.scrollWidth });</script></body>');
    writeFileSync(path.join(dir, 'probe.html'), probe);
    const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1400,900'];
    const { stdout } = await promisify(execFile)(chromium!, [...flags, '--dump-dom', `file://${path.join(dir, 'probe.html')}`], { encoding: 'utf8', timeout: 60_000 });
    const layout = JSON.parse(/<title>(.*?)<\/title>/s.exec(stdout)![1]!.replaceAll('&quot;', '"')) as { top: number; width: number };
    expect(layout.top).toBeGreaterThan(0);
    expect(layout.top).toBeLessThan(900);
    expect(layout.width).toBeLessThanOrEqual(1400);
    await promisify(execFile)(chromium!, [...flags, `--screenshot=${path.join(dir, 'first-screen.png')}`, `file://${path.join(dir, 'index.html')}`], { timeout: 60_000 });
  }, 120_000);
});
