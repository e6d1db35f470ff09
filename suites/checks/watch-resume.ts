/**
 * Ending a watch and carrying on (rest:6.1.2, rest:6.1.3, rest:6.1.4, rest:7/410):
 * - `watch-resume`: a watch is dropped mid-stream (the suite closes the connection), writes go on,
 *   and a new watch from the last received resourceVersion must continue exactly: the two streams
 *   together lose and repeat nothing.
 * - `watch-too-old`: a watch from a version older than the history window gets 410 Gone (or, from a
 *   target that keeps more history, the exact stream); after a 410 the client lists again, watches
 *   from the list's version, and its cache converges. It waits out the window, so it runs only when
 *   the target's window is short (the embedded server's) or with --slow.
 * Verdicts come from reference/watch-oracle.ts and reference/watch-recovery.ts.
 */
import { namespaceWatchEvidence, namespaceWatchScope } from './namespace-watch.ts';
import {
  judgeFinishedWatchIn,
  judgeGoneResume,
  judgeGoneWatch,
  judgeListSnapshotIn,
  judgeRelistAnswer,
  judgeRelistedWatchIn,
  judgeTooOldEndedEmpty,
  judgeTooOldRefused,
  judgeWatchOpened,
} from '../../harness/case/index.ts';
import { runHook } from '../../harness/case/index.ts';
import fc from 'fast-check';
import { waitsOut, type Check } from '../../harness/case/index.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import { showOp, writeOpArb, type WriteOp } from '../../generators/ops.ts';
import { knownKeys, namespaceOf, resourceOf, runWrite } from '../../harness/interpreters/index.ts';
import { openWatch, waitCaughtUp, type WatchSession } from '../../harness/interpreters/index.ts';
import { currentIndex, learnRv, type History } from '../../reference/history.ts';
import { priorAmong } from '../../reference/read-judges.ts';
import { readObject, type ObservedObject } from '../../reference/objects.ts';
import { apiVersionOf, collectionPath, type ResourceType } from '../../reference/resources.ts';
import { type WatchExpectation } from '../../reference/watch-oracle.ts';
import { classifyWatchStart, historyUpTo } from '../../reference/watch-recovery.ts';
import { setupArb } from '../../generators/rv-cells.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

const RES = 'configmaps';
const writesArb = (max: number) => fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: max });

export function watchExpectation(
  cx: CaseContext,
  rt: ResourceType,
  e: Pick<WatchExpectation, 'semantic' | 'clause' | 'requestIndex'> & { at?: number; cutOff?: string | undefined },
): WatchExpectation {
  return { ...e, bookmarksRequested: false, kind: rt.kind, apiVersion: apiVersionOf(rt) };
}

/** Judges a finished watch against the history and keeps the evidence with any failure. */
export function judgeStream(
  cx: CaseContext,
  ns: string,
  h: History,
  exp: WatchExpectation,
  session: WatchSession,
  also?: { clause: ClauseId; expected: string },
): void {
  const scope = namespaceWatchScope(cx, h, ns, session.events);
  cx.judge(
    judgeFinishedWatchIn(scope, exp, session.events, session.parseError(), also),
    namespaceWatchEvidence(cx, h, ns, exp, session.events),
  );
}

/** The last resourceVersion a stream delivered (what a client resumes from). */
const lastRv = (events: WatchSession['events']): string | undefined => {
  for (let i = events.length - 1; i >= 0; i--) if (typeof events[i]!.object.rv === 'string') return events[i]!.object.rv as string;
  return undefined;
};

type ResumeInput = { setup: WriteOp[]; before: WriteOp[]; gap: WriteOp[]; after: WriteOp[] };

