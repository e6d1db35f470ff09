/**
 * rest:4.5 watch table and rest:6.1: for each cell a watch is opened after some writes, more writes
 * follow while it runs (concurrent with the stream), and the delivered events are judged against
 * the history: start semantics, order, no gap, no duplicate. Bookmarks: shape, only when asked.
 */
import { judgeNamespaceWatch } from './namespace-watch.ts';
import { judgeBookmarkRequest, judgeGoneCell, judgeWatchDocuments, judgeWatchOpened } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { showOp, writeOpArb, type RvPick, type WriteOp } from '../../generators/ops.ts';
import { namespaceOf, resolveRv, resourceOf, runWrite } from '../../harness/interpreters/index.ts';
import { openWatch, waitCaughtUp } from '../../harness/interpreters/index.ts';
import { currentIndex } from '../../reference/history.ts';
import { collectionPath, apiVersionOf } from '../../reference/resources.ts';
import { decideWatch, rvColumn, watchClause } from '../../reference/rv-semantics.ts';
import { type ObservedEvent } from '../../reference/watch-oracle.ts';
import { classifyWatchStart } from '../../reference/watch-recovery.ts';
import { apart, pickFor, setupArb } from '../../generators/rv-cells.ts';
import type { CaseContext } from '../../harness/case/index.ts';
import type { QueryPair } from '../../harness/transport/index.ts';

type WatchInput = { setup: WriteOp[]; during: WriteOp[]; rv: RvPick; bookmarks: boolean };

const duringArb = fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: 5 });

/** Runs one watch cell and judges its stream; returns how the watch was answered, for the bookmark check. */
async function watchCase(
  cx: CaseContext,
  input: WatchInput,
  opts: { waitForBookmarkMs: number },
): Promise<{ status: number; events: readonly ObservedEvent[] }> {
  for (const w of input.setup) await runWrite(cx, w);
  const rt = resourceOf(cx, 'configmaps');
  const ns = await namespaceOf(cx, 0);
  const { param, index } = resolveRv(cx, 'configmaps', input.rv);
  const d = decideWatch(rvColumn(param));
  if (d.outcome !== 'serve') throw new Error('watch cells always serve');
  const query: QueryPair[] = [];
  if (param !== undefined) query.push(['resourceVersion', param]);
  if (input.bookmarks) query.push(['allowWatchBookmarks', 'true']);
  const requestIndex = currentIndex(cx.history('configmaps'));
  const session = await openWatch(cx, rt, collectionPath(rt, ns), query);
  let cutOff: string | undefined;
  try {
    // A 410 for an old version is judged below, once it is known whether the version may be gone.
    // A watch refused when it asked for bookmarks refuses the parameter too: judged with the opening,
    // so the refusal is reported under rest:4.3/allowWatchBookmarks as well as rest:4.3/watch.
    if (session.status !== 410 || index === undefined)
      cx.judge([
        ...judgeWatchOpened(session.status),
        ...(input.bookmarks && session.status !== 200 ? judgeBookmarkRequest(true, session.status, []) : []),
      ]);
    for (const w of input.during) await runWrite(cx, w);
    ({ cutOff } = await waitCaughtUp(
      cx,
      session,
      'configmaps',
      d.semantic === 'StartAtExact' && index !== undefined ? { snapshot: index } : 'current state',
    ));
    if (opts.waitForBookmarkMs > 0) await session.until((evs) => evs.some((e) => e.type === 'BOOKMARK'), opts.waitForBookmarkMs);
  } finally {
    await session.close();
  }
  if (classifyWatchStart(session.status, session.events).kind === 'gone') {
    cx.judge(judgeGoneCell(cx.history('configmaps'), index, cx.env.now(), cx.env.settings.historyWindowMs, d.clause));
    return session;
  }
  cx.judge(judgeWatchDocuments(session.parseError()));
  const h = cx.history('configmaps');
  const exp = {
    semantic: d.semantic as 'GetStateAndStartAtMostRecent' | 'GetStateAndStartAtAny' | 'StartAtExact',
    clause: d.clause,
    requestIndex,
    bookmarksRequested: input.bookmarks,
    kind: rt.kind,
    apiVersion: apiVersionOf(rt),
    at: index,
    cutOff,
  };
  judgeNamespaceWatch(cx, h, ns, exp, session.events);
  return session;
}

const describeWatch = (i: WatchInput) => [
  ...i.setup.map(showOp),
  `watch configmaps ns0${i.rv.kind === 'zero' ? ' rv=0' : i.rv.kind === 'learned' ? ` rv=learned[${i.rv.pick}]` : ''}${i.bookmarks ? ' allowWatchBookmarks=true' : ''}`,
  ...i.during.map((w) => `  while watching: ${showOp(w)}`),
];

/**
 * Random cases per watch cell: each cell draws setups of its own (`apart`), so the three cells watch
 * after 24 distinct setups (they repeated the same 15 when they shared a seed's draws).
 */
export const CASES_PER_WATCH_CELL = 8;

export const watchCellChecks: Check<WatchInput>[] = (['unset', 'zero', 'other'] as const).map((rv, i) => {
  const clause = watchClause(rv);
  return {
    id: `watch-cell-${rv === 'zero' ? '0' : rv}`,
    suite: 'rest-watch',
    title: `rest:4.5 watch cell ${clause}`,
    clauses: [clause, 'rest:6.1.1'],
    defaultRuns: CASES_PER_WATCH_CELL,
    arbitrary: () => apart(i, fc.record({ setup: setupArb, during: duringArb, rv: pickFor(rv), bookmarks: fc.constant(false) })),
    describe: describeWatch,
    run: async (input, cx) => {
      await watchCase(cx, input, { waitForBookmarkMs: 0 });
    },
  };
});

/** One watch that asks for bookmarks and one that does not, in the order drawn. */
type BookmarkPair = { readonly watches: readonly [WatchInput, WatchInput] };

const bookmarkCaseArb = (bookmarks: boolean) =>
  fc.record({
    setup: setupArb.map((s) => s.slice(0, 3)),
    during: duringArb.map((d) => d.slice(0, 2)),
    rv: fc.constant({ kind: 'unset' } as const),
    bookmarks: fc.constant(bookmarks),
  });

/**
 * Bookmarks: never unasked; when asked, the right shape. A target that never sends any passes.
 * Every case watches both ways, so every seed reaches both halves of the rule (with one coin per case,
 * one seed in eight drew only asked or only unasked watches and left a clause unreached).
 */
export const watchBookmarks: Check<BookmarkPair> = {
  id: 'watch-bookmarks',
  suite: 'rest-watch',
  title: 'BOOKMARK events only when asked, carrying only metadata.resourceVersion',
  clauses: ['rest:6.1/BOOKMARK', 'rest:2.5/bookmark-object'],
  defaultRuns: 2,
  arbitrary: () =>
    fc
      .tuple(bookmarkCaseArb(true), bookmarkCaseArb(false), fc.boolean())
      .map(([asked, unasked, askedFirst]) => ({ watches: askedFirst ? ([asked, unasked] as const) : ([unasked, asked] as const) })),
  describe: (p) => p.watches.flatMap((w, i) => [...(i > 0 ? ['then:'] : []), ...describeWatch(w)]),
  run: async (pair, cx) => {
    for (const input of pair.watches) {
      // Unasked watches wait as long as asked ones, so a server that sends bookmarks regardless is seen.
      const answer = await watchCase(cx, input, { waitForBookmarkMs: cx.env.settings.bookmarkWaitMs });
      cx.judge(judgeBookmarkRequest(input.bookmarks, answer.status, answer.events));
    }
  },
};
