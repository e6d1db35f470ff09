// A failing watch history is saved next to the reports as histories/<check>-<clause>.json, and kept
// out of summary.json so the summary stays small.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeReports } from '../../../reports/write.ts';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { catalog, cx, familyOf, rec } from './fixtures.ts';

describe('saved histories', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-histories-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one JSON file per failing check and clause that carried a history', async () => {
    const history = { format: 'svc-conformance/watch-history@1', events: [{ type: 'ADDED' }] };
    const run = buildRunResult({
      records: [
        rec('rest:4.4.3', 'fail', { counterexample: cx({ check: 'watch-resume', history }) }),
        rec('rest:4.4.6', 'fail', { counterexample: cx({ clause: 'rest:4.4.6' }) }),
      ],
      catalog,
      profile: 'svc',
      seed: 1,
      server: null,
      nodeagentLoader: null,
      startedAt: '2025-01-02T03:04:05.000Z',
      durationMs: 1,
      version: '0.1.0',
      errors: [],
    });
    await writeReports(run, dir, familyOf);
    expect(await readdir(join(dir, 'histories'))).toEqual(['watch-resume-rest_4.4.3.json']);
    expect(JSON.parse(await readFile(join(dir, 'histories', 'watch-resume-rest_4.4.3.json'), 'utf8'))).toEqual(history);
    expect(await readFile(join(dir, 'summary.json'), 'utf8')).not.toContain('watch-history@1');
  });
});
