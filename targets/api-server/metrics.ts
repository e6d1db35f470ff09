/**
 * `/metrics` (rest:4.2.4) in the Prometheus text format, with the gauge of rest:9.3
 * `apiserver_requested_deprecated_apis` set to 1 for every deprecated resource that was requested,
 * and the request counter it is meant to be joined with.
 */
import type { ServerResponse } from 'node:http';
import { DEPRECATED_APIS_GAUGE } from '../../reference/versioning/deprecation-signals.ts';
import { deprecatedDescription } from '../../reference/versioning/metrics.ts';
import { addReleases } from '../../reference/versioning/release.ts';
import { has, type ServerState } from './state.ts';
import { serverRelease } from './server-versioning.ts';

interface Metrics {
  /** Gauge of rest:9.3: label text -> requests seen (the gauge itself reads 1). */
  readonly deprecated: Map<string, number>;
  readonly requests: Map<string, { labels: Readonly<Record<string, string>>; count: number }>;
}

const perServer = new WeakMap<ServerState, Metrics>();

function metricsOf(st: ServerState): Metrics {
  let m = perServer.get(st);
  if (!m) {
    m = { deprecated: new Map(), requests: new Map() };
    perServer.set(st, m);
  }
  return m;
}

const labelText = (labels: Readonly<Record<string, string>>) =>
  `{${Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',')}}`;

export function recordDeprecatedRequest(st: ServerState, labels: Readonly<Record<string, string>>): void {
  // The planted bug: the deprecation filter never reaches the gauge.
  if (has(st, 'deprecated-gauge-unset')) return;
  const m = metricsOf(st);
  const key = labelText(labels);
  m.deprecated.set(key, (m.deprecated.get(key) ?? 0) + 1);
}

export function recordRequest(st: ServerState, labels: Readonly<Record<string, string>>): void {
  const m = metricsOf(st);
  const key = labelText(labels);
  const entry = m.requests.get(key) ?? { labels, count: 0 };
  entry.count++;
  m.requests.set(key, entry);
}

export function serveMetrics(st: ServerState, method: string | undefined, pathname: string, res: ServerResponse): boolean {
  if (pathname !== '/metrics' || method !== 'GET') return false;
  // Planted fault metrics-not-served (clause-faults.ts).
  if (has(st, 'metrics-not-served')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
    return true;
  }
  const m = metricsOf(st);
  const lines = [
    `# HELP ${DEPRECATED_APIS_GAUGE} [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.`,
    `# TYPE ${DEPRECATED_APIS_GAUGE} gauge`,
    // The planted bug: the gauge counts requests like a counter instead of reading 1.
    ...[...m.deprecated.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${DEPRECATED_APIS_GAUGE}${k} ${has(st, 'deprecated-gauge-counts') ? n : 1}`),
    '# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, group, version, resource and HTTP response code.',
    '# TYPE apiserver_request_total counter',
    ...[...m.requests.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, e]) => `apiserver_request_total${k} ${e.count}`),
    ...deprecatedMetrics(st),
  ];
  const text = `${lines.join('\n')}\n`;
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  return true;
}

/**
 * A metric deprecated in the previous release, shown with its notice (rest:9.3/deprecated-metrics);
 * with the deleted-metric-served fault also one deprecated four releases ago, which must be gone.
 */
function deprecatedMetrics(st: ServerState): string[] {
  const release = serverRelease(st);
  const family = (name: string, age: number, help: string) => [
    `# HELP ${name} [ALPHA] ${deprecatedDescription(help, addReleases(release, -age))}`,
    `# TYPE ${name} gauge`,
    `${name} 0`,
  ];
  return [
    ...family('apiserver_longrunning_gauge', 1, 'Gauge of all active long-running apiserver requests.'),
    ...(has(st, 'deleted-metric-served')
      ? family('etcd_object_counts', 4, 'Number of stored objects at the time of last check split by kind.')
      : []),
  ];
}
