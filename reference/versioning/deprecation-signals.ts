/**
 * The signals of a request to a deprecated endpoint (rest:9.3 last paragraph, rest:7.4, rest:6.3): the
 * `Warning` response header (RFC 7234 section 5.5), the audit annotation, and the gauge
 * `apiserver_requested_deprecated_apis`.
 *
 *   formatWarning('batch/v1beta1 CronJob is deprecated') -> '299 - "batch/v1beta1 CronJob is deprecated"'
 *   parseWarnings('299 - "a, b", 299 - "c"') -> [{ code: 299, agent: '-', text: 'a, b' }, { code: 299, agent: '-', text: 'c' }]
 */
import { fail, inconclusive, rule, unspecified, type Judgement } from '../judgement.ts';
import type { Profile } from '../profile.ts';
import { formatRelease } from './release.ts';
import { groupVersionOf, removedReleaseLabel, type Removal, type Serving } from './removals.ts';
import { stabilityOf } from './stability.ts';

export interface WarnValue {
  readonly code: number;
  readonly agent: string;
  readonly text: string;
  readonly date?: string;
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** RFC 7234 5.5: `warn-code SP warn-agent SP warn-text`; 299 "Miscellaneous Persistent Warning". */
export const formatWarning = (text: string, agent = '-', code = 299): string => `${code} ${agent} ${quote(text)}`;

/**
 * Parses a (possibly combined, comma-separated) Warning header value. Undefined when any warn-value
 * is malformed: 3-digit code, agent token, quoted text with backslash escapes, optional quoted date.
 */
export function parseWarnings(value: string): WarnValue[] | undefined {
  const out: WarnValue[] = [];
  let i = 0;
  const ws = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  const quoted = (): string | undefined => {
    if (value[i] !== '"') return undefined;
    let s = '';
    for (i++; i < value.length; i++) {
      const ch = value[i]!;
      if (ch === '\\') s += value[++i] ?? '';
      else if (ch === '"') {
        i++;
        return s;
      } else s += ch;
    }
    return undefined;
  };
  for (;;) {
    ws();
    const m = /^(\d{3}) ([^\s",]+) /.exec(value.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    const text = quoted();
    if (text === undefined) return undefined;
    let date: string | undefined;
    if (value[i] === ' ' && value[i + 1] === '"') {
      i++;
      date = quoted();
      if (date === undefined) return undefined;
    }
    out.push({ code: Number(m[1]), agent: m[2]!, text, date });
    ws();
    if (i >= value.length) return out;
    if (value[i] !== ',') return undefined;
    i++;
  }
}

/** The text the reference server sends, in upstream's wording. */
export function deprecationWarningText(profile: Profile, r: Removal): string {
  const since = r.replacement ? ` in ${formatRelease(r.replacement.since)}+` : '';
  const use = r.replacement ? `; use ${groupVersionOf(profile, r.replacement.group, r.replacement.version)} ${r.kind}` : '';
  return `${groupVersionOf(profile, r.group, r.version)} ${r.kind} is deprecated${since}, unavailable in ${formatRelease(r.removedIn)}+${use}`;
}

const mentionsDeprecation = (w: WarnValue) => /deprecat/i.test(w.text);

/**
 * rest:7.4 on one response of a group version whose table standing is `serving`:
 * - deprecated: at least one well-formed warn-value (any code; upstream sends 299);
 * - unlisted (not deprecated as far as the spec knows): no warning that calls it deprecated (other
 *   warnings are outside the spec);
 * - listed without a replacement yet: unspecified.
 */
export function judgeDeprecationWarning(serving: Serving, what: string, header: string | undefined): Judgement[] {
  const parsed = header === undefined ? undefined : parseWarnings(header);
  if (serving === 'deprecated') {
    return [
      rule(
        'rest:7.4',
        parsed !== undefined && parsed.length > 0,
        `${what} is deprecated: a Warning header (RFC 7234 5.5 warn-value)`,
        header === undefined ? 'no Warning header' : `Warning: ${header}`,
      ),
    ];
  }
  if (serving === 'unlisted') {
    const bad = (parsed ?? []).filter(mentionsDeprecation);
    return [
      rule(
        'rest:7.4',
        bad.length === 0,
        `${what} is not deprecated: no Warning calling it deprecated`,
        header === undefined ? 'no Warning header' : `Warning: ${header}`,
      ),
    ];
  }
  // A removed version answering is judged by its rest:9.4 row, not here.
  if (serving === 'removed') return [];
  return [
    unspecified(
      'rest:7.4',
      `${what} is listed for removal but has no replacement yet: deprecation not fixed`,
      header === undefined ? 'no Warning header' : `Warning: ${header}`,
    ),
  ];
}

const STABILITY_RANK = { alpha: 0, beta: 1, stable: 2 } as const;

/**
 * rest:9.3 rule 3 on the deprecation Warning of `deprecatedGv` (a served version that announces its
 * deprecation): the version it names as the one to use instead ("...; use policy/v1 PodDisruptionBudget",
 * upstream's wording) is at least as stable. A warning naming no replacement says nothing about it.
 *
 *   judgeDeprecatedInFavour('batch/v1beta1', '299 - "... deprecated ...; use batch/v1 CronJob"') -> pass
 *   judgeDeprecatedInFavour('batch/v1beta1', '299 - "... deprecated ...; use batch/v1alpha1 CronJob"') -> fail
 */
export function judgeDeprecatedInFavour(deprecatedGv: string, header: string | undefined): Judgement[] {
  const from = stabilityOf(deprecatedGv.slice(deprecatedGv.lastIndexOf('/') + 1));
  if (from === undefined || header === undefined) return [];
  const named = (parseWarnings(header) ?? []).filter(mentionsDeprecation).flatMap((w) => {
    const m = /\buse ([a-z0-9.-]+\/)?(v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\b/.exec(w.text);
    return m ? [`${m[1] ?? ''}${m[2]!}`] : [];
  });
  return named.map((gv) => {
    const to = stabilityOf(gv.slice(gv.lastIndexOf('/') + 1));
    const holds = to !== undefined && STABILITY_RANK[to] >= STABILITY_RANK[from];
    return rule(
      'rest:9.3/rule-3',
      holds,
      `${deprecatedGv} (${from}) is deprecated in favour of a version at least as stable`,
      `its Warning names ${gv} (${to ?? 'no stability level'})`,
    );
  });
}

/** rest:6.3: the audit annotation of a request to a deprecated endpoint. */
export const deprecatedAuditAnnotations = (profile: Profile): Readonly<Record<string, string>> => ({
  [profile.deprecatedAnnotation]: 'true',
});

export const DEPRECATED_APIS_GAUGE = 'apiserver_requested_deprecated_apis';

/** rest:9.3: the gauge's labels for a request to `r`. */
export function deprecatedGaugeLabels(profile: Profile, r: Removal, subresource = ''): Readonly<Record<string, string>> {
  const gv = groupVersionOf(profile, r.group, r.version);
  return {
    group: gv.slice(0, gv.lastIndexOf('/')),
    version: r.version,
    resource: r.resource,
    subresource,
    removed_release: removedReleaseLabel(r),
  };
}

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (comments skipped); enough for gauges and counters. */
export function parsePrometheusText(text: string): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
    for (let l = re.exec(m[3] ?? ''); l; l = re.exec(m[3] ?? ''))
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1]!, labels, value: Number(m[4]) });
  }
  return out;
}

