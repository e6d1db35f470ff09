/**
 * What a reproducer's answers must share with the recorded case before its needs can decide anything,
 * and the recorded literals its needs must read as this run's values.
 *
 * Premises: a request the failing case got a 2xx for, whose status no need tests, must get a 2xx again.
 * Otherwise the replay took another path than the failure did (a continue token expired before it was
 * sent, a watch's version fell out of the history, a write met a conflict the recording did not): the
 * model judged the recorded path, and on another one its needs say nothing. The script then exits 3
 * (undecided), never 1 against a target that may be right, nor 0 against one that never got there.
 *
 *   recorded: 0 POST 201, 1 LIST 200, 2 LIST continue 200 (needs read its body)
 *   replayed: 2 answers 410 Expired  -> undecided ("request 2 answered 410; the failing case got 200")
 *
 * A watch the failing case was served must be served again: its version may have left the history
 * (a 410 as the stream's first event), and a need on the events of the served stream says nothing then.
 */
import type { Exchange } from '../transport/index.ts';
import type { Learned } from './learned-values.ts';
import { requestsOf, type AnswerNeed, type AnswerTest } from '../../reference/answer-checks.ts';

/** Requests whose status a test decides: a status-class change there is the need's business. */
function statusTested(t: AnswerTest): number[] {
  if (t.kind === 'anyOf' || t.kind === 'allOf') return t.tests.flatMap(statusTested);
  if (t.kind === 'status' || t.kind === 'statusClass' || t.kind === 'contentType')
    return typeof t.at === 'object' && 'request' in t.at ? [t.at.request] : [];
  return [];
}

export interface Premise {
  readonly request: number;
  readonly recorded: number;
  /** A watch the failing case was served: an ERROR first event now (410 Expired in a 200 stream, rest:6.1.3) is another path. */
  readonly served?: true;
}

const isWatch = (e: Exchange): boolean =>
  e.request.method === 'GET' && (e.request.query ?? []).some(([k, v]) => k === 'watch' && (v === '1' || v === 'true'));

/** The first event of a recorded stream is an ERROR (the case was refused in the stream, not served). */
function refusedInStream(e: Exchange): boolean {
  const first = (e.response?.bodyText ?? '').trimStart().split('\n', 1)[0] ?? '';
  try {
    return (JSON.parse(first) as { type?: unknown }).type === 'ERROR';
  } catch {
    return false;
  }
}

/** Indexes of the requests that must answer 2xx for the needs to be judged, with the recorded status. */
export function premises(exchanges: readonly Exchange[], needs: readonly AnswerNeed[], isSetup: (e: Exchange) => boolean): Premise[] {
  const tested = new Set(needs.flatMap((n) => statusTested(n.test)));
  // A need that itself speaks of an ERROR event there (a 410 the rule allows) makes it the need's business.
  const errorTested = new Set(needs.filter((n) => JSON.stringify(n.test).includes('ERROR')).flatMap((n) => requestsOf(n.test)));
  const out: Premise[] = [];
  exchanges.forEach((e, i) => {
    const s = e.response?.status;
    if (s === undefined || s < 200 || s > 299 || isSetup(e) || tested.has(i)) return;
    out.push({ request: i, recorded: s, served: isWatch(e) && !refusedInStream(e) && !errorTested.has(i) ? true : undefined });
  });
  return out;
}

/**
 * Plain JavaScript embedded in the reproducers: `diverged(premises, answer)` -> the first premise the
 * answers break, as a line, or undefined. A request with no answer at all is left to the caller
 * (could not run).
 */
export const PREMISES_JS = String.raw`const diverged = (premises, answer) => {
  for (const p of premises) { const a = answer(p.request);
    if (a !== undefined && a.status !== 0 && Math.floor(a.status / 100) !== 2) return 'request ' + p.request + ' answered ' + a.status + ' where the failing case got ' + p.recorded + ': this run took another path than the failure, so its needs decide nothing';
    const e0 = a !== undefined && p.served && Array.isArray(a.events) ? a.events[0] : undefined;
    if (e0 && e0.type === 'ERROR') return 'the watch of request ' + p.request + ' began with an ERROR event (' + ((e0.object && (e0.object.code || e0.object.reason)) || 'no code') + ') where the failing case was served: this run took another path than the failure, so its needs decide nothing'; }
  return undefined; };`;

/**
 * Plain JavaScript: `remap(value, literals)` rewrites the recorded literals inside needs to this run's
 * values: `[lit, now, whole]`, whole strings only for learned values (a version "6" must not change
 * the 6 inside a name), substrings for the run's namespaces and groups.
 */
export const REMAP_JS = String.raw`const remap = (v, lits) => {
  if (typeof v === 'string') { for (const [lit, now, whole] of lits) if (whole && v === lit) return now;
    let out = v; for (const [lit, now, whole] of lits) if (!whole && lit !== '') out = out.split(lit).join(now); return out; }
  if (Array.isArray(v)) return v.map((x) => remap(x, lits));
  if (v && typeof v === 'object') { const o = {}; for (const [k, x] of Object.entries(v)) o[k] = remap(x, lits); return o; }
  return v; };`;

/** Where a value test reads: `request:path`. */
function valueTested(t: AnswerTest): string[] {
  if (t.kind === 'anyOf' || t.kind === 'allOf') return t.tests.flatMap(valueTested);
  if (t.kind === 'value' && typeof t.at === 'object' && 'request' in t.at) return [`${t.at.request}:${JSON.stringify(t.path)}`];
  return [];
}

/**
 * The learned values this run must find again: one its answer lacks (a continue token on what is now
 * the last page) sends the later requests elsewhere than the failing case went, unless a need tests
 * exactly that place (the token's absence is then the need's business).
 */
export function mustLearn(learned: readonly Learned[], needs: readonly AnswerNeed[], position: readonly number[]): Learned[] {
  const tested = new Set(needs.flatMap((n) => valueTested(n.test)));
  // Only a request sent up to the last answer the needs read can change what they read.
  const last = Math.max(-1, ...needs.flatMap((n) => requestsOf(n.test)).map((i) => position[i] ?? -1));
  return learned.filter(
    (l) =>
      !tested.has(`${l.from}:${JSON.stringify(l.path)}`) &&
      (l.usedBy.length === 0 || l.usedBy.some((k) => (position[k] ?? Infinity) <= last)),
  );
}
