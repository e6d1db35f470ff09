/**
 * Watch figures for `npm run bench`: how many events per second the watch oracle judges (pure, no
 * server), and what one case of the informer check costs against the embedded server, run as the
 * command line runs checks (planRun -> executeRun). Figures only.
 */
import { performance } from 'node:perf_hooks';
import { emptyHistory, recordWrite, type History } from '../../reference/history.ts';
import type { ObjectVersion, ObservedObject } from '../../reference/objects.ts';
import { judgeWatch, type ObservedEvent, type WatchExpectation } from '../../reference/watch-oracle.ts';
import { casesOf } from '../../harness/case/index.ts';
import { directStage } from '../../runner/check-stage.ts';
import { executeRun } from '../../runner/executor.ts';
import { selfTestPlan } from './self-test-plan.ts';

const NS = 'bench';

/** `writes` updates spread over `objects` keys, and the exact event stream a correct server sends. */
function syntheticWatch(objects: number, writes: number): { h: History; events: ObservedEvent[] } {
  let h = emptyHistory(0);
  const events: ObservedEvent[] = [];
  for (let i = 0; i < writes; i++) {
    const name = `o${i % objects}`;
    const v: ObjectVersion = {
      key: `${NS}/${name}`,
      name,
      namespace: NS,
      uid: `u${i % objects}`,
      rv: String(i + 1),
      creationTimestamp: undefined,
      content: { labels: {}, annotations: {}, body: { n: String(i) } },
    };
    h = recordWrite(h, { op: 'put', version: v, atMs: i });
    const object: ObservedObject = {
      key: v.key,
      name,
      namespace: NS,
      uid: v.uid,
      rv: v.rv,
      creationTimestamp: undefined,
      kind: 'ConfigMap',
      apiVersion: 'v1',
      labels: {},
      annotations: {},
      body: v.content.body,
      deletionTimestamp: undefined,
    };
    events.push({ type: i < objects ? 'ADDED' : 'MODIFIED', object, raw: {} });
  }
  return { h, events };
}

function judgeRate(objects: number, writes: number, rounds: number): number {
  const { h, events } = syntheticWatch(objects, writes);
  const exp: WatchExpectation = {
    semantic: 'StartAtExact',
    clause: 'rest:4.5/watch/other',
    at: 0,
    requestIndex: 0,
    bookmarksRequested: false,
    kind: 'ConfigMap',
    apiVersion: 'v1',
  };
  const ctx = { history: h, knownKeys: new Set<string>(), inScope: () => true };
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const js = judgeWatch(ctx, exp, events).judgements;
    if (js.some((j) => j.verdict === 'fail')) throw new Error('bench: the synthetic stream should pass');
  }
  return (events.length * rounds) / ((performance.now() - t0) / 1000);
}

/** The informer check alone on the embedded target, `cases` cases, planned and executed as `run` does it. */
async function informerCost(cases: number): Promise<{ msPerCase: number; requestsPerCase: number }> {
  const planned = selfTestPlan({ profile: 'svc', check: ['watch-informer'], runs: cases, capabilityProbe: false, seed: 7 }, 'benchw');
  // The check's own default caps its cases below `runs`; a bench averages over as many as it is asked for.
  const check = { ...planned.selection.selected[0]!, defaultRuns: cases };
  const plan = {
    ...planned,
    selection: { chosen: [check], selected: [check] },
    settings: { ...planned.settings, watchWaitMs: 1000 },
    inProcess: { source: 'bench' },
  };
  const { run, exitCode } = await executeRun(plan, { log: () => undefined, stage: directStage() });
  if (exitCode !== 0 || run.records.some((r) => r.verdict === 'fail' || r.verdict === 'error'))
    throw new Error(`bench: the informer check should pass the reference server (exit ${exitCode}; ${run.errors.join('; ')})`);
  // The check's own wall time and requests, as its footprint has them: the server's start and the run's cleanup stay out.
  const footprint = run.footprint.checks.find((c) => c.check === check.id)!;
  const ran = casesOf(check, { profile: plan.profile }, plan.runs).numRuns;
  const requests = Object.values(footprint.requests).reduce((a, b) => a + b, 0);
  return { msPerCase: footprint.wallMs / ran, requestsPerCase: requests / ran };
}

export async function benchWatch(): Promise<string[]> {
  judgeRate(20, 200, 5); // warm-up
  const small = judgeRate(20, 200, 200);
  const large = judgeRate(50, 2000, 10);
  const informer = await informerCost(Number(process.env['BENCH_INFORMER_CASES'] ?? 20));
  const fmt = (x: number) => x.toFixed(0).padStart(8);
  return [
    `watch oracle (judgeWatch, Start at Exact): ${fmt(small)} events/s on 200-event streams, ${fmt(large)} events/s on 2000-event streams`,
    `informer check (list, watch, writes, relist): ${informer.msPerCase.toFixed(1)} ms and ${informer.requestsPerCase.toFixed(1)} requests per case (includes the ~100 ms the suite waits for stray events)`,
  ];
}
