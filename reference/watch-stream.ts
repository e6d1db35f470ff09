/**
 * A watch stream read against the history (rest:6.1, rest:2.5): the events a watch delivered, what the
 * model expects of them (the in-scope changes between two snapshots, one synthetic ADDED per object of
 * a starting state), and where they first differ. reference/watch-oracle.ts turns these into verdicts.
 */
import { visibleObjects } from './history.ts';
import { isRecord, showVersion, type ObjectVersion, type ObservedObject } from './objects.ts';
import { versionMismatch, type ReadContext } from './read-oracle.ts';
import type { ClauseId } from './catalog/clause-ids.ts';
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
export interface Change {
  readonly index: number;
  readonly key: string;
  /** The version written, or undefined for a removal. */
  readonly version: ObjectVersion | undefined;
  readonly created: boolean;
}

/** The event types of an ordinary object stream; a deletion's type is not shown (rest:6.1.6). */
export const ORDINARY = new Set(['ADDED', 'MODIFIED', 'BOOKMARK']);

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
  if (typeof type !== 'string')
    return `an event whose type is ${type === undefined ? 'missing' : `not a string (${JSON.stringify(type)})`}`;
  const spelt = [...ORDINARY].find((t) => t !== type && t === type.toUpperCase());
  if (spelt !== undefined) return `an event of type ${JSON.stringify(type)} (the spec spells it "${spelt}")`;
  if (ORDINARY.has(type) && !isRecord(e.raw)) return `an ${type} event whose object is no JSON object`;
  return undefined;
}

/** The in-scope changes from snapshot `from` (exclusive) to `to` (inclusive). */
export function changes(ctx: ReadContext, from: number, to: number): Change[] {
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
export function eventsTest(ctx: ReadContext, from: number, to: number, synthetic: boolean): AnswerTest {
  const start: EventSeen[] = synthetic
    ? visibleObjects(ctx.history, from)
        .filter(ctx.inScope)
        .map((v) => ({ type: 'ADDED', name: v.name }))
    : [];
  const then: EventSeen[] = changes(ctx, from, to).map((c) => ({
    type: c.version === undefined ? '*' : c.created ? 'ADDED' : 'MODIFIED',
    name: nameOfKey(c.key),
  }));
  return { kind: 'events', at: 'judged', start, then };
}

export function eventsNeed(says: string, tests: readonly AnswerTest[]): { needs: AnswerNeed[] } {
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

export const showEvent = (e: ObservedEvent) => `${String(e.type)} ${e.object.key}@${String(e.object.rv)}`;

/** Compares events with expected changes; returns the first difference, or undefined. */
export function sequenceMismatch(ctx: ReadContext, expected: readonly Change[], observed: readonly ObservedEvent[]): string | undefined {
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
export function sequenceDifference(
  ctx: ReadContext,
  expected: readonly Change[],
  observed: readonly ObservedEvent[],
): { missing: boolean; text: string } | undefined {
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
export function isPrefixFromState(
  ctx: ReadContext,
  objects: readonly ObjectVersion[],
  later: readonly Change[],
  events: readonly ObservedEvent[],
): boolean {
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

/** True when `events` are exactly one ADDED per object of `objects`, each at its version. */
export function isSyntheticState(ctx: ReadContext, objects: readonly ObjectVersion[], events: readonly ObservedEvent[]): boolean {
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

/**
 * The in-scope state of snapshot `j` when the stream fits a start there (one synthetic ADDED per object
 * of that state, then exactly the changes up to snapshot `n`), else undefined.
 */
export function stateFits(ctx: ReadContext, j: number, n: number, ours: readonly ObservedEvent[]): ObjectVersion[] | undefined {
  const state = visibleObjects(ctx.history, j).filter(ctx.inScope);
  const fits =
    isSyntheticState(ctx, state, ours.slice(0, state.length)) &&
    sequenceMismatch(ctx, changes(ctx, j, n), ours.slice(state.length)) === undefined;
  return fits ? state : undefined;
}

/**
 * The earliest snapshot at or after `lo` a state-starting stream fits (one synthetic ADDED per object
 * of its state, then exactly the later changes), given one it fits (`start`, with `synthetic` ADDED).
 *
 *   history #1 {a@10} #2 {a@10, b@11}; events ADDED a@10, ADDED b@11 -> #1 (1 synthetic), not #2
 */
export function earliestFittingStart(
  ctx: ReadContext,
  lo: number,
  start: number,
  synthetic: number,
  ours: readonly ObservedEvent[],
): { at: number; synthetic: number } {
  let best = { at: start, synthetic };
  const n = ctx.history.snapshots.length - 1;
  for (let j = start - 1; j >= lo; j--) {
    const state = stateFits(ctx, j, n, ours);
    if (state !== undefined) best = { at: j, synthetic: state.length };
  }
  return best;
}
