/**
 * The watch oracle (rest:4.5 watch table and meanings, rest:6.1, rest:2.5): given the history of the
 * suite's writes and the events a watch delivered, decide whether they are one of the acceptable
 * streams. Per object and overall, events must itemize exactly the writes after the start version, in
 * order, with no gap and no duplicate; a state-starting watch first sends one synthetic ADDED per
 * object of some snapshot in range; Start at Exact sends none. Deletion events are required (a
 * delete is an operation) but their type name and payload are not shown (rest:6.1.6).
 *
 * The spec bounds neither how soon an event arrives nor how long a stream lasts. When the observation
 * was cut off (the suite stopped waiting, or the server ended the stream), events that are a prefix of
 * an acceptable stream, with only the tail missing, are inconclusive; a gap, a duplicate, a wrong or
 * out-of-order event still fails.
 */
import { visibleObjects, type History } from './history.ts';
import { isRecord, showVersion } from './objects.ts';
import { servedFromBeforeCase, type ReadContext } from './read-oracle.ts';
import { alsoAgainst, fail, inconclusive, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { judgeScope, scopedObjects } from './scope.ts';
import {
  ORDINARY,
  changes,
  earliestFittingStart,
  eventsNeed,
  eventsTest,
  isPrefixFromState,
  isSyntheticState,
  sequenceDifference,
  sequenceMismatch,
  showEvent,
  stateFits,
  unreadableEvent,
  type ObservedEvent,
  type WatchExpectation,
} from './watch-stream.ts';
import { judgeStreamBookmarks } from './watch-bookmarks.ts';

// The stream's own vocabulary and the bookmark judges, for the callers that import the oracle.
export { unreadableEvent, type ObservedEvent, type WatchExpectation } from './watch-stream.ts';
export { judgeBookmarkRequest } from './watch-bookmarks.ts';

const meaning = {
  GetStateAndStartAtMostRecent: 'rest:4.5/meaning/get-state-start',
  GetStateAndStartAtAny: 'rest:4.5/meaning/get-state-start',
  StartAtExact: 'rest:4.5/meaning/start-exact',
} as const;

/** The verdicts for a cut-off stream that is a prefix of an acceptable one: inconclusive, never a pass. */
function cutOffVerdicts(exp: WatchExpectation, what: string): Judgement[] {
  const expected = `${what}; the rest may still come (${exp.cutOff})`;
  return [
    inconclusive('rest:6.1.1', expected, 'the events so far are in order, with no gap and no duplicate, but the stream stopped short'),
    inconclusive(exp.clause, expected, 'stopped short'),
  ];
}

/** rest:2.5: every event has a type of the spec's and an object of the watched kind. */
function judgeEnvelopes(exp: WatchExpectation, events: readonly ObservedEvent[]): Judgement[] {
  return events.map((e) => {
    const unreadable = unreadableEvent(e);
    const ok =
      unreadable === undefined &&
      isRecord(e.raw) &&
      (e.type === 'BOOKMARK' || !ORDINARY.has(e.type as string) || e.object.kind === undefined || e.object.kind === exp.kind);
    return rule(
      'rest:2.5/watch-event',
      ok,
      `type (ADDED, MODIFIED, BOOKMARK) and an object of kind ${exp.kind}`,
      unreadable ?? `${String(e.type)} with ${isRecord(e.raw) ? `kind ${JSON.stringify(e.object.kind)}` : 'no object'}`,
    );
  });
}

/** Where the stream started (with its count of synthetic ADDED), or the verdicts that end the judging when it fits no start. */
type StartFound = { readonly start: number; readonly synthetic: number } | { readonly end: Judgement[] };

/** Start at Exact: exactly the writes after the requested version, no synthetic ADDED. */
function exactStart(ctx: ReadContext, exp: WatchExpectation, ours: readonly ObservedEvent[], n: number): StartFound {
  const at = exp.at!;
  const d = sequenceDifference(ctx, changes(ctx, at, n), ours);
  if (d === undefined) return { start: at, synthetic: 0 };
  if (d.missing && exp.cutOff !== undefined) return { end: cutOffVerdicts(exp, `every write after snapshot #${at}, in order: ${d.text}`) };
  const state = visibleObjects(ctx.history, at).filter(ctx.inScope);
  const k = state.length;
  const need = eventsNeed('the watch from that version sends exactly the later writes, in order, no synthetic ADDED', [
    eventsTest(ctx, at, n, false),
  ]);
  if (k > 0 && isSyntheticState(ctx, state, ours.slice(0, k)) && sequenceMismatch(ctx, changes(ctx, at, n), ours.slice(k)) === undefined) {
    return {
      end: [
        fail(
          exp.clause,
          'Start at Exact: only changes after the version, no synthetic ADDED',
          `${k} synthetic ADDED event(s) first: ${ours.slice(0, k).map(showEvent).join(', ')}`,
          need,
        ),
        fail(meaning[exp.semantic], 'no synthetic ADDED', 'synthetic ADDED sent', need),
      ],
    };
  }
  return { end: [fail('rest:6.1.1', `exactly the writes after snapshot #${at}, in order`, d.text, need)] };
}

/** Get State and Start (Most Recent or Any): the latest snapshot in range whose state, then the later changes, the stream is. */
function stateStart(ctx: ReadContext, exp: WatchExpectation, ours: readonly ObservedEvent[], n: number): StartFound {
  const lo = exp.semantic === 'GetStateAndStartAtMostRecent' ? exp.requestIndex : 0;
  for (let j = n; j >= lo; j--) {
    const state = stateFits(ctx, j, n, ours);
    if (state !== undefined) return { start: j, synthetic: state.length };
  }
  return { end: noStateStart(ctx, exp, ours, lo, n) };
}

/** Why a state-starting stream fits no start in `lo..n`: cut off early, no synthetic ADDED, a state from before the case, a stale start, or a wrong stream. */
function noStateStart(ctx: ReadContext, exp: WatchExpectation, ours: readonly ObservedEvent[], lo: number, n: number): Judgement[] {
  const h = ctx.history;
  // Any start may lie before the case reused its namespace: only a Most Recent start is data enough.
  const range = Array.from({ length: n - lo + 1 }, (_, i) => lo + i);
  const need =
    exp.semantic === 'GetStateAndStartAtMostRecent'
      ? eventsNeed(
          'the watch sends one ADDED per existing object, then exactly the later writes in order',
          range.map((j) => eventsTest(ctx, j, n, true)),
        )
      : undefined;
  // A stream cut off before its synthetic ADDED (a silent one, say) may still send them: first.
  if (exp.cutOff !== undefined) {
    for (let j = n; j >= lo; j--) {
      if (isPrefixFromState(ctx, visibleObjects(h, j).filter(ctx.inScope), changes(ctx, j, n), ours)) {
        return cutOffVerdicts(exp, `synthetic ADDED for the state of snapshot #${j}, then every later write`);
      }
    }
  }
  for (let j = n; j >= lo; j--) {
    const state = visibleObjects(h, j).filter(ctx.inScope);
    if (state.length > 0 && sequenceMismatch(ctx, changes(ctx, j, n), ours) === undefined) {
      return [
        fail(
          exp.clause,
          `Get State and Start: one synthetic ADDED per object of the start snapshot (${state.map(showVersion).join(', ')}), then the changes`,
          'no synthetic ADDED events',
          need,
        ),
        fail(meaning[exp.semantic], 'synthetic ADDED for every existing object', 'none sent', need),
      ];
    }
  }
  if (
    servedFromBeforeCase(
      ctx,
      exp.semantic,
      ours.map((e) => e.object),
    )
  ) {
    return [
      inconclusive(
        exp.clause,
        'Get State and Start at Any: a past state, then the changes after it',
        'the stream starts from a state from before this case reused the namespace, with versions answered then (the model holds none of those states)',
      ),
    ];
  }
  const stale = exp.semantic === 'GetStateAndStartAtMostRecent' ? staleMostRecent(ctx, exp, ours, lo, n) : undefined;
  if (stale !== undefined) return stale;
  const closest = visibleObjects(h, n).filter(ctx.inScope);
  const m =
    sequenceMismatch(ctx, changes(ctx, n, n), ours.slice(closest.length)) ?? 'the first events are not the state of any snapshot in range';
  return [
    fail(
      'rest:6.1.1',
      `synthetic ADDED for a snapshot in #${lo}..#${n}, then exactly the later writes in order`,
      `${ours.map(showEvent).join(', ') || 'no events'} (${m})`,
      need,
    ),
  ];
}

/**
 * Most Recent, started from a state older than the request and then every later change in order: the
 * start semantics are broken (a cache behind the store), the itemizing is not. Undefined when the
 * stream fits no older start either.
 */
function staleMostRecent(
  ctx: ReadContext,
  exp: WatchExpectation,
  ours: readonly ObservedEvent[],
  lo: number,
  n: number,
): Judgement[] | undefined {
  for (let j = lo - 1; j >= 0; j--) {
    const state = stateFits(ctx, j, n, ours);
    if (state === undefined) continue;
    const stale = { input: 'watch-most-recent', class: 'watch-start-stale' } as const;
    return tagged(
      [
        fail(
          exp.clause,
          `Get State and Start at Most Recent: the state at snapshot #${lo} or later, then the changes`,
          `the state of snapshot #${j} (${state.map(showVersion).join(', ') || 'no objects'}), from before the watch was requested, then every later change`,
        ),
        fail(meaning[exp.semantic], 'the most recent state at the request', `an older state (snapshot #${j} of #${lo})`),
      ],
      stale,
    );
  }
  return undefined;
}

/** The verdicts of a stream that fits its start: the start semantics, the itemizing, and each event after the synthetic ones. */
function startedVerdicts(exp: WatchExpectation, ours: readonly ObservedEvent[], synthetic: number): Judgement[] {
  const js: Judgement[] = [];
  const startVerdicts = [pass(exp.clause, 'start semantics of the watch table'), pass(meaning[exp.semantic], 'start semantics')];
  js.push(
    ...(exp.semantic === 'GetStateAndStartAtMostRecent' ? tagged(startVerdicts, { input: 'watch-most-recent' }) : startVerdicts),
    pass('rest:6.1.1', 'events itemize the writes after the start, in order, no gap, no duplicate'),
  );
  if (ours.length > synthetic) js.push(pass('rest:4.8/watch-response', 'a series of JSON event documents'));

  // Deletions: required, but their type name and payload are not shown.
  for (const e of ours.slice(synthetic))
    if (!ORDINARY.has(String(e.type)))
      js.push(unspecified('rest:6.1.6', 'deletion events: type and payload not shown', `deletion sent as ${String(e.type)}`));
  for (const e of ours.slice(synthetic)) if (e.type === 'ADDED') js.push(pass('rest:6.1/ADDED', 'ADDED for a creation'));
  for (const e of ours.slice(synthetic)) if (e.type === 'MODIFIED') js.push(pass('rest:6.1/MODIFIED', 'MODIFIED for a change'));
  return js;
}

export interface WatchJudgement {
  readonly judgements: Judgement[];
  /** Snapshot the watch started from, when it could be told. */
  readonly startIndex?: number;
}

export function judgeWatch(ctx: ReadContext, exp: WatchExpectation, events: readonly ObservedEvent[]): WatchJudgement {
  const h: History = ctx.history;
  const n = h.snapshots.length - 1;
  const js: Judgement[] = judgeEnvelopes(exp, events);

  // Scope first, over every object event (the suite's or not): an object from another namespace or
  // outside the selector is a failure of the scope rule, not a foreign event to skip.
  const scoped = judgeScope(ctx.scope, scopedObjects(events.filter((e) => isRecord(e.raw))), 'watch');
  js.push(...scoped);
  if (scoped.some((j) => j.verdict === 'fail')) return { judgements: js };

  const ours = events.filter((e) => e.type !== 'BOOKMARK' && h.everKeys.has(e.object.key) && !h.tainted.has(e.object.key));
  const found = exp.semantic === 'StartAtExact' ? exactStart(ctx, exp, ours, n) : stateStart(ctx, exp, ours, n);
  if ('end' in found) return { judgements: [...js, ...found.end] };
  const { start, synthetic } = found;
  js.push(...startedVerdicts(exp, ours, synthetic));

  // Bookmarks: only on request, shape, and "everything up to its version was sent", never backwards.
  // rest:6.1: "All changes up to the carried metadata.resourceVersion were already sent." What is due
  // before a bookmark is counted from the earliest start the stream fits, not the latest the search
  // above took: creations after a state look like more synthetic ADDED of a later one, so a stream
  // that started at {a}, then got a BOOKMARK at a's version, then ADDED b, also fits a start at {a, b}
  // (two synthetic ADDED), and a bookmark between the two is on time for the one and "early" for the
  // other. Every start the stream fits sends the same events, so the earliest asks the least and is
  // still one whole reading of the stream (upstream 1.24 under load sent such a bookmark between two
  // creations of an Any watch). A bookmark past a change not yet sent fails under every start.
  const earliest =
    exp.semantic === 'StartAtExact'
      ? { at: start, synthetic }
      : earliestFittingStart(ctx, exp.semantic === 'GetStateAndStartAtMostRecent' ? exp.requestIndex : 0, start, synthetic, ours);
  js.push(...judgeStreamBookmarks(ctx, exp, events, ours, earliest));
  return { judgements: js, startIndex: start };
}

/**
 * rest:4.8 and rest:4.3/watch on how a watch request was answered: a watch answers 200, and the GET
 * with watch=1 became a watch. The checks that open a watch hand over the status alone.
 *
 *   judgeWatchOpened(403) -> [fail rest:4.8/watch-response, fail rest:4.3/watch]
 */
export function judgeWatchOpened(status: number): Judgement[] {
  return [
    rule('rest:4.8/watch-response', status === 200, 'a watch answers 200', `status ${status}`),
    rule('rest:4.3/watch', status === 200, 'watch=1 turns the GET into a watch', `status ${status}`),
  ];
}

/**
 * rest:4.8: the body of a watch is a series of JSON event documents; `parseError` is what the
 * stream reader could not parse, if anything.
 *
 *   judgeWatchDocuments('line 3: Unexpected token') -> [fail rest:4.8/watch-response]
 */
export function judgeWatchDocuments(parseError: string | undefined): Judgement[] {
  return [
    parseError === undefined
      ? pass('rest:4.8/watch-response', 'JSON event documents')
      : fail('rest:4.8/watch-response', 'a series of JSON event documents', parseError),
  ];
}

/**
 * A finished stream as a whole: a parse failure of its documents (rest:4.8, only the failure: the
 * stream's own events already show the documents parsed), then the events against the history
 * (judgeWatch); with `also`, the overall verdict is also `also.clause`'s, for a clause whose promise
 * is exactly that this stream is right (a resumed watch, rest:6.1.2).
 *
 *   judgeFinishedWatch(ctx, exp, events, undefined, { clause: 'rest:6.1.2', expected: 'resumed' })
 *     -> judgeWatch's judgements, then pass or fail rest:6.1.2
 */
export function judgeFinishedWatch(
  ctx: ReadContext,
  exp: WatchExpectation,
  events: readonly ObservedEvent[],
  parseError: string | undefined,
  also?: { readonly clause: ClauseId; readonly expected: string },
): Judgement[] {
  const js: Judgement[] = parseError === undefined ? [] : judgeWatchDocuments(parseError);
  js.push(...judgeWatch(ctx, exp, events).judgements);
  return also ? alsoAgainst(also.clause, also.expected, js) : js;
}
