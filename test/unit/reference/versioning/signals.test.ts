import { describe, expect, it } from 'vitest';
import { profiles } from '../../../../reference/profile.ts';
import { removals } from '../../../../reference/versioning/removals.ts';
import {
  deprecatedAuditAnnotations,
  deprecatedGaugeLabels,
  deprecationWarningText,
  formatWarning,
  judgeDeprecatedGauge,
  judgeDeprecationWarning,
  parsePrometheusText,
  parseWarnings,
} from '../../../../reference/versioning/deprecation-signals.ts';
import { judgeAggregate, judgeSingle, parseHealthLines } from '../../../../reference/health.ts';
import { validateEventV1Create } from '../../../../reference/events-v1.ts';
import { judgeDeprecatedMetrics } from '../../../../reference/versioning/metrics-judge.ts';

const cronjobs = removals.find((r) => r.resource === 'cronjobs')!;
const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);

describe('Warning header (rest:7.4, RFC 7234 5.5)', () => {
  it('round-trips formatted warnings, commas and quotes inside the text', () => {
    const text = deprecationWarningText(profiles.svc, cronjobs);
    expect(text).toBe('batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob');
    const two = `${formatWarning(text)}, ${formatWarning('say "hi"')}`;
    expect(parseWarnings(two)).toEqual([
      { code: 299, agent: '-', text },
      { code: 299, agent: '-', text: 'say "hi"' },
    ]);
    expect(parseWarnings('299 - "x" "Sat, 01 Jan 2000 00:00:00 GMT"')).toEqual([
      { code: 299, agent: '-', text: 'x', date: 'Sat, 01 Jan 2000 00:00:00 GMT' },
    ]);
  });
  it('refuses malformed values', () => {
    for (const bad of ['deprecated', '29 - "x"', '299 - x', '299 - "x', '299 - "x" junk']) expect(parseWarnings(bad), bad).toBeUndefined();
  });
  it('judges: deprecated needs one, non-deprecated must not be called deprecated, listed is open', () => {
    expect(verdicts(judgeDeprecationWarning('deprecated', 'batch/v1beta1', formatWarning('old')))).toEqual(['pass']);
    expect(verdicts(judgeDeprecationWarning('deprecated', 'batch/v1beta1', undefined))).toEqual(['fail']);
    expect(verdicts(judgeDeprecationWarning('deprecated', 'batch/v1beta1', 'old'))).toEqual(['fail']);
    expect(verdicts(judgeDeprecationWarning('unlisted', 'batch/v1', undefined))).toEqual(['pass']);
    expect(verdicts(judgeDeprecationWarning('unlisted', 'batch/v1', formatWarning('unknown field "x"')))).toEqual(['pass']);
    expect(verdicts(judgeDeprecationWarning('unlisted', 'batch/v1', formatWarning('batch/v1 is deprecated')))).toEqual(['fail']);
    expect(verdicts(judgeDeprecationWarning('listed', 'policy/v1beta1', undefined))).toEqual(['unspecified']);
  });
});

describe('audit annotation and gauge (rest:6.3, rest:9.3)', () => {
  it('annotation per profile', () => {
    expect(deprecatedAuditAnnotations(profiles.svc)).toEqual({ 'svc.io/deprecated': 'true' });
    expect(deprecatedAuditAnnotations(profiles.k8s)).toEqual({ 'k8s.io/deprecated': 'true' });
  });
  it('finds the gauge with its labels, and not a near miss', () => {
    const labels = deprecatedGaugeLabels(profiles.svc, cronjobs);
    expect(labels).toEqual({ group: 'batch', version: 'v1beta1', resource: 'cronjobs', subresource: '', removed_release: '1.25' });
    const text =
      '# HELP apiserver_requested_deprecated_apis x\n# TYPE apiserver_requested_deprecated_apis gauge\napiserver_requested_deprecated_apis{group="batch",removed_release="1.25",resource="cronjobs",subresource="",version="v1beta1"} 1\n';
    expect(judgeDeprecatedGauge(parsePrometheusText(text), labels).verdict).toBe('pass');
    expect(judgeDeprecatedGauge(parsePrometheusText(text.replace('"1.25"', '"1.26"')), labels).verdict).toBe('fail');
    expect(judgeDeprecatedGauge(parsePrometheusText(text.replace('} 1', '} 0')), labels).verdict).toBe('fail');
    expect(judgeDeprecatedGauge([], labels).verdict).toBe('fail');
  });
});

