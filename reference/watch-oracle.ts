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
import { isRecord, showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { servedFromBeforeCase, versionMismatch, type ReadContext } from './read-oracle.ts';
import { alsoAgainst, fail, inconclusive, pass, rule, tagged, unspecified, type Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
import { judgeScope, scopedObjects } from './scope.ts';
import type { AnswerNeed, AnswerTest, EventSeen } from './answer-checks.ts';

export interface ObservedEvent {
  readonly type: unknown;
  readonly object: ObservedObject;
  /** The event's object as sent, for shape checks (bookmarks). */
  readonly raw: unknown;
}

export interface WatchExpectation {
  readonly semantic: 'GetStateAndStartAtMostRecent' | 'GetStateAndStartAtAny' | 'StartAtExact';
  /** The rest:4.5 watch cell. */
  readonly clause: ClauseId;
  /** Start at Exact: index of the requested version. */
  readonly at?: number;
  /** History index when the watch was requested (Most Recent cannot start before it). */
  readonly requestIndex: number;
  readonly bookmarksRequested: boolean;
  readonly kind: string;
  readonly apiVersion: string;
  /**
   * Set when the stream may not have delivered everything yet: why the observation ended (the window
   * the suite waited, or the server closing the stream). Undefined: the stream caught up.
   */
  readonly cutOff?: string;
}

/** One expected change: the write that produced snapshot `index`. */
interface Change {
  readonly index: number;
  readonly key: string;
  /** The version written, or undefined for a removal. */
  readonly version: ObjectVersion | undefined;
  readonly created: boolean;
}

const meaning = { GetStateAndStartAtMostRecent: 'rest:4.5/meaning/get-state-start', GetStateAndStartAtAny: 'rest:4.5/meaning/get-state-start', StartAtExact: 'rest:4.5/meaning/start-exact' } as const;
const ORDINARY = new Set(['ADDED', 'MODIFIED', 'BOOKMARK']);

/**
 * Why an event cannot be read as one of the spec's (rest:2.5, rest:6.1), or undefined. Other type
 * names are not shown (rest:6.1 item 6: upstream's DELETED, ERROR), but a spec type spelt otherwise is
 * none of them: a client matching on ADDED never sees an "added". No later event can mend such a
 * stream, so the suite stops waiting on it at once.
 *   unreadableEvent({ type: 'added', ... })  -> 'an event of type "added" (the spec spells it "ADDED")'
 *   unreadableEvent({ type: 'ADDED', raw: 'x' }) -> 'an ADDED event whose object is no JSON object'
 */
export function unreadableEvent(e: Pick<ObservedEvent, 'type' | 'raw'>): string | undefined {
  const type = e.type;
  if (typeof type !== 'string') return `an event whose type is ${type === undefined ? 'missing' : `not a string (${JSON.stringify(type)})`}`;
  const spelt = [...ORDINARY].find((t) => t !== type && t === type.toUpperCase());
  if (spelt !== undefined) return `an event of type ${JSON.stringify(type)} (the spec spells it "${spelt}")`;
  if (ORDINARY.has(type) && !isRecord(e.raw)) return `an ${type} event whose object is no JSON object`;
  return undefined;
}

/** The in-scope changes from snapshot `from` (exclusive) to `to` (inclusive). */
function changes(ctx: ReadContext, from: number, to: number): Change[] {
  const h = ctx.history;
  const out: Change[] = [];
  for (let i = from + 1; i <= to; i++) {
    const before = h.snapshots[i - 1]!.objects;
    const after = h.snapshots[i]!.objects;
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      if (h.tainted.has(key)) continue;
      const b = before.get(key);
      const a = after.get(key);
      if (b === a) continue;
      const scoped = (a && ctx.inScope(a)) || (b && ctx.inScope(b));
      if (scoped) out.push({ index: i, key, version: a, created: b === undefined });
    }
  }
  return out;
}

const nameOfKey = (key: string): string => key.slice(key.indexOf('/') + 1);

/**
 * The stream the model needed, as data for a reproducer: one ADDED per object of snapshot `from` in
 * scope (any order), then the changes up to `to` in order; a deletion's type is not shown (rest:6.1.6).
 */
function eventsTest(ctx: ReadContext, from: number, to: number, synthetic: boolean): AnswerTest {
  const start: EventSeen[] = synthetic
    ? visibleObjects(ctx.history, from)
        .filter(ctx.inScope)
        .map((v) => ({ type: 'ADDED', name: v.name }))
    : [];
  const then: EventSeen[] = changes(ctx, from, to).map((c) => ({ type: c.version === undefined ? '*' : c.created ? 'ADDED' : 'MODIFIED', name: nameOfKey(c.key) }));
  return { kind: 'events', at: 'judged', start, then };
}

function eventsNeed(says: string, tests: readonly AnswerTest[]): { needs: AnswerNeed[] } {
  return { needs: [{ says, test: tests.length === 1 ? tests[0]! : { kind: 'anyOf', tests } }] };
}

/** Why an observed event is not the given change (undefined when it is). */
function eventMismatch(ctx: ReadContext, c: Change, e: ObservedEvent): string | undefined {
  if (e.object.key !== c.key) return `event for ${e.object.key}, expected one for ${c.key}`;
  if (c.version === undefined) return ORDINARY.has(String(e.type)) ? `${String(e.type)} for ${c.key}, expected its deletion` : undefined;
  const want = c.created ? 'ADDED' : 'MODIFIED';
  if (e.type !== want) return `${String(e.type)} for ${c.key}, expected ${want} ${showVersion(c.version)}`;
  const m = versionMismatch(c.version, e.object, ctx.knownKeys);
  return m === undefined ? undefined : `${want} ${c.key}: ${m}`;
}

const showEvent = (e: ObservedEvent) => `${String(e.type)} ${e.object.key}@${String(e.object.rv)}`;

/** Compares events with expected changes; returns the first difference, or undefined. */
function sequenceMismatch(ctx: ReadContext, expected: readonly Change[], observed: readonly ObservedEvent[]): string | undefined {
  return sequenceDifference(ctx, expected, observed)?.text;
}

/**
 * A version of a Terminating object that the suite's reads never saw, sent before its removal: the
 * server may store the object again between the last finalizer's removal and the object's (rest:3.1
 * bounds that removal in no time, and a server that first stores the emptied finalizer list, then
 * removes, is legal). A reader that came after the removal cannot have recorded it, so the stream
 * may carry it where the history has the removal. Only a new version counts: one the history
 * recorded again (a duplicate) is still a difference.
 */
function unseenBeforeRemoval(ctx: ReadContext, c: Change, e: ObservedEvent): boolean {
  if (c.version !== undefined || e.type !== 'MODIFIED' || e.object.key !== c.key) return false;
  const terminating = typeof e.object.deletionTimestamp === 'string' && e.object.deletionTimestamp !== '';
  return terminating && !ctx.history.rvIndex.has(String(e.object.rv));
}

/** The first difference, and whether it is only that the tail has not arrived (`missing`). */
function sequenceDifference(ctx: ReadContext, expected: readonly Change[], observed: readonly ObservedEvent[]): { missing: boolean; text: string } | undefined {
  let i = 0;
  for (let k = 0; k < observed.length || i < expected.length; k++) {
    const c = expected[i];
    const e = observed[k];
    if (!e)
      return {
        missing: true,
        text: `missing ${expected
          .slice(i)
          .map((x) => (x.version ? `${x.created ? 'ADDED' : 'MODIFIED'} ${showVersion(x.version)}` : `deletion of ${x.key}`))
          .join(', ')}`,
      };
    if (!c) return { missing: false, text: `unexpected ${observed.slice(k).map(showEvent).join(', ')} after every write was delivered` };
    if (unseenBeforeRemoval(ctx, c, e)) continue;
    const m = eventMismatch(ctx, c, e);
    if (m) return { missing: false, text: `event ${k + 1}: ${m}` };
    i++;
  }
  return undefined;
}

/**
 * True when `events` could be the start of a state-starting stream from `objects` followed by
 * `later`: some synthetic ADDED events (distinct objects, each at its version), then, once all are
 * there, a prefix of the later changes.
 */
function isPrefixFromState(ctx: ReadContext, objects: readonly ObjectVersion[], later: readonly Change[], events: readonly ObservedEvent[]): boolean {
  if (events.length <= objects.length) {
    const want = new Map(objects.map((o) => [o.key, o]));
    const seen = new Set<string>();
    return events.every((e) => {
      const v = want.get(e.object.key);
      const ok = e.type === 'ADDED' && v !== undefined && !seen.has(v.key) && versionMismatch(v, e.object, ctx.knownKeys) === undefined;
      seen.add(e.object.key);
      return ok;
    });
  }
  if (!isSyntheticState(ctx, objects, events.slice(0, objects.length))) return false;
  const d = sequenceDifference(ctx, later, events.slice(objects.length));
  return d === undefined || d.missing;
}

/** The verdicts for a cut-off stream that is a prefix of an acceptable one: inconclusive, never a pass. */
function cutOffVerdicts(exp: WatchExpectation, what: string): Judgement[] {
  const expected = `${what}; the rest may still come (${exp.cutOff})`;
  return [inconclusive('rest:6.1.1', expected, 'the events so far are in order, with no gap and no duplicate, but the stream stopped short'), inconclusive(exp.clause, expected, 'stopped short')];
}

/** True when `events` are exactly one ADDED per object of `objects`, each at its version. */
function isSyntheticState(ctx: ReadContext, objects: readonly ObjectVersion[], events: readonly ObservedEvent[]): boolean {
  if (events.length !== objects.length) return false;
  const want = new Map(objects.map((o) => [o.key, o]));
  const seen = new Set<string>();
  for (const e of events) {
    const v = want.get(e.object.key);
    if (e.type !== 'ADDED' || !v || seen.has(v.key) || versionMismatch(v, e.object, ctx.knownKeys) !== undefined) return false;
    seen.add(v.key);
  }
  return true;
}

/** Go zero values (null, {}, []) carry nothing: upstream bookmarks contain `creationTimestamp: null`. */
const isEmptyValue = (v: unknown) => v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.values(v).every(isEmptyValue));

