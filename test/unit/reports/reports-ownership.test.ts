// The suite replaces in a reports folder only what it wrote there: its manifest says what that is, and
// a folder of an earlier version (no manifest) is recognised file by file or refused.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MANIFEST,
  MATRIX_CLAIM,
  ownedReportFiles,
  recordOwned,
  removeOwned,
  RUN_CLAIM,
  writeOwnedFiles,
} from '../../../reports/reports-ownership.ts';
import { writeReports, writeReportsKeepingForeign } from '../../../reports/write.ts';
import { familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';

const fresh = () => mkdtempSync(path.join(tmpdir(), 'svc-owned-'));
function put(dir: string, rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
}

describe('reports folder ownership', () => {
  it('a missing or empty folder owns nothing and refuses nothing', () => {
    expect(ownedReportFiles(path.join(fresh(), 'not-yet'), RUN_CLAIM).size).toBe(0);
    expect(ownedReportFiles(fresh(), RUN_CLAIM).size).toBe(0);
  });

  it("a user's checks/x and failures/y beside the reports: refused, named, and left in place", async () => {
    const dir = fresh();
    put(dir, 'checks/x', 'x');
    put(dir, 'failures/y', 'y');
    put(dir, 'notes.txt', 'unrelated files elsewhere in the folder are no concern');
    expect(() => ownedReportFiles(dir, RUN_CLAIM)).toThrow(
      /checks\/x was not written by svc-conformance \(and 1 more\).*nothing was deleted/,
    );
    await expect(writeReports(sampleRun(), dir, familyOf)).rejects.toThrow(/checks\/x/);
    expect(readFileSync(path.join(dir, 'checks/x'), 'utf8')).toBe('x');
    expect(readFileSync(path.join(dir, 'failures/y'), 'utf8')).toBe('y');
    expect(existsSync(path.join(dir, 'summary.json'))).toBe(false);
  });

  it('a top-level file of the same name (a index.html of the user) is refused too', () => {
    const dir = fresh();
    put(dir, 'index.html', '<p>my project</p>');
    expect(() => ownedReportFiles(dir, RUN_CLAIM)).toThrow(/index\.html was not written by svc-conformance/);
  });

  it('the manifest lists what a run wrote; the next run replaces exactly that, and a file added since is refused', async () => {
    const dir = fresh();
    await writeReports(sampleRun(), dir, familyOf);
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as { files: string[] };
    expect(manifest.files).toEqual(
      expect.arrayContaining(['summary.json', 'index.html', 'failures/rest_4.4.3-1.html', 'counterexamples/rest_4.4.3-1.sh']),
    );
    await writeReports(sampleRun(), dir, familyOf);
    put(dir, 'failures/mine.html', 'mine');
    await expect(writeReports(sampleRun(), dir, familyOf)).rejects.toThrow(/failures\/mine\.html was not written/);
    expect(readFileSync(path.join(dir, 'failures/mine.html'), 'utf8')).toBe('mine');
  });

  it('a malformed or foreign manifest is refused rather than trusted', () => {
    const dir = fresh();
    put(dir, MANIFEST, '{"tool":"other","files":["checks/x"]}');
    expect(() => ownedReportFiles(dir, RUN_CLAIM)).toThrow(/is not a manifest svc-conformance wrote/);
    put(dir, MANIFEST, '{"tool":"svc-conformance","files":["../outside"]}');
    expect(() => ownedReportFiles(dir, RUN_CLAIM)).toThrow(/is not a manifest/);
  });

  it('removeOwned deletes only owned files, and keeps a folder that still holds something else', () => {
    const dir = fresh();
    put(dir, 'failures/a.html', 'a');
    put(dir, 'failures/late.html', 'added while the run ran');
    put(dir, 'histories/h.json', '{}');
    const removed = removeOwned(dir, RUN_CLAIM.dirs, new Set(['failures/a.html', 'histories/h.json']));
    expect(removed.sort()).toEqual(['failures/a.html', 'histories/h.json']);
    expect(readdirSync(path.join(dir, 'failures'))).toEqual(['late.html']);
    expect(existsSync(path.join(dir, 'histories'))).toBe(false);
  });

  it("an earlier version's folder (no manifest) is recognised by its files; one file it cannot recognise refuses it", async () => {
    const dir = fresh();
    await writeReports(sampleRun(), dir, familyOf);
    // As an older version left it: the same files, no manifest, scripts with the header every real one has.
    rmSync(path.join(dir, MANIFEST));
    for (const f of readdirSync(path.join(dir, 'counterexamples')))
      put(dir, `counterexamples/${f}`, '#!/usr/bin/env bash\n# Reproducer by svc-conformance for rest:4.4.3\ncurl http://x\n');
    put(dir, 'allure-results/0c9d6a4e-33b1-4a43-9e52-6f27c1a8d1f0-result.json', '{}');
    const owned = ownedReportFiles(dir, RUN_CLAIM);
    expect([...owned]).toEqual(
      expect.arrayContaining([
        'summary.json',
        'counterexamples/rest_4.4.3-1.sh',
        'failures/rest_4.4.3-1.html',
        'allure-results/0c9d6a4e-33b1-4a43-9e52-6f27c1a8d1f0-result.json',
      ]),
    );
    await writeReports(sampleRun(), dir, familyOf);
    expect(existsSync(path.join(dir, 'allure-results'))).toBe(false);

    const older = fresh();
    put(older, 'summary.json', '{"tool":"svc-conformance"}');
    put(older, 'counterexamples/rest_1-1.sh', '#!/usr/bin/env bash\ncurl http://x\n');
    expect(() => ownedReportFiles(older, RUN_CLAIM)).toThrow(/counterexamples\/rest_1-1\.sh was not written/);
    const notOurs = fresh();
    put(notOurs, 'summary.json', '{"tool":"someone-else"}');
    put(notOurs, 'allure-results/0c9d6a4e-33b1-4a43-9e52-6f27c1a8d1f0-result.json', '{}');
    expect(() => ownedReportFiles(notOurs, RUN_CLAIM)).toThrow(/summary\.json was not written/);
  });

  it('matrix files join the manifest a run wrote, and a later run still owns its own', async () => {
    const dir = fresh();
    await writeReports(sampleRun(), dir, familyOf);
    writeOwnedFiles(dir, MATRIX_CLAIM, [[path.join(dir, 'matrix.json'), '{"tool":"svc-conformance"}']]);
    await writeReports(sampleRun(), dir, familyOf);
    expect((JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as { files: string[] }).files).toEqual(
      expect.arrayContaining(['matrix.json', 'summary.json']),
    );
    put(dir, 'matrix.md', 'a matrix of my own');
    expect(() => writeOwnedFiles(dir, MATRIX_CLAIM, [[path.join(dir, 'matrix.md'), 'x']])).toThrow(/matrix\.md was not written/);
    expect(readFileSync(path.join(dir, 'matrix.md'), 'utf8')).toBe('a matrix of my own');
    recordOwned(dir, new Set(['summary.json']), ['summary.json'], []);
    expect((JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as { files: string[] }).files).toEqual([]);
  });

  it('a file that appeared during the run: the reports go to a fresh folder inside, the file stays, and the line says where', async () => {
    const dir = fresh();
    await writeReports(sampleRun(), dir, familyOf);
    put(dir, 'failures/y', 'appeared while the run ran');
    const notes: string[] = [];
    const run = sampleRun();
    const written = await writeReportsKeepingForeign(run, dir, familyOf, {}, (l) => notes.push(l));
    expect(written).toBe(path.join(dir, `svc-conformance-${run.startedAt.replace(/[^A-Za-z0-9._-]+/g, '_')}`));
    expect(existsSync(path.join(written, 'summary.json'))).toBe(true);
    expect(readFileSync(path.join(dir, 'failures/y'), 'utf8')).toBe('appeared while the run ran');
    expect(notes).toEqual([
      `${path.join(dir, 'failures/y')} appeared during the run and is not the suite's: the reports go to ${written} instead (nothing was deleted)`,
    ]);
    // Without a foreign file it writes where it was asked.
    const clean = fresh();
    expect(await writeReportsKeepingForeign(run, clean, familyOf, {}, (l) => notes.push(l))).toBe(clean);
    // A manifest that is not the suite's is no file of a run: refused, not worked around.
    put(clean, MANIFEST, 'not json');
    await expect(writeReportsKeepingForeign(run, clean, familyOf, {}, () => undefined)).rejects.toThrow(/is not a manifest/);
  });
});
