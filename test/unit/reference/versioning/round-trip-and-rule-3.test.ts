// rest:9.3 rules 2 and 3: the judges must reject the near misses (a field lost on the way back, an
// apiVersion not rewritten, a warning sending clients to a less stable version) and accept the
// answers a conforming server gives (defaults it adds are not loss; beta may replace beta).
import { describe, expect, it } from 'vitest';
import { judgeRoundTrip, judgeRoundTripWrite, lostFields } from '../../../../reference/versioning/round-trip.ts';
import { judgeDeprecatedInFavour } from '../../../../reference/versioning/deprecation-signals.ts';

const expect0 = { spec: { maxUnavailable: '30%', selector: { matchLabels: { app: 'web' } } }, labels: { run: 'r1' } };
const read = (spec: unknown, labels: unknown, apiVersion = 'policy/v1') => ({
  step: 'read through policy/v1',
  status: 200,
  json: { apiVersion, metadata: { labels }, spec },
  expect: expect0,
  apiVersion: 'policy/v1',
});
const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);

describe('rest:9.3 rule 2: round trip without loss', () => {
  it('accepts the object as written, with fields the server adds', () => {
    expect(verdicts(judgeRoundTrip([read({ ...expect0.spec, extra: 1 }, { run: 'r1', added: 'x' })]))).toEqual(['pass']);
  });
  it('rejects a lost field, a lost label, a wrong apiVersion and a non-200 read', () => {
    expect(verdicts(judgeRoundTrip([read({ selector: expect0.spec.selector }, { run: 'r1' })]))).toEqual(['fail']);
    expect(judgeRoundTrip([read({ selector: expect0.spec.selector }, { run: 'r1' })])[0]!.observed).toContain('spec.maxUnavailable');
    expect(verdicts(judgeRoundTrip([read(expect0.spec, {})]))).toEqual(['fail']);
    expect(verdicts(judgeRoundTrip([read(expect0.spec, { run: 'r1' }, 'policy/v1beta1')]))).toEqual(['fail']);
    expect(verdicts(judgeRoundTrip([{ ...read(expect0.spec, { run: 'r1' }), status: 404 }]))).toEqual(['fail']);
  });
  it('compares lists element by element', () => {
    expect(lostFields({ a: [{ k: 1 }] }, { a: [{ k: 1, d: 2 }] })).toEqual([]);
    expect(lostFields({ a: [1, 2] }, { a: [2, 1] })).toHaveLength(2);
  });
});

describe('rest:9.3 rule 3: deprecated only in favour of a version at least as stable', () => {
  const w = (use: string) => `299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use ${use} CronJob"`;
  it('accepts stable or beta replacing beta, and says nothing without a named replacement', () => {
    expect(verdicts(judgeDeprecatedInFavour('batch/v1beta1', w('batch/v1')))).toEqual(['pass']);
    expect(verdicts(judgeDeprecatedInFavour('flowcontrol.apiserver.k8s.io/v1beta1', w('flowcontrol.apiserver.k8s.io/v1beta2')))).toEqual([
      'pass',
    ]);
    expect(
      judgeDeprecatedInFavour('policy/v1beta1', '299 - "policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+"'),
    ).toEqual([]);
    expect(judgeDeprecatedInFavour('batch/v1beta1', undefined)).toEqual([]);
  });
  it('rejects alpha replacing beta, and beta replacing stable', () => {
    expect(verdicts(judgeDeprecatedInFavour('batch/v1beta1', w('batch/v1alpha1')))).toEqual(['fail']);
    expect(verdicts(judgeDeprecatedInFavour('batch/v1', w('batch/v2beta1')))).toEqual(['fail']);
  });
});

describe('rest:9.3 rule 2: the write back', () => {
  const a = (status: number, reason?: string) => ({ status, bodyText: '', reason });
  it('passes a write served after conflicts with another writer, and decides nothing when every attempt conflicted', () => {
    expect(judgeRoundTripWrite('policy/v1', [a(409, 'Conflict'), a(200)]).verdict).toBe('pass');
    expect(judgeRoundTripWrite('policy/v1', [a(409), a(409)]).verdict).toBe('inconclusive');
    expect(judgeRoundTripWrite('policy/v1', [a(422, 'Conflict')]).verdict).toBe('inconclusive');
  });
  it('fails a write refused for another reason', () => {
    expect(judgeRoundTripWrite('policy/v1', [a(422, 'Invalid')]).verdict).toBe('fail');
    expect(judgeRoundTripWrite('policy/v1', [a(409), a(400, 'BadRequest')]).verdict).toBe('fail');
  });
});