function bookmarkShape(exp: WatchExpectation, raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'the object is not a JSON object';
  if (raw['kind'] !== undefined && raw['kind'] !== exp.kind) return `kind ${JSON.stringify(raw['kind'])}, not ${exp.kind}`;
  if (raw['apiVersion'] !== undefined && raw['apiVersion'] !== exp.apiVersion) return `apiVersion ${JSON.stringify(raw['apiVersion'])}`;
  const md = raw['metadata'];
  if (!isRecord(md) || typeof md['resourceVersion'] !== 'string' || md['resourceVersion'] === '') return 'no metadata.resourceVersion';
  const extraMeta = Object.keys(md).filter((k) => k !== 'resourceVersion' && !isEmptyValue(md[k]));
  const extraTop = Object.keys(raw).filter((k) => !['kind', 'apiVersion', 'metadata'].includes(k) && !isEmptyValue(raw[k]));
  if (extraMeta.length + extraTop.length > 0) return `carries more than metadata.resourceVersion: ${[...extraMeta.map((k) => `metadata.${k}`), ...extraTop].join(', ')}`;
  return undefined;
}

export interface WatchJudgement {
  readonly judgements: Judgement[];
  /** Snapshot the watch started from, when it could be told. */
  readonly startIndex?: number;
}