/** rest:9.3/deprecated-endpoint: after a request to `labels`' group version the gauge reads 1. */
export function judgeDeprecatedGauge(samples: readonly Sample[], labels: Readonly<Record<string, string>>): Judgement {
  const same = (s: Sample) => Object.entries(labels).every(([k, v]) => s.labels[k] === v);
  const hit = samples.find((s) => s.name === DEPRECATED_APIS_GAUGE && same(s));
  const expected = `${DEPRECATED_APIS_GAUGE}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}} 1`;
  if (!hit) {
    const others = samples.filter((s) => s.name === DEPRECATED_APIS_GAUGE).map((s) => JSON.stringify(s.labels));
    return fail(
      'rest:9.3/deprecated-endpoint',
      expected,
      others.length === 0 ? `no ${DEPRECATED_APIS_GAUGE} sample` : `only ${others.slice(0, 3).join('; ')}`,
    );
  }
  return rule('rest:9.3/deprecated-endpoint', hit.value === 1, expected, `value ${hit.value}`);
}

/**
 * rest:9.3/deprecated-endpoint for each request made to a deprecated group version (`labels`, one per
 * request), on the GET /metrics answer that followed: the gauge of each, or, when /metrics did not
 * answer 200 (credentials that may not read it), unspecified: the gauge cannot be read.
 *
 *   judgeDeprecatedGauges(403, '', [labels]) -> [unspecified rest:9.3/deprecated-endpoint ... 'GET /metrics answered 403 ...']
 */
