/**
 * Bench lines of the concurrent workload: operations per second of one checked workload
 * against the embedded server (recording and judging included), and the history checkers' time on a
 * synthetic 10,000-operation history with several watchers. Figures only.
 */
import { benchSession } from './bench-target.ts';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { CaseContext } from '../../harness/case/index.ts';
import { Tally } from '../../harness/case/index.ts';
import { runConcurrentWorkload } from '../../harness/interpreters/index.ts';
import { defaultWorkloadSize, workloadPlanArb } from '../../generators/concurrency.ts';
import { judgeConcurrentHistory } from '../../reference/concurrency/judge.ts';
import {
  CONCURRENT_HISTORY_FORMAT,
  type ConcurrentHistory,
  type RecordedEvent,
  type RecordedOp,
} from '../../reference/concurrency/history-types.ts';

export async function concurrencyBenchLines(): Promise<string[]> {
  const opened = await benchSession({ runId: 'benchc', server: { bookmarkIntervalMs: 400 } });
  const [plan] = fc.sample(workloadPlanArb({ ...defaultWorkloadSize, paceMs: 0 }), { seed: 3, numRuns: 1 });
  const cx = new CaseContext(opened.env, new Tally(), 1);
  const t0 = performance.now();
  const history = await runConcurrentWorkload(cx, plan!, {
    padBytes: 1024,
    catchUpMs: 2_000,
    resumeAfter: 6,
    backlog: { objects: 0, bytes: 0 },
  });
  const runMs = performance.now() - t0;
  const j0 = performance.now();
  const verdict = judgeConcurrentHistory(history);
  const judgeMs = performance.now() - j0;
  await opened.close();
  const events = history.watches.reduce((n, w) => n + w.events.length, 0);

  const big = syntheticHistory(10_000, 8, 5);
  const b0 = performance.now();
  const bigVerdict = judgeConcurrentHistory(big);
  const bigMs = performance.now() - b0;
  const fails = bigVerdict.judgements.filter((x) => x.verdict === 'fail').length;
  return [
    `concurrent workload (${plan!.writers.length} writers unpaced, 5 watchers, no backlog): ${history.ops.length + history.lists.length} operations and ${events} events in ${runMs.toFixed(0)} ms = ${(((history.ops.length + history.lists.length) / runMs) * 1000).toFixed(0)} checked operations/s; judged in ${judgeMs.toFixed(1)} ms (${verdict.judgements.length} judgements)`,
    `history checkers on ${big.ops.length} operations over 8 keys, ${big.watches.length} watchers of ${big.watches[0]!.events.length} events: ${bigMs.toFixed(0)} ms (${fails} failures: expected 0)`,
  ];
}

/** A correct history: sequential-ish writers with overlapping intervals, every watcher sees every write. */
export function syntheticHistory(n: number, keys: number, watchers: number): ConcurrentHistory {
  const ops: RecordedOp[] = [];
  const events: RecordedEvent[] = [];
  const created = new Set<number>();
  for (let i = 0; i < n; i++) {
    const k = i % keys;
    const key = `ns/k${k}`;
    const t = i * 10;
    if (i % 4 === 3) {
      const token = lastToken(ops, key);
      const output =
        token === undefined ? { status: 'notFound' as const } : { status: 'ok' as const, present: true, token, rv: lastRv(ops, key)! };
      ops.push({ id: i, client: `c${i % 4}`, key, input: { kind: 'read' }, output, call: t, ret: t + 8 });
      continue;
    }
    const token = `t${i}`;
    const kind = created.has(k) ? 'update' : 'create';
    created.add(k);
    ops.push({
      id: i,
      client: `c${i % 4}`,
      key,
      input: { kind, token },
      output: { status: 'ok', rv: String(i + 1) },
      sent: { w: token },
      call: t,
      ret: t + 12,
    });
    events.push({ type: kind === 'create' ? 'ADDED' : 'MODIFIED', key, token, rv: String(i + 1), data: { w: token }, at: t + 13 });
  }
  const watches = Array.from({ length: watchers }, (_, w) => ({
    id: `w${w}`,
    client: `w${w}`,
    namespaces: ['ns'],
    start: { kind: 'exact' as const, rv: '0' },
    startKnownAt: -1,
    bookmarksRequested: false,
    slow: false,
    opened: -1,
    events,
    end: 'stopped' as const,
  }));
  return { format: CONCURRENT_HISTORY_FORMAT, ops, watches, lists: [] };
}

function lastToken(ops: readonly RecordedOp[], key: string): string | undefined {
  for (let i = ops.length - 1; i >= 0; i--) {
    const o = ops[i]!;
    if (o.key === key && (o.input.kind === 'create' || o.input.kind === 'update')) return o.input.token;
  }
  return undefined;
}
function lastRv(ops: readonly RecordedOp[], key: string): string | undefined {
  for (let i = ops.length - 1; i >= 0; i--) {
    const o = ops[i]!;
    if (o.key === key && o.output.status === 'ok' && o.input.kind !== 'read') return o.output.rv;
  }
  return undefined;
}