export function judgeWatch(ctx: ReadContext, exp: WatchExpectation, events: readonly ObservedEvent[]): WatchJudgement {
  const h: History = ctx.history;
  const n = h.snapshots.length - 1;
  const js: Judgement[] = [];

  // rest:2.5 envelope of every event.
  for (const e of events) {
    const unreadable = unreadableEvent(e);
    const ok = unreadable === undefined && isRecord(e.raw) && (e.type === 'BOOKMARK' || !ORDINARY.has(e.type as string) || e.object.kind === undefined || e.object.kind === exp.kind);
    js.push(
      rule(
        'rest:2.5/watch-event',
        ok,
        `type (ADDED, MODIFIED, BOOKMARK) and an object of kind ${exp.kind}`,
        unreadable ?? `${String(e.type)} with ${isRecord(e.raw) ? `kind ${JSON.stringify(e.object.kind)}` : 'no object'}`,
      ),
    );
  }

  // Scope first, over every object event (the suite's or not): an object from another namespace or
  // outside the selector is a failure of the scope rule, not a foreign event to skip.
  const scoped = judgeScope(ctx.scope, scopedObjects(events.filter((e) => isRecord(e.raw))), 'watch');
  js.push(...scoped);
  if (scoped.some((j) => j.verdict === 'fail')) return { judgements: js };

  const ours = events.filter((e) => e.type !== 'BOOKMARK' && h.everKeys.has(e.object.key) && !h.tainted.has(e.object.key));
  const oursBefore: number[] = [];
  let count = 0;
  for (const e of events) {
    if (e === ours[count]) count++;
    if (e.type === 'BOOKMARK') oursBefore.push(count);
  }

  // Start point and the events after it.
  let start: number | undefined;
  let synthetic = 0;
  if (exp.semantic === 'StartAtExact') {
    const at = exp.at!;
    const d = sequenceDifference(ctx, changes(ctx, at, n), ours);
    if (d === undefined) start = at;
    else if (d.missing && exp.cutOff !== undefined) {
      return { judgements: [...js, ...cutOffVerdicts(exp, `every write after snapshot #${at}, in order: ${d.text}`)] };
    } else {
      const state = visibleObjects(h, at).filter(ctx.inScope);
      const k = state.length;
      const need = eventsNeed('the watch from that version sends exactly the later writes, in order, no synthetic ADDED', [eventsTest(ctx, at, n, false)]);
      if (k > 0 && isSyntheticState(ctx, state, ours.slice(0, k)) && sequenceMismatch(ctx, changes(ctx, at, n), ours.slice(k)) === undefined) {
        js.push(
          fail(exp.clause, 'Start at Exact: only changes after the version, no synthetic ADDED', `${k} synthetic ADDED event(s) first: ${ours.slice(0, k).map(showEvent).join(', ')}`, need),
          fail(meaning[exp.semantic], 'no synthetic ADDED', 'synthetic ADDED sent', need),
        );
        return { judgements: js };
      }
      js.push(fail('rest:6.1.1', `exactly the writes after snapshot #${at}, in order`, d.text, need));
      return { judgements: js };
    }
  } else {
    const lo = exp.semantic === 'GetStateAndStartAtMostRecent' ? exp.requestIndex : 0;
    for (let j = n; j >= lo && start === undefined; j--) {
      const state = visibleObjects(h, j).filter(ctx.inScope);
      if (isSyntheticState(ctx, state, ours.slice(0, state.length)) && sequenceMismatch(ctx, changes(ctx, j, n), ours.slice(state.length)) === undefined) {
        start = j;
        synthetic = state.length;
      }
    }
    // Any start may lie before the case reused its namespace: only a Most Recent start is data enough.
    const range = Array.from({ length: n - lo + 1 }, (_, i) => lo + i);
    const need =
      exp.semantic === 'GetStateAndStartAtMostRecent'
        ? eventsNeed(
            'the watch sends one ADDED per existing object, then exactly the later writes in order',
            range.map((j) => eventsTest(ctx, j, n, true)),
          )
        : undefined;
    if (start === undefined) {
      // A stream cut off before its synthetic ADDED (a silent one, say) may still send them: first.
      if (exp.cutOff !== undefined) {
        for (let j = n; j >= lo; j--) {
          if (isPrefixFromState(ctx, visibleObjects(h, j).filter(ctx.inScope), changes(ctx, j, n), ours)) {
            return { judgements: [...js, ...cutOffVerdicts(exp, `synthetic ADDED for the state of snapshot #${j}, then every later write`)] };
          }
        }
      }
      for (let j = n; j >= lo; j--) {
        const state = visibleObjects(h, j).filter(ctx.inScope);
        if (state.length > 0 && sequenceMismatch(ctx, changes(ctx, j, n), ours) === undefined) {
          js.push(
            fail(exp.clause, `Get State and Start: one synthetic ADDED per object of the start snapshot (${state.map(showVersion).join(', ')}), then the changes`, 'no synthetic ADDED events', need),
            fail(meaning[exp.semantic], 'synthetic ADDED for every existing object', 'none sent', need),
          );
          return { judgements: js };
        }
      }
      if (
        servedFromBeforeCase(
          ctx,
          exp.semantic,
          ours.map((e) => e.object),
        )
      ) {
        return {
          judgements: [
            ...js,
            inconclusive(
              exp.clause,
              'Get State and Start at Any: a past state, then the changes after it',
              'the stream starts from a state from before this case reused the namespace, with versions answered then (the model holds none of those states)',
            ),
          ],
        };
      }
      // Most Recent, started from a state older than the request and then every later change in order:
      // the start semantics are broken (a cache behind the store), the itemizing is not.
      if (exp.semantic === 'GetStateAndStartAtMostRecent') {
        for (let j = lo - 1; j >= 0; j--) {
          const state = visibleObjects(h, j).filter(ctx.inScope);
          if (isSyntheticState(ctx, state, ours.slice(0, state.length)) && sequenceMismatch(ctx, changes(ctx, j, n), ours.slice(state.length)) === undefined) {
            const stale = { input: 'watch-most-recent', class: 'watch-start-stale' } as const;
            js.push(
              ...tagged(
                [
                  fail(
                    exp.clause,
                    `Get State and Start at Most Recent: the state at snapshot #${lo} or later, then the changes`,
                    `the state of snapshot #${j} (${state.map(showVersion).join(', ') || 'no objects'}), from before the watch was requested, then every later change`,
                  ),
                  fail(meaning[exp.semantic], 'the most recent state at the request', `an older state (snapshot #${j} of #${lo})`),
                ],
                stale,
              ),
            );
            return { judgements: js };
          }
        }
      }
      const closest = visibleObjects(h, n).filter(ctx.inScope);
      const m = sequenceMismatch(ctx, changes(ctx, n, n), ours.slice(closest.length)) ?? 'the first events are not the state of any snapshot in range';
      js.push(fail('rest:6.1.1', `synthetic ADDED for a snapshot in #${lo}..#${n}, then exactly the later writes in order`, `${ours.map(showEvent).join(', ') || 'no events'} (${m})`, need));
      return { judgements: js };
    }
  }
  const startVerdicts = [pass(exp.clause, 'start semantics of the watch table'), pass(meaning[exp.semantic], 'start semantics')];
  js.push(
    ...(exp.semantic === 'GetStateAndStartAtMostRecent' ? tagged(startVerdicts, { input: 'watch-most-recent' }) : startVerdicts),
    pass('rest:6.1.1', 'events itemize the writes after the start, in order, no gap, no duplicate'),
  );
  if (ours.length > synthetic) js.push(pass('rest:4.8/watch-response', 'a series of JSON event documents'));

  // Deletions: required, but their type name and payload are not shown.
  for (const e of ours.slice(synthetic)) if (!ORDINARY.has(String(e.type))) js.push(unspecified('rest:6.1.6', 'deletion events: type and payload not shown', `deletion sent as ${String(e.type)}`));
  for (const e of ours.slice(synthetic)) if (e.type === 'ADDED') js.push(pass('rest:6.1/ADDED', 'ADDED for a creation'));
  for (const e of ours.slice(synthetic)) if (e.type === 'MODIFIED') js.push(pass('rest:6.1/MODIFIED', 'MODIFIED for a change'));

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
    start === undefined || exp.semantic === 'StartAtExact'
      ? { at: start, synthetic }
      : earliestFittingStart(ctx, exp.semantic === 'GetStateAndStartAtMostRecent' ? exp.requestIndex : 0, start, synthetic, ours);
  let lastIndex = -1;
  events
    .filter((e) => e.type === 'BOOKMARK')
    .forEach((b, i) => {
      js.push(rule('rest:6.1/BOOKMARK', exp.bookmarksRequested, 'BOOKMARK only when allowWatchBookmarks=true', 'a BOOKMARK on a watch that did not ask for them'));
      const shape = bookmarkShape(exp, b.raw);
      js.push(rule('rest:2.5/bookmark-object', shape === undefined, `an object of kind ${exp.kind} with only metadata.resourceVersion`, shape ?? ''));
      const idx = typeof b.object.rv === 'string' ? h.rvIndex.get(b.object.rv) : undefined;
      if (idx !== undefined && earliest.at !== undefined) {
        const due = earliest.synthetic + changes(ctx, earliest.at, idx).length;
        js.push(rule('rest:6.1/BOOKMARK', oursBefore[i]! >= due, `every change up to snapshot #${idx} sent before a BOOKMARK at its version`, `only ${oursBefore[i]} of ${due} events before it`));
        js.push(rule('rest:6.1/BOOKMARK', idx >= lastIndex, 'bookmark versions never move backwards', `bookmark at snapshot #${idx} after one at #${lastIndex}`));
        lastIndex = Math.max(lastIndex, idx);
      }
    });
  return start === undefined ? { judgements: js } : { judgements: js, startIndex: start };
}

