// `npm run report` renders Allure results into one self-contained page: the multi-file report loads its
// data with fetch, which a browser refuses for a page opened from disk (it only spun). The page must
// carry every result in itself and nothing may sit beside it that it would need to load.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** One finished Allure 2 result file, as allure-vitest writes them. */
function result(name: string, status: string) {
  const uuid = `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`;
  return {
    uuid,
    name,
    fullName: `suite#${name}`,
    historyId: name,
    status,
    stage: 'finished',
    steps: [],
    attachments: [],
    parameters: [],
    labels: [
      { name: 'suite', value: 'rest-paging' },
      { name: 'clause', value: 'rest:4.4.3' },
    ],
    links: [],
    start: 1,
    stop: 2,
  };
}

describe('npm run report', () => {
  it('writes one index.html that embeds every result, with no data folder to fetch', { timeout: 120_000 }, () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-allure-report-'));
    try {
      mkdirSync(path.join(dir, 'allure-results'));
      const results = [result('paging-snapshot', 'passed'), result('watch-cell-unset-check', 'failed')];
      for (const r of results) writeFileSync(path.join(dir, 'allure-results', `${r.uuid}-result.json`), JSON.stringify(r));
      // A multi-file report left from before must not survive beside the new page.
      mkdirSync(path.join(dir, 'allure-report', 'data'), { recursive: true });
      writeFileSync(path.join(dir, 'allure-report', 'index.html'), '<title>svc-conformance</title>');
      writeFileSync(path.join(dir, 'allure-report', 'data', 'old.json'), '{}');
      const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/allure-report.ts'), dir], {
        cwd: root,
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(path.join(dir, 'allure-report', 'index.html'));
      const out = path.join(dir, 'allure-report');
      expect(readdirSync(out).filter((f) => statSync(path.join(out, f)).isDirectory())).toEqual([]);
      expect(readdirSync(out).filter((f) => /\.(html|js|css)$/.test(f))).toEqual(['index.html']);
      const page = readFileSync(path.join(out, 'index.html'), 'utf8');
      // What a later render recognises as its own, and replaces.
      expect(page).toContain('svc-conformance');
      const embedded = [...page.matchAll(/d\("data\/test-results\/[^"]+\.json","([A-Za-z0-9+/=]+)"\)/g)].map(
        (m) => JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as { name: string; status: string },
      );
      expect(new Set(embedded.map((e) => `${e.name} ${e.status}`))).toEqual(
        new Set(['paging-snapshot passed', 'watch-cell-unset-check failed']),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without results says so in one line and exits 2', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-allure-none-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/allure-report.ts'), dir], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('no Allure results');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an allure-report folder it did not render (a user's) is kept: exit 2 in one line, nothing deleted", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-allure-mine-'));
    try {
      mkdirSync(path.join(dir, 'allure-results'));
      mkdirSync(path.join(dir, 'allure-report'));
      writeFileSync(path.join(dir, 'allure-report', 'notes.md'), 'mine');
      const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/allure-report.ts'), dir], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/allure-report exists and is not a report this command rendered.*nothing was deleted/);
      expect(readFileSync(path.join(dir, 'allure-report', 'notes.md'), 'utf8')).toBe('mine');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