export function judgeDeprecatedGauges(status: number, body: string, labels: readonly Readonly<Record<string, string>>[]): Judgement[] {
  if (status !== 200)
    return [
      unspecified(
        'rest:9.3/deprecated-endpoint',
        'the gauge is read from /metrics',
        `GET /metrics answered ${status} (not authorized for these credentials?)`,
      ),
    ];
  const samples = parsePrometheusText(body);
  return labels.map((l) => judgeDeprecatedGauge(samples, l));
}

/** One GET /metrics answer, each over a connection of its own (behind a balancer: maybe another server). */
export interface MetricsScrape {
  readonly status: number;
  readonly body: string;
}

/** Scrapes of /metrics the check makes at most after its deprecated requests (see judgeDeprecatedGaugeScrapes). */
// Eight: through a balancer that picks servers at random, all eight landing on one server of two that
// did not serve the request (a wrong `fail`) happens once in 128 cases; a round-robin one alternates.
export const DEPRECATED_GAUGE_SCRAPES = 8;

/**
 * Which server process answered a scrape: the Prometheus process collector's start time, which differs
 * between two processes started apart (an HA pair, a restarted server). Undefined when not exposed.
 */
export function serverInstanceOf(samples: readonly Sample[]): string | undefined {
  const s = samples.find((x) => x.name === 'process_start_time_seconds');
  return s === undefined ? undefined : String(s.value);
}

type GaugeLabels = Readonly<Record<string, string>>;
const sameLabels = (labels: GaugeLabels) => (s: Sample) =>
  s.name === DEPRECATED_APIS_GAUGE && Object.entries(labels).every(([k, v]) => s.labels[k] === v);

/**
 * Whether more scrapes could change the verdict: false once every gauge was seen (at whatever value),
 * or /metrics refused (the credentials may not read it).
 */
export function deprecatedGaugeScrapesDecided(scrapes: readonly MetricsScrape[], labels: readonly GaugeLabels[]): boolean {
  if (scrapes.some((m) => m.status !== 200)) return true;
  const samples = scrapes.map((m) => parsePrometheusText(m.body));
  return labels.every((l) => samples.some((ss) => ss.some(sameLabels(l))));
}

/**
 * rest:9.3/deprecated-endpoint after requests to deprecated group versions (`labels`, one per request),
 * on the GET /metrics answers that followed, each over a fresh connection. The spec says the request
 * sets the gauge to 1; the gauge is the state of the server process that served the request. Behind a
 * balancer (every HA cluster) a scrape may reach another server, whose gauge says nothing about this
 * request, and the client cannot choose the server. So, per request:
 * - a scrape with the gauge at 1: pass; at another value: fail (the spec fixes the value, on any server);
 * - on none of the scrapes: fail when they all came from one server process (or none tells which: then
 *   the target shows no sign of being more than one, as the embedded server and a lone kube-apiserver),
 *   since that process served the request; inconclusive when they came from two or more, as the
 *   server that served the request may be one no scrape reached.
 * A /metrics that refuses is unspecified (credentials that may not read it), as in judgeDeprecatedGauges.
 *
 *   judgeDeprecatedGaugeScrapes([{ status: 200, body: 'process_start_time_seconds 1\n' }, { status: 200, body: 'process_start_time_seconds 2\n' }], [labels])
 *   -> [inconclusive rest:9.3/deprecated-endpoint ... 'not on any of 2 scrapes, answered by 2 server processes']
 */
export function judgeDeprecatedGaugeScrapes(scrapes: readonly MetricsScrape[], labels: readonly GaugeLabels[]): Judgement[] {
  const refused = scrapes.find((m) => m.status !== 200);
  if (refused !== undefined || scrapes.length === 0) return judgeDeprecatedGauges(refused?.status ?? 0, '', labels);
  const samples = scrapes.map((m) => parsePrometheusText(m.body));
  const instances = new Set(samples.map(serverInstanceOf).filter((x): x is string => x !== undefined));
  return labels.map((l) => {
    const seen = samples.map((ss) => ss.find(sameLabels(l))).filter((x): x is Sample => x !== undefined);
    const wrong = seen.find((x) => x.value !== 1);
    if (wrong !== undefined || seen.length > 0) return judgeDeprecatedGauge([wrong ?? seen[0]!], l);
    const judged = judgeDeprecatedGauge(samples.flat(), l);
    if (instances.size < 2) return judged;
    return inconclusive(
      'rest:9.3/deprecated-endpoint',
      `${judged.expected} on the server that served the request`,
      `not on any of ${scrapes.length} scrapes, answered by ${instances.size} server processes (process_start_time_seconds ${[...instances].join(', ')}): the one that served the request may be another`,
    );
  });
}
