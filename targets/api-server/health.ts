/**
 * `/healthz` (deprecated since v1.16, so it answers with a Warning), `/livez`, `/readyz` and the
 * individual checks below the last two (rest:4.2), in upstream's plain-text format. Every check of
 * the reference server passes: it has nothing that can be unhealthy.
 */
import type { ServerResponse } from 'node:http';
import { excludedLine, okLine, type HealthEndpoint } from '../../reference/health.ts';
import { formatWarning } from '../../reference/versioning/deprecation-signals.ts';
import { has, type ServerState } from './state.ts';

const LIVEZ = ['ping', 'log', 'etcd', 'poststarthook/start-informers', 'poststarthook/bootstrap-controller'];
const CHECKS: Readonly<Record<HealthEndpoint, readonly string[]>> = {
  healthz: LIVEZ,
  livez: LIVEZ,
  readyz: [...LIVEZ, 'informer-sync', 'shutdown'],
};

function write(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Writes the answer and returns true when `pathname` is a health endpoint; false otherwise. */
export function serveHealth(st: ServerState, method: string | undefined, url: URL, res: ServerResponse): boolean {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(url.pathname);
  if (!m || method !== 'GET') return false;
  const endpoint = m[1] as HealthEndpoint;
  const checks = CHECKS[endpoint];
  const headers: Record<string, string> =
    endpoint === 'healthz' ? { warning: formatWarning('/healthz is deprecated since v1.16; use /livez or /readyz') } : {};
  const single = m[2];
  if (single !== undefined) {
    let name: string;
    try {
      name = decodeURIComponent(single);
    } catch {
      name = single;
    }
    if (!checks.includes(name)) write(res, 404, `404 page not found\n`, headers);
    // Planted fault health-single-check-missing (clause-faults.ts): the checks the aggregate lists are not served.
    else if (has(st, 'health-single-check-missing')) write(res, 404, `404 page not found\n`, headers);
    else if (has(st, endpoint === 'livez' ? 'health-single-livez-check-refused' : 'health-single-readyz-check-refused'))
      write(res, 400, `the check ${name} cannot be asked for alone\n`, headers);
    else write(res, 200, url.searchParams.has('verbose') ? `${okLine(name)}\n${endpoint} check passed\n` : 'ok', headers);
    return true;
  }
  const exclude = new Set(
    url.searchParams
      .getAll('exclude')
      .flatMap((e) => e.split(','))
      .filter((e) => e !== ''),
  );
  if (!url.searchParams.has('verbose')) {
    write(res, 200, 'ok', headers);
    return true;
  }
  const unmarked = has(st, 'health-verbose-unmarked');
  const lines = checks.map((c) => {
    const line = exclude.has(c) && !has(st, 'health-exclude-ignored') ? excludedLine(c) : okLine(c);
    return unmarked ? line.replace('[+]', '') : line;
  });
  const unknown = [...exclude].filter((e) => !checks.includes(e));
  if (unknown.length > 0)
    lines.push(`warn: some health checks cannot be excluded: no matches for ${unknown.map((u) => JSON.stringify(u)).join(',')}`);
  lines.push(`${endpoint} check passed`);
  write(res, 200, `${lines.join('\n')}\n`, headers);
  return true;
}