/**
 * The earliest snapshot at or after `lo` a state-starting stream fits (one synthetic ADDED per object
 * of its state, then exactly the later changes), given one it fits (`start`, with `synthetic` ADDED).
 *
 *   history #1 {a@10} #2 {a@10, b@11}; events ADDED a@10, ADDED b@11 -> #1 (1 synthetic), not #2
 */
function earliestFittingStart(ctx: ReadContext, lo: number, start: number, synthetic: number, ours: readonly ObservedEvent[]): { at: number; synthetic: number } {
  let best = { at: start, synthetic };
  const n = ctx.history.snapshots.length - 1;
  for (let j = start - 1; j >= lo; j--) {
    const state = visibleObjects(ctx.history, j).filter(ctx.inScope);
    if (isSyntheticState(ctx, state, ours.slice(0, state.length)) && sequenceMismatch(ctx, changes(ctx, j, n), ours.slice(state.length)) === undefined) best = { at: j, synthetic: state.length };
  }
  return best;
}

/**
 * rest:4.8 and rest:4.3/watch on how a watch request was answered: a watch answers 200, and the GET
 * with watch=1 became a watch. The checks that open a watch hand over the status alone.
 *
 *   judgeWatchOpened(403) -> [fail rest:4.8/watch-response, fail rest:4.3/watch]
 */
