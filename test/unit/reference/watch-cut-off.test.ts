// rest:6.1.1 with no bound on delivery time: a stream the suite stopped waiting for (or the server
// ended: upstream ends every watch after its request timeout) that is a prefix of an acceptable stream
// is inconclusive, naming the window; a gap, a duplicate or a wrong event still fails, cut off or not.
import { describe, expect, it } from 'vitest';
import { judgeWatch, unreadableEvent, type ObservedEvent, type WatchExpectation } from '../../../reference/watch-oracle.ts';
import { judgeInformer } from '../../../reference/watch-recovery.ts';
import { a10, a12, b11, ctx, NS, observed } from './model-fixtures.ts';
import type { ObjectVersion } from '../../../reference/objects.ts';

const ev = (type: string, v: ObjectVersion): ObservedEvent => ({
  type,
  object: observed(v),
  raw: { kind: 'ConfigMap', metadata: { name: v.name, namespace: NS, resourceVersion: v.rv } },
});
const deleted = (v: ObjectVersion): ObservedEvent => ({ type: 'DELETED', object: observed(v), raw: { kind: 'ConfigMap' } });
const CUT = 'the suite waited 5000 ms for the rest (--eventual-window widens it)';
const exact = (at: number, cutOff?: string): WatchExpectation => ({
  semantic: 'StartAtExact',
  clause: 'rest:4.5/watch/other',
  at,
  requestIndex: at,
  bookmarksRequested: false,
  kind: 'ConfigMap',
  apiVersion: 'v1',
  ...(cutOff ? { cutOff } : {}),
});
const fromState = (requestIndex: number, cutOff?: string): WatchExpectation => ({
  semantic: 'GetStateAndStartAtMostRecent',
  clause: 'rest:4.5/watch/unset',
  requestIndex,
  bookmarksRequested: false,
  kind: 'ConfigMap',
  apiVersion: 'v1',
  ...(cutOff ? { cutOff } : {}),
});
const verdicts = (exp: WatchExpectation, events: ObservedEvent[]) =>
  judgeWatch(ctx(), exp, events)
    .judgements.filter((j) => j.clause === 'rest:6.1.1' || j.clause === exp.clause)
    .map((j) => j.verdict);

// History: #0 {} #1 {a@10} #2 {a@10,b@11} #3 {a@12,b@11} #4 {b@11}
describe('a watch cut off before it caught up', () => {
  it('Start at Exact: a missing tail is inconclusive, with the window named; without a cut-off it fails', () => {
    const prefix = [ev('ADDED', a10), ev('ADDED', b11)];
    expect(verdicts(exact(0, CUT), prefix)).toEqual(['inconclusive', 'inconclusive']);
    expect(judgeWatch(ctx(), exact(0, CUT), prefix).judgements.find((j) => j.verdict === 'inconclusive')!.expected).toContain(
      '--eventual-window',
    );
    expect(verdicts(exact(0), prefix)).toEqual(['fail']);
    expect(verdicts(exact(0, CUT), [])).toEqual(['inconclusive', 'inconclusive']);
  });

  it('a complete stream still passes, cut-off or not', () => {
    const all = [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), deleted(a12)];
    expect(verdicts(exact(0, CUT), all)).not.toContain('fail');
    expect(verdicts(exact(0, CUT), all)).toContain('pass');
  });

  it('near misses fail even when cut off: a gap, a duplicate, an event out of order', () => {
    expect(verdicts(exact(0, CUT), [ev('ADDED', a10), ev('MODIFIED', a12)])).toContain('fail');
    expect(verdicts(exact(0, CUT), [ev('ADDED', a10), ev('ADDED', a10)])).toContain('fail');
    expect(verdicts(exact(0, CUT), [ev('ADDED', b11), ev('ADDED', a10)])).toContain('fail');
  });

  it('Get State: synthetic ADDED events cut short, or the state then a prefix of the changes, are inconclusive', () => {
    // Requested at #2: state {a@10, b@11}, then a@12 and a's removal. ([ADDED b@11] alone is complete:
    // the state of #4.)
    expect(verdicts(fromState(2, CUT), [ev('ADDED', b11)])).toEqual(['pass', 'pass']);
    expect(verdicts(fromState(2, CUT), [ev('ADDED', a10)])).toEqual(['inconclusive', 'inconclusive']);
    expect(verdicts(fromState(2, CUT), [ev('ADDED', b11), ev('ADDED', a10), ev('MODIFIED', a12)])).toEqual([
      'inconclusive',
      'inconclusive',
    ]);
    expect(verdicts(fromState(2), [ev('ADDED', a10)])).toEqual(['fail']);
    // A silent stream (hostile fault silent-watch): requested at #4, state {b@11}, no later
    // write. Cut off it may still send the ADDED; complete it lacks it.
    expect(verdicts(fromState(4, CUT), [])).toEqual(['inconclusive', 'inconclusive']);
    expect(verdicts(fromState(4), [])).toContain('fail');
    // A synthetic ADDED for a version the state never had, or the same object twice: wrong, not late.
    expect(verdicts(fromState(2, CUT), [ev('ADDED', a12), ev('ADDED', a12)])).toContain('fail');
    expect(verdicts(fromState(2, CUT), [ev('ADDED', b11), ev('ADDED', b11)])).toContain('fail');
  });

  it('the informer: an unconverged cache after a cut-off stream is inconclusive, not failed', () => {
    const base = {
      list0: [observed(a10)],
      events: [],
      list1: [observed(a12)],
      now: [a12],
      isOurs: () => true,
      clause: 'rest:6.1.1' as const,
    };
    expect(judgeInformer({ ...base, cutOff: CUT }).map((j) => j.verdict)).toEqual(['inconclusive', 'inconclusive']);
    expect(judgeInformer(base).map((j) => j.verdict)).toEqual(['fail', 'fail']);
    expect(judgeInformer({ ...base, events: [ev('MODIFIED', a12)], cutOff: CUT }).map((j) => j.verdict)).toEqual(['pass', 'pass']);
  });
});