async function resumeCase(cx: CaseContext, i: ResumeInput): Promise<void> {
  for (const w of i.setup) await runWrite(cx, w);
  const rt = resourceOf(cx, RES);
  const ns = await namespaceOf(cx, 0);
  const path = collectionPath(rt, ns);
  // Start from a list's version, as a client does: synthetic ADDED events carry their objects'
  // versions, not the start version, so resuming after them could repeat changes legitimately.
  const list = await listNow(cx, rt, ns, 'rest:6.1.2');
  const first = await openWatch(cx, rt, path, [['resourceVersion', list.rv]]);
  let cutOff: string | undefined;
  try {
    cx.judge(judgeWatchOpened(first.status));
    for (const w of i.before) await runWrite(cx, w);
    ({ cutOff } = await waitCaughtUp(cx, first, RES, { snapshot: list.index }));
  } finally {
    // The drop: the client goes away mid-stream.
    await first.close();
  }
  const n1 = currentIndex(cx.history(RES));
  judgeStream(
    cx,
    ns,
    historyUpTo(cx.history(RES), n1),
    watchExpectation(cx, rt, {
      semantic: 'StartAtExact',
      clause: 'rest:4.5/watch/other',
      requestIndex: list.index,
      at: list.index,
      cutOff,
    }),
    first,
  );
  // A first stream that stopped short was judged inconclusive: its last version names no known snapshot.
  if (cutOff !== undefined) return;
  // The first stream was judged complete up to n1, so its last version denotes snapshot n1.
  const rv = lastRv(first.events) ?? list.rv;
  cx.setHistory(RES, learnRv(cx.history(RES), rv, n1));

  for (const w of i.gap) await runWrite(cx, w);
  const second = await openWatch(cx, rt, path, [['resourceVersion', rv]]);
  try {
    for (const w of i.after) await runWrite(cx, w);
    ({ cutOff } = await waitCaughtUp(cx, second, RES, { snapshot: n1 }));
  } finally {
    await second.close();
  }
  const h = cx.history(RES);
  if (classifyWatchStart(second.status, second.events).kind === 'gone') {
    cx.judge(judgeGoneResume(h, n1, cx.env.now(), cx.env.settings.historyWindowMs));
    return;
  }
  judgeStream(
    cx,
    ns,
    h,
    watchExpectation(cx, rt, { semantic: 'StartAtExact', clause: 'rest:4.5/watch/other', requestIndex: n1, at: n1, cutOff }),
    second,
    {
      clause: 'rest:6.1.2',
      expected: 'resumed from the last received resourceVersion: nothing lost, nothing repeated',
    },
  );
}

const showWrites = (label: string, ws: readonly WriteOp[]) => ws.map((w) => `${label}: ${showOp(w)}`);

export const watchResume: Check<ResumeInput> = {
  id: 'watch-resume',
  suite: 'rest-watch',
  title: 'a dropped watch resumed from the last received resourceVersion loses and repeats nothing',
  clauses: ['rest:6.1.2', 'rest:6.1.1'],
  defaultRuns: 6,
  arbitrary: () => fc.record({ setup: setupArb.map((s) => s.slice(0, 4)), before: writesArb(3), gap: writesArb(3), after: writesArb(3) }),
  describe: (i) => [
    ...i.setup.map(showOp),
    'list configmaps ns0, watch from its resourceVersion',
    ...showWrites('  while watching', i.before),
    'drop the watch',
    ...showWrites('  while disconnected', i.gap),
    'watch again from the last received resourceVersion',
    ...showWrites('  while watching', i.after),
  ],
  run: (input, cx) => resumeCase(cx, input),
};

async function listNow(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  clause: ClauseId,
): Promise<{ rv: string; items: ObservedObject[]; index: number }> {
  const r = await cx.send({ method: 'GET', path: collectionPath(rt, ns) });
  const body = r.json as { metadata?: { resourceVersion?: unknown }; items?: unknown } | undefined;
  const rv = body?.metadata?.resourceVersion;
  cx.judge(judgeRelistAnswer(clause, r.status, r.json));
  const items = (body!.items as unknown[]).map((x) => readObject(rt, x));
  const h = cx.history(RES);
  const index = currentIndex(h);
  const j = judgeListSnapshotIn(
    {
      history: h,
      knownKeys: knownKeys(cx),
      priorVersions: priorAmong(cx.priorVersions, items),
      namespaces: [ns],
      scope: { namespace: ns },
    },
    { semantic: 'MostRecent', clause: 'rest:4.5/list/unset/no-limit/unset' },
    { collectionRv: rv, items },
  );
  cx.judge(j.judgements);
  cx.setHistory(RES, learnRv(h, rv as string, index));
  return { rv: rv as string, items, index };
}

