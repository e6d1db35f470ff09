import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { economyLine, requestEconomy } from '../../../harness/request-economy.ts';
import { footprintLines, sumFootprints, type CheckFootprint } from '../../../harness/footprint.ts';
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
const footprint = sumFootprints([fp('paging', { GET: 18, POST: 2 }, 1000, 9000), fp('lists', { GET: 10 }, 500, 1500), fp('idle', { GET: 6 }, 100, 300)]);

describe('request economy', () => {
  it("divides the run's requests and bytes by its decided clauses; error, skipped and notChecked decide nothing", () => {
    const run = buildRunResult({ records, catalog, footprint, profile: 'svc', seed: 1, server: null, nodeagentLoader: null, startedAt: '', durationMs: 0, version: '0', errors: [] });
    const e = run.footprint!.perVerdict!;
    expect(e).toMatchObject({ verdicts: 3, requests: 36, bytes: 12_400, requestsPerVerdict: 12, bytesPerVerdict: 4133 });
    // The check that decided nothing comes first, then the most requests per decided clause (a tie: more requests first).
    expect(e.checks).toEqual([
      { check: 'idle', requests: 6, bytes: 400, verdicts: 0 },
      { check: 'paging', requests: 20, bytes: 10_000, verdicts: 2 },
      { check: 'lists', requests: 10, bytes: 2000, verdicts: 1 },
    ]);
    expect(JSON.parse(toSummaryJson(run, { catalog, familyOf })).footprint.perVerdict.requestsPerVerdict).toBe(12);
    expect(footprintLines(run.footprint!).at(-1)).toBe('request economy: 12 requests and 4.0 KiB per verdict (36 requests, 3 verdicts); most per verdict: idle 6 for none, paging 10, lists 10');
  });

  it('a run that decided nothing has no per-verdict figure, and says so', () => {
    const e = requestEconomy([rec('rest:4.4.3', 'error', { check: 'idle' })], [], footprint);
    expect(e.requestsPerVerdict).toBeUndefined();
    expect(economyLine(e, 0)).toBe('request economy: 36 requests and no verdict');
  });
});
