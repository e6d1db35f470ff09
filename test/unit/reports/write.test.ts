import { mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sanitiseFileName, writeReports } from '../../../reports/write.ts';
import { catalog, familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';
import { parseXml } from './xml-check.ts';

describe('writeReports', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-reports-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes summary, junit, html and one executable script per counterexample', async () => {
    const out = join(dir, 'nested', 'results');
    const { files } = await writeReports(sampleRun(), out, familyOf, {
      catalog,
      counterexampleFiles: [{ name: '../escape attempt.txt', content: 'transcript' }],
    });
    expect(files.map((f) => f.slice(out.length + 1))).toEqual([
      'summary.json',
      'junit.xml',
      'index.html',
      'summary.md',
      'failures/rest_4.4.3-1.html',
      'failures/rest_4.4.6-1.html',
      'counterexamples/rest_4.4.3-1.sh',
      'counterexamples/rest_4.4.6-1.sh',
      'counterexamples/__escape_attempt.txt',
    ]);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { verdict: string; coverage?: unknown };
    expect(summary.verdict).toBe('nonconformant');
    expect(summary.coverage).toBeDefined();
    expect(parseXml(await readFile(join(out, 'junit.xml'), 'utf8')).name).toBe('testsuites');
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain('Verdict: nonconformant');
    const script = join(out, 'counterexamples', 'rest_4.4.3-1.sh');
    expect((await stat(script)).mode & 0o777).toBe(0o755);
    expect(await readFile(script, 'utf8')).toMatch(/^#!\/usr\/bin\/env bash\ncurl /);
  });

  it('removes scripts a previous run left behind', async () => {
    await writeReports(sampleRun(), dir, familyOf, { counterexampleFiles: [{ name: 'rest_1-1.sh', content: 'old' }] });
    expect(await readdir(join(dir, 'counterexamples'))).toContain('rest_1-1.sh');
    await writeReports(sampleRun(), dir, familyOf);
    expect((await readdir(join(dir, 'counterexamples'))).sort()).toEqual(['rest_4.4.3-1.sh', 'rest_4.4.6-1.sh']);
  });

  it('refuses, writing nothing, a folder where a script it would replace is not one it wrote', async () => {
    await mkdir(join(dir, 'counterexamples'));
    await writeFile(join(dir, 'counterexamples', 'rest_1-1.sh'), 'mine');
    await expect(writeReports(sampleRun(), dir, familyOf)).rejects.toThrow(
      /counterexamples\/rest_1-1\.sh was not written by svc-conformance/,
    );
    expect((await readdir(dir)).sort()).toEqual(['counterexamples']);
    expect(await readFile(join(dir, 'counterexamples', 'rest_1-1.sh'), 'utf8')).toBe('mine');
  });

  it('sanitises clause ids into plain file names', () => {
    expect(sanitiseFileName('rest:4.5/list/unset/limit-continue/other')).toBe('rest_4.5_list_unset_limit-continue_other');
    expect(sanitiseFileName('..')).toBe('_');
    expect(sanitiseFileName('')).toBe('_');
  });
});
