// The judges moved out of suites/checks/versioning.ts: each with an answer that passes and a near miss
// that fails.
import { describe, expect, it } from 'vitest';
import { profiles } from '../../../../reference/profile.ts';
import { removals } from '../../../../reference/versioning/removals.ts';
import {
  deprecatedGaugeLabels,
  deprecatedGaugeScrapesDecided,
  judgeDeprecatedGaugeScrapes,
  judgeDeprecatedGauges,
} from '../../../../reference/versioning/deprecation-signals.ts';
import { judgeMetricsAnswer } from '../../../../reference/versioning/metrics-judge.ts';
import {
  judgeGroupList,
  judgePersistedCreate,
  judgePersistedRead,
  judgeRemovalRow,
} from '../../../../reference/versioning/serving-judges.ts';

const p = profiles.svc;
const v124 = { major: 1, minor: 24 };
const leases = removals.find((r) => r.resource === 'leases' && r.version === 'v1beta1')!;
const cronjobs = removals.find((r) => r.resource === 'cronjobs')!;
const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);

describe('judgeGroupList (rest:9.1.2)', () => {
  it('passes an APIGroupList and fails a 200 without groups or a 403', () => {
    expect(judgeGroupList(200, { kind: 'APIGroupList', groups: [] }).verdict).toBe('pass');
    expect(judgeGroupList(200, { kind: 'APIGroupList' }).verdict).toBe('fail');
    expect(judgeGroupList(403, { groups: [] }).verdict).toBe('fail');
  });
});

describe('judgeRemovalRow (rest:9.4)', () => {
  it('passes a removed resource not listed, and a row not yet removed whatever discovery says', () => {
    expect(judgeRemovalRow(p, leases, v124, false)).toMatchObject({ clause: leases.clause, verdict: 'pass', observed: 'not listed' });
    expect(judgeRemovalRow(p, cronjobs, v124, undefined)).toMatchObject({
      verdict: 'pass',
      expected: 'served or not: batch/v1beta1 CronJob stops only in v1.25',
    });
  });
  it('fails a removed resource still listed by discovery', () => {
    expect(judgeRemovalRow(p, leases, v124, true)).toMatchObject({
      verdict: 'fail',
      observed: 'discovery lists leases under coordination.svc.io/v1beta1',
    });
  });
});

describe('judgeDeprecatedGauges (rest:9.3/deprecated-endpoint) and judgeMetricsAnswer (rest:4.2.4)', () => {
  const labels = deprecatedGaugeLabels(p, cronjobs);
  const text = `apiserver_requested_deprecated_apis{group="batch",version="v1beta1",resource="cronjobs",subresource="",removed_release="1.25"} 1\n`;
  it('passes the gauge at 1 and records a /metrics these credentials may not read', () => {
    expect(verdicts(judgeDeprecatedGauges(200, text, [labels]))).toEqual(['pass']);
    expect(verdicts(judgeDeprecatedGauges(403, '', [labels]))).toEqual(['unspecified']);
    expect(judgeMetricsAnswer(200).verdict).toBe('pass');
  });
  it('fails a missing gauge and a /metrics that errs', () => {
    expect(verdicts(judgeDeprecatedGauges(200, '', [labels]))).toEqual(['fail']);
    expect(judgeMetricsAnswer(500).verdict).toBe('fail');
  });
});

// Behind a balancer (an HA pair) the gauge lives in the server that served the request, and a
// scrape over another connection may reach the other one. Seen on any scrape passes; a wrong value
// fails anywhere; seen on none fails when one process answered them all, and is inconclusive when
// two or more did (the one that served the request may not have been scraped).
describe('judgeDeprecatedGaugeScrapes (rest:9.3/deprecated-endpoint through several servers)', () => {
  const labels = deprecatedGaugeLabels(p, cronjobs);
  const gauge = (v: number) =>
    `apiserver_requested_deprecated_apis{group="batch",version="v1beta1",resource="cronjobs",subresource="",removed_release="1.25"} ${v}\n`;
  const server = (start: number, extra = '') => ({ status: 200, body: `process_start_time_seconds ${start}\n${extra}` });
  it('passes when any scrape shows the gauge at 1, whichever server it reached', () => {
    expect(verdicts(judgeDeprecatedGaugeScrapes([server(1), server(2, gauge(1))], [labels]))).toEqual(['pass']);
    expect(deprecatedGaugeScrapesDecided([server(1)], [labels])).toBe(false);
    expect(deprecatedGaugeScrapesDecided([server(1), server(2, gauge(1))], [labels])).toBe(true);
  });
  it('fails a value other than 1 on any server, even beside a 1 on another', () => {
    expect(judgeDeprecatedGaugeScrapes([server(1, gauge(1)), server(2, gauge(3))], [labels])[0]).toMatchObject({
      verdict: 'fail',
      observed: 'value 3',
    });
  });
  it('fails a gauge on no scrape when one process answered them all, or none tells which', () => {
    expect(verdicts(judgeDeprecatedGaugeScrapes([server(1), server(1), server(1)], [labels]))).toEqual(['fail']);
    expect(
      verdicts(
        judgeDeprecatedGaugeScrapes(
          [
            { status: 200, body: '' },
            { status: 200, body: '' },
          ],
          [labels],
        ),
      ),
    ).toEqual(['fail']);
  });
  it('is inconclusive, never a pass, when two processes answered and neither showed it', () => {
    const [j] = judgeDeprecatedGaugeScrapes([server(1), server(2), server(1)], [labels]);
    expect(j).toMatchObject({ verdict: 'inconclusive', clause: 'rest:9.3/deprecated-endpoint' });
    expect(j!.observed).toContain('answered by 2 server processes');
  });
  it('a /metrics that refuses is unspecified and ends the scraping', () => {
    expect(verdicts(judgeDeprecatedGaugeScrapes([server(1), { status: 403, body: '' }], [labels]))).toEqual(['unspecified']);
    expect(deprecatedGaugeScrapesDecided([{ status: 403, body: '' }], [labels])).toBe(true);
  });
});

describe('judgePersistedCreate and judgePersistedRead (rest:4.1/post, rest:9.4/persisted-objects)', () => {
  const spec = { minAvailable: 1, selector: { matchLabels: { app: 'web' } } };
  const obj = { metadata: { name: 'pdb-x', uid: 'u1' }, spec };
  it('passes a created object read back by GET or in a list with the same uid and spec', () => {
    expect(judgePersistedCreate({ status: 201, json: obj, bodyText: '{}' }).verdict).toBe('pass');
    const got = judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'get', { status: 200, json: obj });
    expect(got).toMatchObject({
      verdict: 'pass',
      expected: 'pdb-x (uid u1) is read through policy/v1 with minAvailable 1 and selector app=web',
    });
    expect(judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'list', { status: 200, json: { items: [obj] } }).verdict).toBe('pass');
  });
  it('fails a create without a name, an object not found, another uid or a changed selector', () => {
    expect(judgePersistedCreate({ status: 201, json: {}, bodyText: '{}' }).verdict).toBe('fail');
    expect(judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'get', { status: 404, json: {} })).toMatchObject({
      verdict: 'fail',
      observed: 'status 404, not found',
    });
    expect(
      judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'list', {
        status: 200,
        json: { items: [{ ...obj, metadata: { name: 'pdb-x', uid: 'u2' } }] },
      }).verdict,
    ).toBe('fail');
    expect(
      judgePersistedRead({ name: 'pdb-x', uid: 'u1' }, spec, 'get', { status: 200, json: { ...obj, spec: { ...spec, selector: {} } } })
        .verdict,
    ).toBe('fail');
  });
});
