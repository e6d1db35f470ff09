/**
 * Runs a concurrent workload plan against the target and records its history: N writers at
 * once over a small key space in the case's two namespaces, and five watchers (a namespace watch from
 * the current state, a cluster-wide label-selected watch from "0", a watch from an exact learned
 * version, a deliberately slow reader, and one dropped and resumed from a version it was shown).
 * Every operation is recorded with its invocation and completion times and its outcome; nothing is
 * judged here (reference/concurrency/judge.ts does).
 */
import { CASE_LABEL, type CaseContext } from '../case/index.ts';
import { ACCEPT_GZIP, InfrastructureError, type QueryPair, type TargetResponse } from '../transport/index.ts';
import { namespaceOf } from './rest-interpreter.ts';
import { collectionPath, resourceTypes, type ResourceType } from '../../reference/resources.ts';
import { isRecord } from '../../reference/objects.ts';
import type { WorkloadPlan } from '../../generators/concurrency.ts';
import {
  CONCURRENT_HISTORY_FORMAT,
  type ConcurrentHistory,
  type RecordedList,
  type RecordedOp,
  type RecordedWatch,
} from '../../reference/concurrency/history-types.ts';

import { write } from './recorded-write.ts';
import { openRecordedWatch, type LiveWatch } from './recorded-watch.ts';
export interface WorkloadOptions {
  /** Bytes of filler per object of the writers (the backlog has its own). */
  readonly padBytes: number;
  /** Longest wait, after the last write, for every watcher to show what was acknowledged. */
  readonly catchUpMs: number;
  /** The resumed watcher is dropped after this many events of its own. */
  readonly resumeAfter: number;
  /**
   * Written while the slow watcher does not read, so its stream backs up on the server: loopback and
   * client buffers hold megabytes, so a slow reader is only slow past them. Only the slow watcher is
   * open by then. Absent: no backlog (the slow watcher still reads late).
   */
  readonly backlog?: { readonly objects: number; readonly bytes: number };
}

export async function runConcurrentWorkload(cx: CaseContext, plan: WorkloadPlan, opts: WorkloadOptions): Promise<ConcurrentHistory> {
  const rt = resourceTypes(cx.env.profile).configmaps;
  const namespaces = [await namespaceOf(cx, 0), await namespaceOf(cx, 1)];
  const now = () => cx.env.now();
  const log: HistoryLog = { ops: [], lists: [], nextId: 0 };
  const { ops, lists } = log;
  const pad = 'x'.repeat(opts.padBytes);
  const selector: QueryPair = ['labelSelector', `${CASE_LABEL}=${cx.caseId}`];

  // A first write teaches a version to start the exact watch from (a key outside the plan's space).
  const seed = (await write(cx, rt, { op: 'create', ns: 1, key: -1 }, namespaces, 'seed', pad, undefined, now)).op;
  if (seed !== undefined) ops.push({ id: log.nextId++, client: 'seed', ...seed });
  const seedRv = seed?.output.status === 'ok' ? seed.output.rv : undefined;

  const watches: LiveWatch[] = [];
  const open = async (
    id: string,
    path: string,
    nss: readonly string[],
    query: QueryPair[],
    start: RecordedWatch['start'],
    startKnownAt: number | 'opened',
    extra: Partial<RecordedWatch> = {},
  ): Promise<LiveWatch> => {
    const w = await openRecordedWatch(cx, id, path, nss, [...query, selector, ['allowWatchBookmarks', 'true']], start, startKnownAt, extra);
    watches.push(w);
    return w;
  };
  const nsPath = (i: number) => collectionPath(rt, namespaces[i]);
  await open('ns0-state', nsPath(0), [namespaces[0]!], [], { kind: 'state' }, 'opened');
  await open('all-from-0', collectionPath(rt), namespaces, [['resourceVersion', '0']], { kind: 'state', rv: '0' }, 'opened');
  if (seedRv !== undefined)
    await open('ns1-exact', nsPath(1), [namespaces[1]!], [['resourceVersion', seedRv]], { kind: 'exact', rv: seedRv }, seed?.ret ?? now());
  const slow = await open('ns0-slow', nsPath(0), [namespaces[0]!], [], { kind: 'state' }, 'opened', { slow: true });
  const first = await open('ns0-dropped', nsPath(0), [namespaces[0]!], [], { kind: 'state' }, 'opened');

  // The dropped watcher is closed after a few events (or half the workload) and resumed from the last
  // version it showed, so the resumed stream has writes left to show.
  const total = plan.writers.reduce((n, w) => n + w.length, 0);
  let completed = 0;
  const resuming = (async () => {
    while (
      first.record.events.filter((e) => e.type !== 'BOOKMARK').length < opts.resumeAfter &&
      completed < total / 2 &&
      first.record.end === 'stopped'
    )
      await cx.env.sleep(5);
    first.stop();
    await first.done;
    const last = [...first.record.events].reverse().find((e) => e.rv !== undefined);
    if (last === undefined || first.record.end !== 'stopped') return;
    await open('ns0-resumed', nsPath(0), [namespaces[0]!], [['resourceVersion', last.rv!]], { kind: 'exact', rv: last.rv! }, last.at, {
      resumedFrom: { watch: first.record.id, rv: last.rv! },
    });
  })();

  await runWriters(cx, plan, { rt, namespaces, pad, selector, now }, log, () => completed++);
  await resuming;
  // The other watchers are done once they show what was written so far: the backlog below is for the
  // slow reader alone (megabytes each watcher would otherwise receive too, and judge nothing more).
  const fast = watches.filter((w) => w !== slow);
  await catchUp(fast, ops, now() + opts.catchUpMs, now, cx.env.sleep);
  for (const w of fast) w.stop();
  // The backlog for the slow reader, then one more write after it reads again: a server that dropped
  // events for it instead of ending its stream shows the later write after a gap.
  if (opts.backlog !== undefined) await writeBacklog(cx, { rt, namespaces, now }, opts.backlog, log);
  slow.release?.();
  await cx.env.sleep(50);
  const marker = await write(cx, rt, { op: 'create', ns: 0, key: -1 }, namespaces, 'marker', pad, undefined, now);
  if (marker.op !== undefined) ops.push({ id: log.nextId++, client: 'marker', ...marker.op });
  await catchUp([slow], ops, now() + opts.catchUpMs, now, cx.env.sleep);
  slow.stop();
  await Promise.all(watches.map((w) => w.done));
  return {
    format: CONCURRENT_HISTORY_FORMAT,
    ops,
    lists,
    watches: watches.map((w) => ({ ...w.record, events: [...w.record.events] })),
  };
}