export function judgeWatchOpened(status: number): Judgement[] {
  return [rule('rest:4.8/watch-response', status === 200, 'a watch answers 200', `status ${status}`), rule('rest:4.3/watch', status === 200, 'watch=1 turns the GET into a watch', `status ${status}`)];
}

/**
 * rest:4.8: the body of a watch is a series of JSON event documents; `parseError` is what the
 * stream reader could not parse, if anything.
 *
 *   judgeWatchDocuments('line 3: Unexpected token') -> [fail rest:4.8/watch-response]
 */
export function judgeWatchDocuments(parseError: string | undefined): Judgement[] {
  return [parseError === undefined ? pass('rest:4.8/watch-response', 'JSON event documents') : fail('rest:4.8/watch-response', 'a series of JSON event documents', parseError)];
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

/**
 * What a watch that did or did not ask for bookmarks showed, once its stream was judged (judgeWatch
 * holds any bookmark to its shape): none at all unasked (rest:6.1/BOOKMARK), and the parameter
 * accepted when asked (rest:4.3/allowWatchBookmarks: the watch was served).
 *
 *   judgeBookmarkRequest(false, 200, [{ type: 'BOOKMARK', ... }]) -> [fail rest:6.1/BOOKMARK]
 */
export function judgeBookmarkRequest(requested: boolean, status: number, events: readonly ObservedEvent[]): Judgement[] {
  if (!requested) {
    const bookmarks = events.filter((e) => e.type === 'BOOKMARK').length;
    const expected = 'no BOOKMARK on a watch that did not ask';
    return [bookmarks === 0 ? pass('rest:6.1/BOOKMARK', expected) : fail('rest:6.1/BOOKMARK', expected, `${bookmarks} BOOKMARK event(s)`)];
  }
  const expected = 'allowWatchBookmarks accepted; any bookmarks had the right shape';
  return [status === 200 ? pass('rest:4.3/allowWatchBookmarks', expected) : fail('rest:4.3/allowWatchBookmarks', expected, `status ${status}`)];
}
