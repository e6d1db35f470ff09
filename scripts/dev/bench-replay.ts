/**
 * The harness's overhead ratio: a default run's requests, every one its clients sent to the
 * API server, replayed in the order they were sent by a bare undici pool, one connection, against a
 * fresh embedded server of the same plan: no model, no judges, no transcript, no reports, no daemons.
 * The replay's CPU (user+sys of this process: server and client both run here, as in the run) is what
 * the same requests cost on their own; the run's CPU over it is the overhead. Figures only.
 */
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import type { Exchange } from '../../harness/transport/index.ts';
import type { EmbeddedTargetSpec } from '../../runner/embedded.ts';
import { benchServer } from './bench-target.ts';
import { learnVersions, replayRequest } from './replay-requests.ts';

export interface ReplayFigures {
  readonly requests: number;
  /** Answers with the status the run got: the replay is faithful to the extent this is close to `requests`. */
  readonly sameStatus: number;
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

function parsed(headers: Record<string, string | string[] | undefined>, bytes: Buffer): unknown {
  if (!/json/i.test(String(headers['content-type'] ?? ''))) return undefined;
  try {
    return JSON.parse((headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** One request on the pool: its status and, when JSON, its body; a watch is closed once its headers came. */
async function sendOne(pool: Pool, e: Exchange, token: string | undefined, versions: Map<string, string>): Promise<number | undefined> {
  const r = replayRequest(e, token, versions);
  try {
    const res = await pool.request({
      method: r.method as 'GET',
      path: r.path,
      headers: r.headers,
      body: r.body ?? null,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    if (r.stream) {
      res.body.on('error', () => undefined);
      res.body.destroy();
      return res.statusCode;
    }
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (e.response?.json !== undefined) learnVersions(e.response.json, parsed(res.headers, bytes), versions);
    return res.statusCode;
  } catch {
    return undefined;
  }
}

/** A run of the `svc` profile (the bench's embedded run): the replay server is of the same. */
export async function replayRun(exchanges: readonly Exchange[], spec: EmbeddedTargetSpec): Promise<ReplayFigures> {
  // A read of a version the replay never reaches (one learned from a watch event) answers at once.
  const target = await benchServer(spec, { access: 'run', tooLargeWaitMs: 0 });
  const pool = new Pool(target.server.url, { connections: 1 });
  const versions = new Map<string, string>();
  let sameStatus = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    for (const e of exchanges) if ((await sendOne(pool, e, target.token, versions)) === e.response?.status) sameStatus++;
  } finally {
    await pool.close();
    await target.close();
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    requests: exchanges.length,
    sameStatus,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    wallSeconds: (performance.now() - t0) / 1000,
  };
}
