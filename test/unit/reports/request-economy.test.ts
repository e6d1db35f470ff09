import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { economyLine, requestEconomy } from '../../../harness/case/request-economy.ts';
import { footprintLines, sumFootprints, type CheckFootprint } from '../../../harness/case/footprint.ts';
import { toSummaryJson } from '../../../reports/summary-json.ts';
import { catalog, familyOf, rec } from './fixtures.ts';

const fp = (check: string, requests: Record<string, number>, bytesSent: number, bytesReceived: number): CheckFootprint => ({
  check,
  wallMs: 1,
  namespaces: 0,
  clusterObjects: 0,
  requests,
  bytesSent,
  bytesReceived,
  namespaceWaitMs: 0,
});

// Two checks decide three clauses with 30 requests; a third sends 6 requests and decides nothing.
const records = [
  rec('rest:4.4.3', 'pass', { check: 'paging' }),
  rec('rest:4.4.3', 'pass', { check: 'paging' }),
  rec('rest:4.4.6', 'fail', { check: 'paging' }),
  rec('rest:4.4.9', 'unspecified', { check: 'lists' }),
  rec('rest:4.5/list/unset/limit-continue/other', 'error', { check: 'lists' }),
  rec('node:2.2/maxPods', 'skipped', { check: 'idle' }),
];
const footprint = sumFootprints([
  fp('paging', { GET: 18, POST: 2 }, 1000, 9000),
  fp('lists', { GET: 10 }, 500, 1500),
  fp('idle', { GET: 6 }, 100, 300),
]);

describe('request economy', () => {
  it("divides the run's requests and bytes by its decided clauses; error, skipped and notChecked decide nothing", () => {
    const run = buildRunResult({
      records,
      catalog,
      footprint,
      profile: 'svc',
      seed: 1,
      server: null,
      nodeagentLoader: null,
      startedAt: '',
      durationMs: 0,
      version: '0',
      errors: [],
    });
    const e = run.footprint!.perVerdict!;
    expect(e).toMatchObject({
      verdicts: 3,
      requests: 36,
      bytes: 12_400,
      bytesReceived: 10_800,
      requestsPerVerdict: 12,
      bytesPerVerdict: 4133,
      bytesReceivedPerVerdict: 3600,
    });
    // The check that decided nothing comes first, then the most requests per decided clause (a tie: more requests first).
    expect(e.checks).toEqual([
      { check: 'idle', requests: 6, bytes: 400, verdicts: 0 },
      { check: 'paging', requests: 20, bytes: 10_000, verdicts: 2 },
      { check: 'lists', requests: 10, bytes: 2000, verdicts: 1 },
    ]);
    expect(JSON.parse(toSummaryJson(run, { catalog, familyOf })).footprint.perVerdict.requestsPerVerdict).toBe(12);
    expect(footprintLines(run.footprint!).at(-1)).toBe(
      'request economy: 12 requests and 4.0 KiB per verdict (36 requests, 0.0 MiB received, 3 verdicts); most per verdict: idle 6 for none, paging 10, lists 10',
    );
  });

  it('names the checks whose bytes were a mebibyte or more, the most first', () => {
    const heavy = sumFootprints([
      fp('workload', { GET: 2 }, 3 << 20, 40 << 20),
      fp('schema', { GET: 1 }, 0, 3 << 20),
      fp('small', { GET: 9 }, 10, 900_000),
    ]);
    const e = requestEconomy([rec('rest:4.4.3', 'pass', { check: 'small' })], [{ status: 'passed' }], heavy);
    expect(economyLine(e)).toBe(
      'request economy: 12 requests and 47982.9 KiB per verdict (12 requests, 43.9 MiB received, 1 verdicts); most per verdict: workload 2 for none, schema 1 for none, small 9; most bytes: workload 43.0 MiB, schema 3.0 MiB',
    );
  });

  it('a run that decided nothing has no per-verdict figure, and says so', () => {
    const e = requestEconomy([rec('rest:4.4.3', 'error', { check: 'idle' })], [], footprint);
    expect(e.requestsPerVerdict).toBeUndefined();
    expect(economyLine(e, 0)).toBe('request economy: 36 requests and no verdict');
  });
});
