// A run whose every watch stream stayed silent while cases owed events did not test delivery
// (rest:6.1.1 fixes no delivery time, so never a failure): rest:6.1.1 is inconclusive, not passed on the
// cases that owed nothing, and the run is notTested. One stream that delivered an event, and nothing changes.
import { describe, expect, it } from 'vitest';
import { buildRunResult } from '../../../reports/aggregate.ts';
import { undecidedDelivery } from '../../../reference/watch-delivery.ts';
import { emptyFootprint, sumFootprints } from '../../../harness/case/footprint.ts';
import { emptyReach } from '../../../harness/case/reach.ts';
import { catalog, rec } from './fixtures.ts';

const footprint = (opened: number, delivering: number) => {
  const fp = emptyFootprint('watch-cell-unset');
  return { ...sumFootprints([fp]), reach: { ...emptyReach(), watches: { opened, resumed: 0, expired: 0, delivering } } };
};
const records = [rec('rest:6.1.1', 'pass', { count: 3 }), rec('rest:6.1.1', 'inconclusive', { count: 5 }), rec('rest:4.1/post', 'pass')];
const run = (opened: number, delivering: number, extra = records) =>
  buildRunResult({
    records: extra,
    catalog,
    profile: 'svc',
    seed: 1,
    server: 's',
    nodeagentLoader: null,
    startedAt: '',
    durationMs: 0,
    version: '0',
    errors: [],
    footprint: footprint(opened, delivering),
  });

describe('a run whose watches delivered nothing', () => {
  it('the model: undecided only when streams owed events and none delivered one', () => {
    expect(undecidedDelivery({ opened: 8, delivering: 0, undelivered: 5 })).toMatch(/^rest:6\.1\.1 undecided: none of the 8 watch streams/);
    expect(undecidedDelivery({ opened: 8, delivering: 1, undelivered: 5 })).toBeUndefined();
    expect(undecidedDelivery({ opened: 8, delivering: 0, undelivered: 0 })).toBeUndefined();
    expect(undecidedDelivery({ opened: 0, delivering: 0, undelivered: 0 })).toBeUndefined();
  });

  it('silent everywhere: rest:6.1.1 inconclusive and the run notTested, with the reason', () => {
    const r = run(8, 0);
    expect(r.clauses.find((c) => c.id === 'rest:6.1.1')?.status).toBe('inconclusive');
    expect(r.verdict).toBe('notTested');
    expect(r.notTested?.[0]).toMatch(/none of the 8 watch streams of the run delivered an event, and 5 case\(s\) waited out/);
  });

  it('one stream delivered (late is not never): the clause and the verdict stand', () => {
    const r = run(8, 1);
    expect(r.clauses.find((c) => c.id === 'rest:6.1.1')?.status).toBe('passed');
    expect(r.verdict).toBe('conformant');
  });

  it('a failure elsewhere is still nonconformant', () => {
    expect(run(8, 0, [...records, rec('rest:4.1/put', 'fail')]).verdict).toBe('nonconformant');
  });
});