/** The relist-and-rewatch an informer does after a 410 (rest:6.1.3): its cache must converge. */
export async function relistAndWatch(
  cx: CaseContext,
  rt: ResourceType,
  ns: string,
  writes: { between?: readonly WriteOp[]; during: readonly WriteOp[] },
  clause: ClauseId,
): Promise<void> {
  const list0 = await listNow(cx, rt, ns, clause);
  // Writes between the list and the watch: the watch from the list's version must still carry them.
  for (const w of writes.between ?? []) await runWrite(cx, w);
  const session = await openWatch(cx, rt, collectionPath(rt, ns), [['resourceVersion', list0.rv]]);
  let cutOff: string | undefined;
  try {
    for (const w of writes.during) await runWrite(cx, w);
    ({ cutOff } = await waitCaughtUp(cx, session, RES, { snapshot: list0.index }));
  } finally {
    await session.close();
  }
  const hWatch = cx.history(RES);
  const start = classifyWatchStart(session.status, session.events);
  if (start.kind === 'gone') {
    cx.judge(judgeGoneWatch(hWatch, list0.index, cx.env.now(), cx.env.settings.historyWindowMs, 'rest:6.1.4'));
    return;
  }
  const list1 = await listNow(cx, rt, ns, clause);
  const h = cx.history(RES);
  const exp = watchExpectation(cx, rt, {
    semantic: 'StartAtExact',
    clause: 'rest:4.5/watch/other',
    requestIndex: list0.index,
    at: list0.index,
    cutOff,
  });
  // One verdict for both views of the same stream: the informer's cache and the event sequence.
  const d = namespaceWatchScope(cx, hWatch, ns, session.events);
  const informer = { list0: list0.items, events: session.events, list1: list1.items, after: h, ns, clause, cutOff };
  cx.judge(
    judgeRelistedWatchIn({ ...informer, d, exp, parseError: session.parseError() }),
    namespaceWatchEvidence(cx, h, ns, exp, session.events, { list0: list0.items, list1: list1.items, clause }),
  );
}

type TooOldInput = { setup: WriteOp[]; after: WriteOp[] };

/** Fixed on purpose: each case waits out the history window, so nothing here is worth shrinking. */
const tooOldInput: TooOldInput = {
  setup: [
    { op: 'create', res: 'configmaps', ns: 0, name: 'alpha', content: { labels: {}, annotations: {}, data: { k1: 'v1' } } },
    { op: 'create', res: 'configmaps', ns: 0, name: 'bravo', content: { labels: {}, annotations: {}, data: {} } },
  ],
  after: [{ op: 'update', res: 'configmaps', ns: 0, name: 'alpha', content: { labels: {}, annotations: {}, data: { k1: 'v2' } } }],
};