// rest:3.1 bounds the removal of an object whose last finalizer went in no time: a server may store it
// once more (Terminating, finalizers emptied) and remove it later. A reader that came after the
// removal never saw that version, so the stream may carry it just before the removal.
describe('a Terminating version the reads never saw, just before the removal', () => {
  const terminating = (rv: string, deletionTimestamp: unknown = '2026-11-26T00:00:00Z'): ObservedEvent => ({
    type: 'MODIFIED',
    object: observed({ ...a12, rv }, { deletionTimestamp }),
    raw: { kind: 'ConfigMap', metadata: { name: a12.name, namespace: NS, resourceVersion: rv } },
  });

  it('is no difference', () => {
    expect(verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), terminating('13'), deleted(a12)])).not.toContain(
      'fail',
    );
    expect(
      verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), terminating('13'), terminating('14'), deleted(a12)]),
    ).not.toContain('fail');
  });

  it('but a version that is not Terminating, one the history has, one of another object or one not followed by the removal still fails', () => {
    expect(verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), terminating('13', null), deleted(a12)])).toContain(
      'fail',
    );
    expect(verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), terminating('12'), deleted(a12)])).toContain(
      'fail',
    );
    expect(verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), terminating('13'), ev('MODIFIED', a12), deleted(a12)])).toContain(
      'fail',
    );
    expect(verdicts(exact(0), [ev('ADDED', a10), ev('ADDED', b11), ev('MODIFIED', a12), terminating('13')])).toContain('fail');
  });
});

// A stream whose events cannot be read as the spec's (a type spelt "added", an object that is no JSON
// object) is decided at once: the envelope fails, and the harness stops waiting on it (harness/interpreters/watch-session.ts).
describe('events that are none of the spec', () => {
  it('a spec type spelt otherwise, a missing type or a non-object is unreadable; other type names are not', () => {
    expect(unreadableEvent({ type: 'added', raw: {} })).toBe('an event of type "added" (the spec spells it "ADDED")');
    expect(unreadableEvent({ type: 'Modified', raw: {} })).toMatch(/spells it "MODIFIED"/);
    expect(unreadableEvent({ type: undefined, raw: {} })).toBe('an event whose type is missing');
    expect(unreadableEvent({ type: 'ADDED', raw: 'x' })).toBe('an ADDED event whose object is no JSON object');
    for (const type of ['ADDED', 'MODIFIED', 'BOOKMARK', 'DELETED', 'ERROR'])
      expect(unreadableEvent({ type, raw: {} }), type).toBeUndefined();
  });

  it('fails rest:2.5/watch-event however short the stream was watched; the same events in capitals pass it', () => {
    const envelope = (events: ObservedEvent[]) =>
      judgeWatch(ctx(), fromState(0, CUT), events)
        .judgements.filter((j) => j.clause === 'rest:2.5/watch-event')
        .map((j) => j.verdict);
    expect(envelope([ev('added', a10)])).toEqual(['fail']);
    expect(envelope([ev('ADDED', a10)])).toEqual(['pass']);
  });
});
