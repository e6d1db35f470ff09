// In the oracle project, beside the HTML report's browser test: it starts a process (headless Chromium).
// Why: the matrix is read in a browser, and the clauses where implementations differ must
// come first, with the filters working. Four runs' summaries (different seeds: marked) are rendered
// in headless Chromium; the probe reads the first rows after the page's own script ran, then applies
// the status filter. A screenshot is kept for a person to look at.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chromium } from './harness/chromium.ts';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeMatrix } from '../../scripts/matrix-cli.ts';
import { catalog } from '../../reference/catalog/index.ts';

/** Four runs over the same 30 clauses; three clauses differ between them (set at different rows). */
function fourRuns(root: string): string[] {
  const ids = catalog.slice(0, 30).map((c) => c.id);
  const differing = new Map([
    [ids[4]!, ['passed', 'failed', 'passed', 'passed']],
    [ids[17]!, ['passed', 'passed', 'unspecified', 'passed']],
    [ids[29]!, ['passed', 'passed', 'passed', 'failed']],
  ]);
  return ['embedded', 'embedded-fault', 'upstream', 'other'].map((name, i) => {
    const dir = path.join(root, name);
    mkdirSync(dir, { recursive: true });
    const clauses = ids.map((id) => {
      const status = differing.get(id)?.[i] ?? 'passed';
      return {
        id,
        section: '',
        summary: `clause ${id}`,
        status,
        checks: 1,
        counterexamples: status === 'failed' ? [{ check: 'x', clause: id }] : [],
        notes: [],
        expectedFailure: false,
      };
    });
    writeFileSync(
      path.join(dir, 'summary.json'),
      JSON.stringify({
        tool: 'svc-conformance',
        version: '0.1.0',
        profile: 'svc',
        seed: i === 2 ? 9 : 1,
        verdict: 'conformant',
        target: { server: `http://127.0.0.1:${1000 + i}`, nodeagentLoader: null },
        clauses,
      }),
    );
    return dir;
  });
}

describe('matrix', () => {
  it('puts differing rows first and marks runs of different seeds', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'matrix-'));
    const dirs = fourRuns(root);
    const r = writeMatrix(dirs, path.join(root, 'out'));
    expect(r.differing).toBe(3);
    const m = JSON.parse(readFileSync(path.join(root, 'out', 'matrix.json'), 'utf8')) as {
      rows: { differs: boolean; cells: { href: string }[] }[];
      marks: { seedsDiffer: boolean };
    };
    expect(m.rows.slice(0, 3).every((x) => x.differs)).toBe(true);
    expect(m.rows.slice(3).some((x) => x.differs)).toBe(false);
    expect(m.marks.seedsDiffer).toBe(true);
    expect(m.rows[0]!.cells[0]!.href).toMatch(/^\.\.\/embedded\/index\.html#/);
  });
});

describe.skipIf(chromium === undefined)('matrix in a browser (skipped: no chromium; apt-get install -y chromium)', () => {
  it('renders in headless Chromium with the differing rows first and a working status filter', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'matrix-'));
    const out = path.join(root, 'out');
    writeMatrix(fourRuns(root), out);
    const page = readFileSync(path.join(out, 'matrix.html'), 'utf8');
    const probe = page.replace(
      '</body>',
      `<script>
      const first = [...document.querySelectorAll('tr.row')].slice(0, 4).map((r) => r.classList.contains('differs'));
      const s = document.getElementById('f-status'); s.value = 'failed'; s.onchange();
      const shown = [...document.querySelectorAll('tr.row')].filter((r) => r.style.display !== 'none').length;
      document.title = JSON.stringify({ first, shown, marked: !!document.getElementById('marks') });
    </script></body>`,
    );
    writeFileSync(path.join(out, 'probe.html'), probe);
    const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1400,900'];
    const { stdout } = await promisify(execFile)(chromium!, [...flags, '--dump-dom', `file://${path.join(out, 'probe.html')}`], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const seen = JSON.parse(/<title>(.*?)<\/title>/s.exec(stdout)![1]!.replaceAll('&quot;', '"')) as {
      first: boolean[];
      shown: number;
      marked: boolean;
    };
    expect(seen.first).toEqual([true, true, true, false]);
    expect(seen.shown).toBe(2);
    expect(seen.marked).toBe(true);
    await promisify(execFile)(
      chromium!,
      [...flags, `--screenshot=${path.join(out, 'matrix.png')}`, `file://${path.join(out, 'matrix.html')}`],
      { timeout: 60_000 },
    );
  }, 120_000);
});
