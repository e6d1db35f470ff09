/**
 * When a reproducer sends what: the pauses the failing case made, and the watches whose verdict rests
 * on how soon they started.
 *
 * Pauses: a gap in the recording longer than a request takes is the case waiting (out a history window,
 * for a stream to catch up); the script waits as long, so a watch from a version the case let fall out
 * of the history starts when that version is out of it again (rest:6.1.3).
 *
 * Late watches: a watch from a learned resourceVersion shows a fault only while the target's history
 * still holds that version (a server that replays the change at the start version, watch-exact-inclusive,
 * cannot replay a change it has dropped). The spec bounds no history window, so a stream that looks right
 * but started much later after its version was learned than the failing case's did decides nothing: the
 * script then exits 3 (undecided). A stream that shows the failure decides however late it started.
 *
 *   recorded: 4 LIST -> rv "7" (ends at 100 ms), 7 WATCH rv=7 (starts at 180 ms): recordedMs 80
 *   replayed: 7 starts 1500 ms after 4 answered, looks right  -> undecided, not "the failure is gone"
 */
import type { Exchange } from '../transport/index.ts';
import type { Learned } from './learned-values.ts';
import { requestsOf, type AnswerNeed } from '../../reference/answer-checks.ts';

/** A gap this long between two of the case's requests is a wait of the case, not the time a request takes. */
export const PAUSE_MS = 250;
/** How much later than the failing case a watch may start after learning its version and still decide that the target behaves. */
export const LATE_SLACK_MS = 1000;

const isWatch = (e: Exchange): boolean =>
  e.request.method === 'GET' && (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));
// Setup steps the case did not send itself (seq 0) carry no time of the case's clock.
const timed = (e: Exchange): boolean => e.seq !== 0 && e.startedAtMs > 0;
/** When a request's answer was in: a watch is established when it starts (its answer runs to its end). */
const doneAt = (e: Exchange): number => (isWatch(e) ? e.startedAtMs : e.startedAtMs + e.durationMs);

/** Milliseconds to wait before sending each request (by exchange index), where the case paused. */
export function pauses(exchanges: readonly Exchange[], order: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  let last: number | undefined;
  for (const i of order) {
    const e = exchanges[i]!;
    if (!timed(e)) continue;
    if (last !== undefined && e.startedAtMs - last > PAUSE_MS) out.set(i, Math.round(e.startedAtMs - last));
    last = Math.max(last ?? 0, doneAt(e));
  }
  return out;
}

export interface LateWatch {
  /** The watch (exchange index) and the request whose answer carried its starting version. */
  readonly stream: number;
  readonly from: number;
  /** How long after that answer the failing case started the watch. */
  readonly recordedMs: number;
}

/** The watches the needs read that start from a learned resourceVersion, with the failing case's delay. */
export function lateWatches(exchanges: readonly Exchange[], learned: readonly Learned[], needs: readonly AnswerNeed[]): LateWatch[] {
  const read = new Set(needs.flatMap((n) => requestsOf(n.test)));
  const out: LateWatch[] = [];
  exchanges.forEach((e, i) => {
    if (!isWatch(e) || !read.has(i)) return;
    const rv = (e.request.query ?? []).find(([k]) => k === 'resourceVersion')?.[1];
    const l = learned.find((x) => x.value === rv && x.usedBy.includes(i));
    const from = l === undefined ? undefined : exchanges[l.from];
    if (l === undefined || from === undefined || !timed(e) || !timed(from)) return;
    out.push({ stream: i, from: l.from, recordedMs: Math.max(0, Math.round(e.startedAtMs - doneAt(from))) });
  });
  return out;
}

/**
 * Plain JavaScript embedded in the reproducers: `late(lateWatches, timeOf)` -> a line saying which watch
 * started too late to say the target behaves, or undefined. `timeOf(i)` is when request i's answer was
 * in (a watch: established), in ms, or undefined where the run could not tell.
 */
export const LATE_JS = String.raw`const late = (watches, timeOf) => {
  for (const w of watches) { const t = timeOf(w.stream), f = timeOf(w.from);
    const ms = typeof t === 'number' && typeof f === 'number' && Number.isFinite(t - f) ? t - f : undefined;
    if (ms === undefined || ms > w.recordedMs + ${LATE_SLACK_MS})
      return 'the watch of request ' + w.stream + ' started ' + (ms === undefined ? 'an unknown time' : ms + ' ms') + ' after request ' + w.from + ' answered with its resourceVersion, where the failing case took ' + w.recordedMs + ' ms: the target may have dropped that version from its history meanwhile (the spec bounds no window), so a stream that looks right decides nothing'; }
  return undefined; };`;