/** What the workload has recorded so far; ids are shared by ops and lists, in the order they ended. */
interface HistoryLog {
  readonly ops: RecordedOp[];
  readonly lists: RecordedList[];
  nextId: number;
}

interface WorkloadScope {
  readonly rt: ResourceType;
  readonly namespaces: readonly string[];
  readonly now: () => number;
}

/** Every writer's steps at once, each writer paced so writes spread over time and bookmarks fall between them. */
async function runWriters(
  cx: CaseContext,
  plan: WorkloadPlan,
  w: WorkloadScope & { readonly pad: string; readonly selector: QueryPair },
  log: HistoryLog,
  completed: () => void,
): Promise<void> {
  await Promise.all(
    plan.writers.map(async (list, wi) => {
      const seen = new Map<string, string>();
      for (let j = 0; j < list.length; j++) {
        const o = list[j]!;
        await cx.env.sleep(((wi * 7 + j * 3) % 4) * (plan.paceMs / 3));
        if (o.op === 'list') {
          const l = await list1(cx, w.rt, w.namespaces[o.ns]!, w.selector, w.now);
          if (l !== undefined) log.lists.push({ id: log.nextId++, client: `writer-${wi}`, ...l });
          completed();
          continue;
        }
        const key = `${w.namespaces[o.ns]}/k${o.key}`;
        const r = await write(cx, w.rt, o, w.namespaces, `w${wi}-${j}`, w.pad, seen.get(key), w.now);
        if (r.seenRv !== undefined) seen.set(key, r.seenRv);
        if (r.op !== undefined) log.ops.push({ id: log.nextId++, client: `writer-${wi}`, ...r.op });
        completed();
      }
    }),
  );
}

/** Objects written while the slow watcher does not read, so that its stream backs up on the server. */
async function writeBacklog(
  cx: CaseContext,
  w: WorkloadScope,
  backlog: { readonly objects: number; readonly bytes: number },
  log: HistoryLog,
): Promise<void> {
  const big = 'y'.repeat(backlog.bytes);
  for (let i = 0; i < backlog.objects; i++) {
    // Its echo may come gzipped: the bytes are for the slow reader's stream, not for this answer.
    const r = await write(cx, w.rt, { op: 'create', ns: 0, key: -2 - i }, w.namespaces, `b${i}`, big, undefined, w.now, ACCEPT_GZIP);
    if (r.op !== undefined) log.ops.push({ id: log.nextId++, client: 'backlog', ...r.op });
  }
}

/**
 * Waits until every open watcher of `watches` shows the acknowledged writes in its scope (an eventual
 * effect: what is still missing when the window closes is judged as a gap only if a later write was shown).
 */
async function catchUp(
  watches: readonly LiveWatch[],
  ops: readonly RecordedOp[],
  deadline: number,
  now: () => number,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  const expected = ops.filter(
    (o) => (o.input.kind === 'create' || o.input.kind === 'update') && o.output.status === 'ok' && o.terminating !== true,
  );
  for (const w of watches) {
    // A state-starting watch shows only the latest state of what was written before it started.
    const want = expected
      .filter((o) => o.call > w.record.startKnownAt && w.record.namespaces.includes(o.key.slice(0, o.key.indexOf('/'))))
      .map((o) => (o.input as { token: string }).token);
    while (w.record.end === 'stopped' && !w.stopped() && now() < deadline && !want.every((t) => w.record.events.some((e) => e.token === t)))
      await sleep(10);
  }
}

async function list1(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  selector: QueryPair,
  now: () => number,
): Promise<Omit<RecordedList, 'id' | 'client'> | undefined> {
  const call = now();
  let r: TargetResponse;
  try {
    r = await cx.env.target.send({ method: 'GET', path: collectionPath(rt, ns), query: [selector] });
  } catch (e) {
    if (e instanceof InfrastructureError) return undefined;
    throw e;
  }
  const ret = now();
  const body = r.json;
  if (r.status !== 200 || !isRecord(body) || !Array.isArray(body['items'])) return undefined;
  const md = isRecord(body['metadata']) ? body['metadata'] : {};
  if (typeof md['resourceVersion'] !== 'string') return undefined;
  const items = body['items'].flatMap((it) => {
    if (!isRecord(it) || !isRecord(it['metadata'])) return [];
    const m = it['metadata'];
    const token = isRecord(it['data']) && typeof it['data']['w'] === 'string' ? it['data']['w'] : undefined;
    return [
      {
        key: `${String(m['namespace'])}/${String(m['name'])}`,
        token,
        rv: typeof m['resourceVersion'] === 'string' ? m['resourceVersion'] : undefined,
      },
    ];
  });
  return { namespaces: [ns], rv: md['resourceVersion'], items, call, ret };
}