describe('health (rest:4.2)', () => {
  const body = '[+]ping ok\n[+]etcd excluded: ok\n[+]poststarthook/x ok\nhealthz check passed\n';
  it('reads check names between [+] and ok', () => {
    expect(parseHealthLines(body)).toEqual({
      checks: [
        { name: 'ping', excluded: false },
        { name: 'etcd', excluded: true },
        { name: 'poststarthook/x', excluded: false },
      ],
      malformed: [],
      last: 'healthz check passed',
    });
  });
  it('verbose and exclude pass when right and fail on near misses', () => {
    expect(verdicts(judgeAggregate('healthz', { verbose: true, exclude: ['etcd'] }, { status: 200, body }))).not.toContain('fail');
    expect(
      verdicts(
        judgeAggregate(
          'healthz',
          { verbose: true, exclude: ['etcd'] },
          { status: 200, body: body.replace('etcd excluded: ok', 'etcd ok') },
        ),
      ),
    ).toContain('fail');
    expect(verdicts(judgeAggregate('healthz', { verbose: true, exclude: [] }, { status: 200, body }))).toContain('fail');
    expect(
      verdicts(judgeAggregate('livez', { verbose: true, exclude: [] }, { status: 200, body: 'ping ok\nlivez check passed' })),
    ).toContain('fail');
    expect(
      verdicts(judgeAggregate('healthz', { verbose: true, exclude: [] }, { status: 200, body: '[+]ping ok\nlivez check passed' })),
    ).toContain('fail');
  });
  it('wording the spec does not fix is unspecified, never failed', () => {
    const js = judgeAggregate('livez', { verbose: true, exclude: [] }, { status: 200, body: '[+]ping ok\nlivez check passed' });
    expect(verdicts(js)).not.toContain('fail');
    expect(verdicts(js)).toContain('unspecified');
    expect(verdicts(judgeAggregate('readyz', { verbose: false, exclude: [] }, { status: 200, body: 'whatever' }))).not.toContain('fail');
    expect(verdicts(judgeAggregate('readyz', { verbose: true, exclude: [] }, { status: 500, body: '[-]etcd failed' }))).toEqual([
      'unspecified',
    ]);
  });
  it('an individual check listed as ok must exist and answer 200', () => {
    expect(verdicts(judgeSingle('livez', 'ping', { status: 200, body: 'ok' }))).toEqual(['pass', 'pass']);
    expect(verdicts(judgeSingle('livez', 'ping', { status: 404, body: '' }))).toEqual(['fail']);
  });
});

describe('events/v1 on create (rest:6.2)', () => {
  const ok = {
    type: 'Normal',
    action: 'Pulled',
    reason: 'Started',
    reportingController: 'x.io/c',
    reportingInstance: 'c-1',
    eventTime: '2026-01-01T00:00:00.000000Z',
    regarding: { kind: 'Pod', name: 'p' },
  };
  it('accepts a complete event', () => expect(validateEventV1Create(ok)).toEqual([]));
  it('refuses each broken rule with its clause', () => {
    expect(validateEventV1Create({ ...ok, type: 'Info' }).map((e) => e.clause)).toEqual(['rest:6.2/type']);
    expect(validateEventV1Create({ ...ok, type: undefined }).map((e) => e.clause)).toEqual(['rest:6.2/type']);
    expect(validateEventV1Create({ ...ok, action: undefined }).map((e) => e.field)).toEqual(['action']);
    expect(validateEventV1Create({ ...ok, reportingInstance: '' }).map((e) => e.field)).toEqual(['reportingInstance']);
    expect(validateEventV1Create({ ...ok, deprecatedCount: 3 }).map((e) => e.clause)).toEqual(['rest:6.2/deprecated-fields']);
    expect(validateEventV1Create({ ...ok, deprecatedSource: { host: 'n1' } }).map((e) => e.field)).toEqual(['deprecatedSource.host']);
    expect(validateEventV1Create({ ...ok, deprecatedSource: {} })).toEqual([]);
  });
});

describe('deprecated metrics on an exposition (rest:9.3/deprecated-metrics)', () => {
  const expo = (help: string) => `# HELP m_total ${help}\n# TYPE m_total counter\nm_total 3\n`;
  const at = { major: 1, minor: 24 };
  it('a metric deprecated two releases ago is shown with a leading notice; upstream wording reads the same', () => {
    expect(verdicts(judgeDeprecatedMetrics(expo('(Deprecated from 1.22) requests'), at))).toEqual(['pass']);
    expect(verdicts(judgeDeprecatedMetrics(expo('[ALPHA] (Deprecated since 1.22.0) requests'), at))).toEqual(['pass']);
    expect(verdicts(judgeDeprecatedMetrics(expo('requests (Deprecated from 1.22)'), at))).toEqual(['fail']);
  });
  it('hidden at current - 3 is unspecified (the option is not visible); deleted at current - 4 fails', () => {
    expect(verdicts(judgeDeprecatedMetrics(expo('(Deprecated from 1.21) requests'), at))).toEqual(['unspecified']);
    expect(verdicts(judgeDeprecatedMetrics(expo('(Deprecated from 1.20) requests'), at))).toEqual(['fail']);
    expect(verdicts(judgeDeprecatedMetrics(expo('requests'), at))).toEqual(['pass']);
  });
});
