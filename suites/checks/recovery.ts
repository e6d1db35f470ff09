/**
 * Restart and compaction through the target's hooks (`--hook restart=CMD`,
 * `--hook compact=CMD`; the embedded server has both): acknowledged writes survive a restart, a watch
 * across it resumes or ends with 410, versions keep their meaning; after a compaction, Exact reads of
 * older versions answer 410. Without the hook these checks are not checked, never passed.
 */
import {
  judgeConcurrentHistory,
  notBackInTime,
  judgeExactAfterCompaction,
  judgeVersionsAcrossRestart,
  judgeWatchAfterCompaction,
} from '../../harness/case/index.ts';
import fc from 'fast-check';
import { watchWaitOf, type Check, type CheckEnv } from '../../harness/case/index.ts';
import { runHook } from '../../harness/case/index.ts';
import { digestedHistory, openRecordedWatch, write, type LiveWatch } from '../../harness/interpreters/index.ts';
import { namespaceOf } from '../../harness/interpreters/index.ts';
import { CASE_LABEL, type CaseContext } from '../../harness/case/index.ts';
import { collectionPath, resourceTypes } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import { CONCURRENT_HISTORY_FORMAT, type ConcurrentHistory, type RecordedOp } from '../../reference/concurrency/history-types.ts';

import { classifyWatchStart } from '../../reference/watch-recovery.ts';
import { openWatch } from '../../harness/interpreters/index.ts';

const needs = (env: CheckEnv, hook: 'restart' | 'compact'): string | undefined =>
  env.settings.hooks?.[hook] === undefined
    ? `needs --hook ${hook}=CMD (a way to ${hook === 'restart' ? 'restart the target' : 'compact its history'})`
    : undefined;

type Plan = { readonly before: number; readonly updates: number; readonly after: number };

export const restartDurability: Check<Plan> = {
  id: 'restart-durability',
  suite: 'rest-recovery',
  title: 'acknowledged writes survive a restart; a watch across it resumes with no gap or ends with 410; versions keep their meaning',
  clauses: ['rest:4.5/meaning/most-recent', 'rest:6.1.1', 'rest:6.1.2', 'rest:2.3/metadata.resourceVersion'],
  defaultRuns: 2,
  shrink: false,
  exclusive: true,
  applicable: (env) => needs(env, 'restart'),
  arbitrary: () =>
    fc.record({ before: fc.integer({ min: 2, max: 5 }), updates: fc.integer({ min: 1, max: 4 }), after: fc.integer({ min: 1, max: 3 }) }),
  describe: (p) => [
    `create ${p.before} configmaps, update ${p.updates} of them`,
    'watch from the first version',
    'restart hook; wait for /readyz',
    'read every object back',
    `resume the watch from the last version it showed; ${p.after} more writes`,
  ],
  run: async (p, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    const now = () => cx.env.now();
    const ops: RecordedOp[] = [];
    let id = 0;
    const record = async (o: Parameters<typeof write>[2], token: string, lastRv?: string) => {
      const r = await write(cx, rt, o, [ns, ns], token, 'p', lastRv, now);
      if (r.op !== undefined) ops.push({ id: id++, client: 'suite', ...r.op });
      return r;
    };
    const first = await record({ op: 'create', ns: 0, key: 0 }, 'c0');
    const watch0 =
      first.seenRv === undefined
        ? undefined
        : await watchCaseFrom(cx, 'before-restart', collectionPath(rt, ns), ns, first.seenRv, ops[0]?.ret ?? now(), {});
    for (let k = 1; k < p.before; k++) await record({ op: 'create', ns: 0, key: k }, `c${k}`);
    for (let u = 0; u < p.updates; u++) await record({ op: 'update', ns: 0, key: u % p.before, precondition: false }, `u${u}`);
    const before = versionsOf(ops);
    await settle(cx, watch0, ops);

    await runHook('restart', cx.env.settings.hooks!.restart!, undefined, cx.env.exchangeSink?.footprint);
    const window = Math.max(60_000, watchWaitOf(cx.env));
    if (!(await ready(cx, window))) {
      watch0?.stop();
      return cx.judge(notBackInTime(window));
    }
    await watch0?.done;
    for (let k = 0; k < p.before; k++) await record({ op: 'get', ns: 0, key: k }, `r${k}`);
    const last = watch0 === undefined ? undefined : [...watch0.record.events].reverse().find((e) => e.rv !== undefined);
    const watch1 =
      watch0 === undefined
        ? undefined
        : await watchCaseFrom(
            cx,
            'after-restart',
            collectionPath(rt, ns),
            ns,
            last?.rv ?? first.seenRv!,
            last?.at ?? ops[0]?.ret ?? now(),
            {
              resumedFrom: { watch: 'before-restart', rv: last?.rv ?? first.seenRv! },
            },
          );
    const afterStart = ops.length;
    for (let a = 0; a < p.after; a++)
      await record({ op: a % 2 === 0 ? 'update' : 'create', ns: 0, key: a % 2 === 0 ? 0 : p.before + a, precondition: false }, `a${a}`);
    await settle(cx, watch1, ops);
    watch1?.stop();
    await watch1?.done;

    const watches = [watch0, watch1].flatMap((w) => (w === undefined ? [] : [{ ...w.record, events: [...w.record.events] }]));
    // A watch that had shown nothing resumes from the first version: that is the one it was opened at.
    const history: ConcurrentHistory = {
      format: CONCURRENT_HISTORY_FORMAT,
      ops,
      watches: last === undefined ? watches.map(({ resumedFrom: _r, ...w }) => w) : watches,
      lists: [],
    };
    const afterVersions = ops
      .slice(afterStart)
      .flatMap((o) =>
        o.output.status === 'ok' && o.output.rv !== undefined && 'token' in o.input ? [[o.output.rv, o.input.token] as const] : [],
      );
    cx.judge(
      [...judgeConcurrentHistory(digestedHistory(history)).judgements, ...judgeVersionsAcrossRestart(before, afterVersions)],
      history,
    );
  },
};

