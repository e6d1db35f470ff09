// The judges moved out of suites/checks/events-v1.ts and health.ts: each with an answer that passes and
// a near miss that fails (a note that never fails is shown to stay a note).
import { describe, expect, it } from 'vitest';
import { judgeEventV1Create, judgeEventV1Readback, judgeEventV1ReadsBack } from '../../../reference/events-v1.ts';
import { noteHealthzWarning } from '../../../reference/health.ts';

const clauses = (js: readonly { clause: string; verdict: string }[]) => js.map((j) => `${j.clause} ${j.verdict}`);

const valid: Record<string, unknown> = {
  apiVersion: 'events.svc.io/v1',
  kind: 'Event',
  metadata: { generateName: 'ev-', namespace: 'n' },
  type: 'Normal',
  action: 'Checked',
  reason: 'Conformance',
  reportingController: 'svc-conformance.io/suite',
  reportingInstance: 'suite-1',
  eventTime: '2026-01-01T00:00:00.000000Z',
  regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'n', name: 'subject' },
  series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' },
};

describe('judgeEventV1Create (rest:6.2)', () => {
  it('passes a valid event created and an invalid one refused, under each clause it breaks', () => {
    expect(clauses(judgeEventV1Create(valid, { status: 201, body: '{}' }))).toEqual([
      'rest:6.2/required pass',
      'rest:6.2/type pass',
      'rest:6.2/deprecated-fields pass',
    ]);
    const bad = { ...valid, type: 'Info', deprecatedCount: 2 };
    const js = judgeEventV1Create(bad, { status: 422, body: '{}' });
    expect(clauses(js)).toEqual(['rest:6.2/type pass', 'rest:6.2/deprecated-fields pass']);
    expect(js[0]!.expected).toBe('refused (4xx): type must be one of Normal, Warning; deprecatedCount not permitted on new events');
  });
  it('fails a valid event refused (under rest:6.2/required alone), and a deprecated field accepted', () => {
    expect(clauses(judgeEventV1Create(valid, { status: 422, body: 'no' }))).toEqual(['rest:6.2/required fail']);
    const js = judgeEventV1Create({ ...valid, deprecatedSource: { component: 'kubelet' } }, { status: 201, body: '{}' });
    expect(clauses(js)).toEqual(['rest:6.2/deprecated-fields fail']);
    expect(js[0]!.observed).toBe('status 201: accepted');
  });
});

describe('judgeEventV1ReadsBack and judgeEventV1Readback (rest:6.2 "replaces" rows)', () => {
  it('passes a created event read back under the v1 names', () => {
    expect(judgeEventV1ReadsBack('ev-1', 200).verdict).toBe('pass');
    expect(
      clauses(
        judgeEventV1Readback(valid, {
          ...valid,
          regarding: { ...(valid['regarding'] as object), uid: 'u' },
          eventTime: '2026-01-01T00:00:00Z',
        }),
      ),
    ).toEqual([
      'rest:6.2/regarding pass',
      'rest:6.2/eventTime pass',
      'rest:6.2/series.lastObservedTime pass',
      'rest:6.2/series.count pass',
    ]);
  });
  it('fails a 404 and the legacy involvedObject served instead of regarding', () => {
    expect(judgeEventV1ReadsBack('ev-1', 404).verdict).toBe('fail');
    const { regarding, ...rest } = valid;
    expect(clauses(judgeEventV1Readback(valid, { ...rest, involvedObject: regarding }))).toContain('rest:6.2/regarding fail');
  });
});

describe('noteHealthzWarning (rest:7.4 on /healthz)', () => {
  it('records either answer, never passes or fails it', () => {
    expect(noteHealthzWarning(undefined)).toMatchObject({ clause: 'rest:7.4', verdict: 'unspecified', observed: 'no Warning header' });
    expect(noteHealthzWarning('299 - "deprecated"')).toMatchObject({ verdict: 'unspecified', observed: 'Warning: 299 - "deprecated"' });
  });
});
