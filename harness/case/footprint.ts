/**
 * What a run costs the target: namespaces and cluster-scoped objects it created, requests by
 * verb, bytes each way, and wall time per check. Exchanges are attributed to the check that sent them:
 * its requests carry its sink (RECORD_TO, harness/transport/exchange.ts), so concurrent checks keep separate
 * transcripts and counts.
 */
import { recordedBy, type Exchange, type ExchangeRecorder, type Target } from '../transport/index.ts';
import { serialiseBody } from '../transport/index.ts';
import { Transcript } from '../transport/index.ts';
import type { Slowdown } from '../transport/index.ts';
import { economyLine, type RequestEconomy } from './request-economy.ts';
import { countReach, emptyReach, sumReach, type CheckReach } from './reach.ts';

export interface CheckFootprint {
  readonly check: string;
  wallMs: number;
  namespaces: number;
  clusterObjects: number;
  requests: Record<string, number>;
  bytesSent: number;
  bytesReceived: number;
  /** Time its cases waited for a pooled namespace (all were leased). */
  namespaceWaitMs: number;
  /** What its requests reached (answers, table cells, pages, watches): the run's scorecard adds these up. */
  reach?: CheckReach;
}

export interface RunFootprint {
  readonly namespaces: number;
  readonly clusterObjects: number;
  readonly requests: Record<string, number>;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  /** Sum of the checks' wall times; more than the run's when checks ran in parallel. */
  readonly checkWallMs: number;
  readonly parallel?: number;
  /** Every check, slowest first. */
  readonly checks: readonly CheckFootprint[];
  /** Requests and bytes per verdict, added once the verdicts are known (reports/aggregate.ts). */
  readonly perVerdict?: RequestEconomy;
  /** The checks' reach added up (harness/case/reach.ts). */
  readonly reach?: CheckReach;
  /** The target slowed down steadily over the run (harness/transport/pace-trend.ts); absent: it did not. */
  readonly slowdown?: Slowdown;
}

export const emptyFootprint = (check: string): CheckFootprint => ({
  check,
  wallMs: 0,
  namespaces: 0,
  clusterObjects: 0,
  requests: {},
  bytesSent: 0,
  bytesReceived: 0,
  namespaceWaitMs: 0,
});

/** The running check: where its exchanges are recorded and counted. */
export class ExchangeSink implements ExchangeRecorder {
  constructor(
    readonly transcript: Transcript,
    readonly footprint: CheckFootprint,
  ) {}

  record(e: Exchange): void {
    this.transcript.record(e);
    countExchange(this.footprint, e);
  }
}

/** `target` with every request it is handed recorded into `sink` (the layers below pass the tag down). */
export function recordingInto(target: Target, sink: ExchangeRecorder): Target {
  return {
    server: target.server,
    send: (req) => target.send(recordedBy(req, sink)),
    openStream: target.openStream ? (req) => target.openStream!(recordedBy(req, sink)) : undefined,
    close: () => target.close(),
  };
}

const REVIEWS = /reviews$/;

const bodyBytes = (body: string | Uint8Array | undefined): number =>
  body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

/** Counts one exchange into a footprint: verb, bytes, and what it created. */
export function countExchange(fp: CheckFootprint, e: Exchange): void {
  const verb = e.request.method;
  fp.requests[verb] = (fp.requests[verb] ?? 0) + 1;
  fp.bytesSent += e.request.path.length + (e.sentBodyBytes ?? bodyBytes(serialiseBody(e.request.body)));
  countReach((fp.reach ??= emptyReach()), e, e.sentBodyBytes ?? bodyBytes(serialiseBody(e.request.body)));
  const res = e.response;
  if (res) fp.bytesReceived += res.wireBytes ?? res.bodyBytes?.byteLength ?? Buffer.byteLength(res.bodyText);
  if (verb !== 'POST' || !res || res.status < 200 || res.status >= 300) return;
  if ((e.request.query ?? []).some(([k]) => k === 'dryRun')) return;
  const seg = e.request.path.split('/').filter(Boolean);
  const rest = seg[0] === 'api' ? seg.slice(2) : seg.slice(3);
  if (rest.length === 1 && rest[0] === 'namespaces' && seg[0] === 'api') fp.namespaces++;
  else if (rest.length === 1 && !REVIEWS.test(rest[0]!)) fp.clusterObjects++;
}

export function sumFootprints(checks: readonly CheckFootprint[], parallel?: number): RunFootprint {
  const requests: Record<string, number> = {};
  let namespaces = 0,
    clusterObjects = 0,
    bytesSent = 0,
    bytesReceived = 0,
    checkWallMs = 0;
  for (const c of checks) {
    namespaces += c.namespaces;
    clusterObjects += c.clusterObjects;
    bytesSent += c.bytesSent;
    bytesReceived += c.bytesReceived;
    checkWallMs += c.wallMs;
    for (const [v, n] of Object.entries(c.requests)) requests[v] = (requests[v] ?? 0) + n;
  }
  const reach = checks.flatMap((c) => (c.reach !== undefined ? [c.reach] : []));
  return {
    namespaces,
    clusterObjects,
    requests,
    bytesSent,
    bytesReceived,
    checkWallMs: Math.round(checkWallMs),
    parallel,
    checks: [...checks].sort((a, b) => b.wallMs - a.wallMs),
    reach: reach.length > 0 ? sumReach(reach) : undefined,
  };
}

/** A few lines for terminals and the bench. */
export function footprintLines(f: RunFootprint, slowest = 5): string[] {
  const verbs = Object.entries(f.requests)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  return [
    `footprint: ${f.namespaces} namespaces, ${f.clusterObjects} cluster-scoped objects created; requests ${verbs || 'none'}; sent ${kib(f.bytesSent)}, received ${kib(f.bytesReceived)}`,
    `slowest checks: ${f.checks
      .slice(0, slowest)
      .map((c) => `${c.check} ${(c.wallMs / 1000).toFixed(1)} s`)
      .join(', ')}`,
    ...(f.perVerdict ? [economyLine(f.perVerdict)] : []),
    ...(f.slowdown ? [f.slowdown.line] : []),
  ];
}