export const compactionExact: Check<null> = {
  id: 'compaction-exact',
  suite: 'rest-recovery',
  title: 'after the compaction hook, an Exact list at an older version answers 410, and a watch from it 410 or the events',
  clauses: ['rest:8/watch-history', 'rest:7/410', 'rest:4.5/meaning/exact', 'rest:6.1.3'],
  defaultRuns: 1,
  exclusive: true,
  applicable: (env) => needs(env, 'compact'),
  arbitrary: () => fc.constant(null),
  describe: () => [
    'create a configmap (rv r1), update it',
    'compaction hook',
    'list at r1 with resourceVersionMatch=Exact',
    'watch from r1',
  ],
  run: async (_p, cx) => {
    const rt = resourceTypes(cx.env.profile).configmaps;
    const ns = await namespaceOf(cx, 0);
    const first = await write(cx, rt, { op: 'create', ns: 0, key: 0 }, [ns], 'c0', 'p', undefined, () => cx.env.now());
    await write(cx, rt, { op: 'update', ns: 0, key: 0, precondition: false }, [ns], 'u0', 'p', undefined, () => cx.env.now());
    const r1 = first.seenRv;
    if (r1 === undefined) return;
    await runHook('compact', cx.env.settings.hooks!.compact!, undefined, cx.env.exchangeSink?.footprint);
    const list = await cx.send({
      method: 'GET',
      path: collectionPath(rt, ns),
      query: [
        ['resourceVersion', r1],
        ['resourceVersionMatch', 'Exact'],
      ],
    });
    const md = isRecord(list.json) && isRecord(list.json['metadata']) ? list.json['metadata'] : {};
    cx.judge(judgeExactAfterCompaction(list.status, typeof md['resourceVersion'] === 'string' ? md['resourceVersion'] : undefined, r1));
    const session = await openWatch(cx, rt, collectionPath(rt, ns), [['resourceVersion', r1]]);
    await session.until((evs) => evs.length > 0, 1_000);
    await session.close();
    const start = classifyWatchStart(session.status, session.events);
    cx.judge(judgeWatchAfterCompaction(start.kind, session.status));
  },
};

/** A recorded watch of the case's objects in `ns` from exactly `rv`, that version known since `at`. */
function watchCaseFrom(
  cx: CaseContext,
  id: string,
  path: string,
  ns: string,
  rv: string,
  at: number,
  extra: Partial<LiveWatch['record']>,
): Promise<LiveWatch> {
  return openRecordedWatch(
    cx,
    id,
    path,
    [ns],
    [
      ['resourceVersion', rv],
      ['labelSelector', `${CASE_LABEL}=${cx.caseId}`],
    ],
    { kind: 'exact', rv },
    at,
    extra,
  );
}

function versionsOf(ops: readonly RecordedOp[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of ops) if (o.output.status === 'ok' && o.output.rv !== undefined && 'token' in o.input) out.set(o.output.rv, o.input.token);
  return out;
}

/** Until the watch shows every acknowledged write of the case, or the run's watch window passes. */
async function settle(cx: CaseContext, w: LiveWatch | undefined, ops: readonly RecordedOp[]): Promise<void> {
  if (w === undefined) return;
  const want = ops.flatMap((o) =>
    o.output.status === 'ok' && 'token' in o.input && o.call > w.record.startKnownAt ? [o.input.token] : [],
  );
  const deadline = cx.env.now() + watchWaitOf(cx.env);
  while (
    cx.env.now() < deadline &&
    w.record.end === 'stopped' &&
    !w.stopped() &&
    !want.every((t) => w.record.events.some((e) => e.token === t))
  )
    await cx.env.sleep(10);
}

/** Polls /readyz until 200 (a restarting target answers 503 or refuses connections meanwhile). */
async function ready(cx: CaseContext, windowMs: number): Promise<boolean> {
  const deadline = cx.env.now() + windowMs;
  while (cx.env.now() < deadline) {
    try {
      const r = await cx.env.target.send({ method: 'GET', path: '/readyz' });
      if (r.status === 200) return true;
    } catch {
      // Connection refused while the process is down: keep polling.
    }
    await cx.env.sleep(100);
  }
  return false;
}