async function tooOldCase(cx: CaseContext, i: TooOldInput): Promise<void> {
  for (const w of i.setup) await runWrite(cx, w);
  const rt = resourceOf(cx, RES);
  const ns = await namespaceOf(cx, 0);
  const h0 = cx.history(RES);
  // The first write's version: the second write makes it history, then the window passes.
  const index = 1;
  const rv = h0.snapshots[index]!.rv!;
  // With a compaction hook the version leaves the history at once; otherwise the window is waited out.
  const compact = cx.env.settings.hooks?.compact;
  const window = compact !== undefined ? 0 : cx.env.settings.historyWindowMs;
  if (compact !== undefined) await runHook('compact', compact, undefined, cx.env.exchangeSink?.footprint);
  else await cx.env.sleep(window + Math.max(250, window * 0.1));
  const session = await openWatch(cx, rt, collectionPath(rt, ns), [['resourceVersion', rv]]);
  let cutOff: string | undefined;
  let wroteDuring = false;
  let endedByServer = false;
  try {
    // A served stream says 410 in its first event, if at all. If it does not, writes while it is open
    // must arrive after the setup's changes: a stream that shows them but not the older ones has a gap,
    // which no delivery delay explains (a silent stream proves nothing: inconclusive).
    if (session.status === 200) await session.until((evs) => evs.length > 0, 300);
    if (classifyWatchStart(session.status, session.events).kind === 'served') {
      for (const w of i.after) await runWrite(cx, w);
      wroteDuring = true;
    }
    ({ cutOff } = await waitCaughtUp(cx, session, RES, { snapshot: index }));
  } finally {
    endedByServer = session.ended();
    await session.close();
  }
  const h = cx.history(RES);
  const start = classifyWatchStart(session.status, session.events);
  // The setup's later writes were stored before the watch opened: a stream that ends at once with none
  // of them said neither 410 nor "here is what changed". A client resumes from the version it holds,
  // the same one; if every stream from it ends so, the server never gives the client either answer.
  if (start.kind === 'served' && endedByServer && session.events.length === 0 && currentIndex(h0) > index) {
    const again = await endedEmptyAgain(cx, rt, collectionPath(rt, ns), rv, TOO_OLD_ATTEMPTS - 1);
    if (again) {
      cx.judge(
        judgeTooOldEndedEmpty(
          TOO_OLD_ATTEMPTS,
          currentIndex(h0) - index,
          compact !== undefined ? 'the compaction hook ran' : `the history window (${window} ms) was waited out`,
        ),
      );
      return;
    }
  }
  if (start.kind === 'gone') {
    cx.judge(judgeGoneWatch(h, index, cx.env.now(), window, 'rest:6.1.3'));
    await relistAndWatch(cx, rt, ns, { during: wroteDuring ? [] : i.after }, 'rest:6.1.3');
    return;
  }
  if (start.kind === 'refused') {
    cx.judge(judgeTooOldRefused(start.status));
    return;
  }
  // Served: a target keeping more history than the window must then deliver every change after it.
  judgeStream(
    cx,
    ns,
    h,
    watchExpectation(cx, rt, { semantic: 'StartAtExact', clause: 'rest:4.5/watch/other', requestIndex: index, at: index, cutOff }),
    session,
    {
      clause: 'rest:6.1.3',
      expected: '410 Gone for a version older than the history, or every change after it',
    },
  );
}

/** Streams from a too-old version that must all end empty before that counts as a failure. */
const TOO_OLD_ATTEMPTS = 3;

/** True if `times` more watches from `rv` each answer 200 and end, with no event, within a second. */
async function endedEmptyAgain(cx: CaseContext, rt: ResourceType, path: string, rv: string, times: number): Promise<boolean> {
  for (let n = 0; n < times; n++) {
    const s = await openWatch(cx, rt, path, [['resourceVersion', rv]]);
    let ended = false;
    try {
      if (s.status === 200) await s.until((evs) => evs.length > 0, 1000);
    } finally {
      ended = s.ended();
      await s.close();
    }
    if (s.status !== 200 || !ended || s.events.length > 0) return false;
  }
  return true;
}

export const watchTooOld: Check<TooOldInput> = {
  id: 'watch-too-old',
  suite: 'rest-watch',
  // It may compact the target's history through the hook.
  exclusive: true,
  title: 'a watch from a version older than the history gets 410 Gone; relist and rewatch converge',
  clauses: ['rest:6.1.3', 'rest:7/410'],
  defaultRuns: 1,
  applicable: (env) =>
    env.settings.hooks?.compact !== undefined
      ? undefined
      : waitsOut(env, env.settings.historyWindowMs, 'a history window (or --hook compact=CMD)'),
  arbitrary: () => fc.constant(tooOldInput),
  describe: (i) => [
    ...i.setup.map(showOp),
    'wait past the history window',
    "watch configmaps ns0 from the first write's resourceVersion",
    "on 410: list, watch from the list's resourceVersion",
    ...showWrites('  while watching', i.after),
    'list again',
  ],
  run: (input, cx) => tooOldCase(cx, input),
};
