/**
 * `npm run bench`: checked operations per second against the embedded reference server, and the very
 * same requests replayed by a plain undici loop with no model and no checks (their ratio: the checked
 * loop's overhead, in wall time); then a whole default run, its CPU by folder, and its requests replayed
 * bare for the harness's overhead ratio in CPU (scripts/dev/bench-run.ts). Figures only: nothing here
 * asserts on time.
 */
import { benchServer, benchSession } from './bench-target.ts';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { Pool } from 'undici';
import { CaseContext } from '../../harness/case/index.ts';
import { Tally } from '../../harness/case/index.ts';
import { runOp } from '../../harness/interpreters/index.ts';
import { releaseCaseNamespaces } from '../../harness/case/index.ts';
import { runFootprintLines } from './bench-run.ts';
import { opsArb } from '../../generators/ops.ts';
import { queryToString, type Exchange, type QueryPair } from '../../harness/transport/index.ts';
import { benchWatch } from './bench-watch.ts';
import { applyBenchLines } from './bench-apply.ts';
import { concurrencyBenchLines } from './bench-concurrency.ts';

const CASES = Number(process.env['BENCH_CASES'] ?? 400);

async function checkedRun(): Promise<{ ms: number; requests: Exchange[]; ops: number }> {
  const opened = await benchSession({ runId: 'bench' });
  const inputs = fc.sample(opsArb({ resources: ['configmaps', 'leases'], namespaces: 2 }, { maxLength: 14 }), { seed: 7, numRuns: CASES });
  const tally = new Tally();
  let ops = 0;
  const t0 = performance.now();
  for (const [i, input] of inputs.entries()) {
    const cx = new CaseContext(opened.env, tally, i);
    for (const op of input) {
      await runOp(cx, op);
      ops++;
    }
    await releaseCaseNamespaces(cx);
  }
  const ms = performance.now() - t0;
  const requests = [...opened.env.transcript.all()];
  await opened.close();
  return { ms, requests, ops };
}

/**
 * The versions a replayed answer carries, paired with those of the recorded one: the replay server
 * numbers its writes on its own (the namespace pool's deletions run concurrently, so the order of
 * writes, and with it every version, may differ), and a request naming a recorded version must name
 * the replay's, or the server waits for a version it will never reach and answers 504.
 */
function versionsOf(json: unknown): string[] {
  const b = json as { metadata?: { resourceVersion?: unknown }; items?: { metadata?: { resourceVersion?: unknown } }[] } | undefined;
  return [b?.metadata?.resourceVersion, ...(Array.isArray(b?.items) ? b.items.map((it) => it?.metadata?.resourceVersion) : [])].filter(
    (v): v is string => typeof v === 'string',
  );
}

async function plainRun(requests: readonly Exchange[]): Promise<number> {
  // A version learned from a watch event is not in any recorded body, so a few requests still name a
  // version the replay never reaches: answered at once rather than after the usual wait.
  const { server } = await benchServer({}, { tooLargeWaitMs: 0 });
  const pool = new Pool(server.url, { connections: 1 });
  const replayed = new Map<string, string>();
  const t0 = performance.now();
  for (const e of requests) {
    const r = e.request;
    const query = (r.query ?? []).map(([k, v]): QueryPair => [k, k === 'resourceVersion' && v !== null ? (replayed.get(v) ?? v) : v]);
    const res = await pool.request({
      method: r.method,
      path: r.path + queryToString(query),
      headers: { accept: 'application/json', ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}),
    });
    const text = await res.body.text();
    const recorded = versionsOf(e.response?.json);
    if (recorded.length > 0) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      versionsOf(json).forEach((v, i) => recorded[i] !== undefined && replayed.set(recorded[i], v));
    }
  }
  const ms = performance.now() - t0;
  await pool.close();
  await server.close();
  return ms;
}

// One untimed round of each first, so neither side pays for JIT warm-up in the figures.
await plainRun((await checkedRun()).requests);
const checked = await checkedRun();
const plainMs = await plainRun(checked.requests);
const n = checked.requests.length;
const fmt = (x: number) => x.toFixed(0).padStart(8);
process.stdout.write(
  [
    `svc-conformance bench: ${CASES} generated CRUD/list sequences, ${checked.ops} operations, ${n} HTTP requests`,
    `checked (model + judges + transcript): ${fmt(checked.ms)} ms  ${fmt((n / checked.ms) * 1000)} requests/s  ${fmt((checked.ops / checked.ms) * 1000)} operations/s`,
    `plain undici loop, same requests:      ${fmt(plainMs)} ms  ${fmt((n / plainMs) * 1000)} requests/s`,
    `CRUD loop overhead (checked / plain):   ${(checked.ms / plainMs).toFixed(2)}x`,
    ...(await benchWatch()),
    ...(await applyBenchLines(CASES)),
    ...(await concurrencyBenchLines()),
    ...(await runFootprintLines(process.argv.slice(2))),
    '',
  ].join('\n'),
);
