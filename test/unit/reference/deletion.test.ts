// rest:3.1 two-phase deletion: the step function, walked through the state machine by hand, and the
// wrong turns a server could take (removal despite finalizers, early removal, a moved timestamp).
import { describe, expect, it } from 'vitest';
import {
  initialDeletionState,
  stepDeletion,
  type DeletionObservation,
  type DeletionState,
  type DeletionStep,
} from '../../../reference/deletion.ts';

const T = '2026-11-23T16:00:00Z';
const obj = (finalizers: string[], deletionTimestamp?: string): DeletionObservation['read'] => ({ finalizers, deletionTimestamp });
const ok = (read: DeletionObservation['read'], status = 200): DeletionObservation => ({ status, read });
const gone = (status = 200): DeletionObservation => ({ status, read: undefined });

/** Runs steps, returning every judgement's verdict by clause and the final state. */
function walk(steps: [DeletionStep, DeletionObservation][], from: DeletionState = initialDeletionState) {
  let s = from;
  const verdicts: string[] = [];
  for (const [step, o] of steps) {
    const v = stepDeletion(s, step, o);
    verdicts.push(...v.judgements.map((j) => `${j.verdict} ${j.clause}`));
    s = v.next;
  }
  return { s, verdicts, failed: verdicts.filter((v) => v.startsWith('fail')) };
}

describe('two-phase deletion model (rest:3.1)', () => {
  it('delete keeps the object Terminating until the last finalizer goes, in any order, then frees the name', () => {
    const r = walk([
      [{ op: 'create', finalizers: ['a/x', 'a/y', 'a/z'] }, ok(obj(['a/x', 'a/y', 'a/z']), 201)],
      [{ op: 'delete' }, ok(obj(['a/x', 'a/y', 'a/z'], T))],
      [{ op: 'setFinalizers', finalizers: ['a/z', 'a/x'] }, ok(obj(['a/z', 'a/x'], T))],
      [{ op: 'delete' }, ok(obj(['a/x', 'a/z'], T))],
      [{ op: 'setFinalizers', finalizers: ['a/x'] }, ok(obj(['a/x'], T))],
      [{ op: 'setFinalizers', finalizers: [] }, gone()],
      [{ op: 'create', finalizers: [] }, ok(obj([]), 201)],
    ]);
    expect(r.failed).toEqual([]);
    expect(r.verdicts).toContain('pass rest:3.1/live-to-terminating');
    expect(r.verdicts).toContain('pass rest:3.1/terminating-to-removed');
    expect(r.verdicts).toContain('pass rest:3.1/finalizer-order');
    expect(r.verdicts).toContain('pass rest:2.2.2');
    expect(r.s).toEqual({ phase: 'live', finalizers: [] });
  });

  it('learns deletionTimestamp from the first delete and holds it', () => {
    const v = stepDeletion({ phase: 'live', finalizers: ['a/x'] }, { op: 'delete' }, ok(obj(['a/x'], T)));
    expect(v.next).toEqual({ phase: 'terminating', finalizers: ['a/x'], deletionTimestamp: T });
    const moved = stepDeletion(v.next, { op: 'delete' }, ok(obj(['a/x'], '2026-11-23T16:00:09Z')));
    expect(moved.judgements.filter((j) => j.verdict === 'fail').map((j) => j.clause)).toEqual(['rest:2.3/metadata.deletionTimestamp']);
  });

  it('fails immediate removal despite finalizers', () => {
    const r = walk([[{ op: 'delete' }, gone()]], { phase: 'live', finalizers: ['a/x'] });
    expect(r.failed).toContain('fail rest:3.1/live-to-terminating');
  });

  it('fails removal before the last finalizer; a survivor after the last is inconclusive (no time bound)', () => {
    const term: DeletionState = { phase: 'terminating', finalizers: ['a/x', 'a/y'], deletionTimestamp: T };
    expect(walk([[{ op: 'setFinalizers', finalizers: ['a/y'] }, gone()]], term).failed).toEqual(['fail rest:3.1/terminating-to-removed']);
    const survivor = walk([[{ op: 'setFinalizers', finalizers: [] }, ok(obj([], T))]], { ...term, finalizers: ['a/x'] });
    expect(survivor.failed).toEqual([]);
    expect(survivor.verdicts).toContain('inconclusive rest:3.1/terminating-to-removed');
  });

  it('refuses a create while the name is held by a Terminating object', () => {
    const term: DeletionState = { phase: 'terminating', finalizers: ['a/x'], deletionTimestamp: T };
    expect(walk([[{ op: 'create', finalizers: [] }, ok(obj(['a/x'], T), 409)]], term).failed).toEqual([]);
    expect(walk([[{ op: 'create', finalizers: [] }, ok(obj([]), 201)]], term).failed).toEqual(['fail rest:2.2.2']);
  });

  it('records deletion without finalizers as unspecified, whichever way the target goes', () => {
    for (const o of [gone(), ok(obj([], T))]) {
      const v = stepDeletion({ phase: 'live', finalizers: [] }, { op: 'delete' }, o);
      expect(v.judgements.map((j) => `${j.verdict} ${j.clause}`)).toEqual([
        'pass rest:4.1/delete',
        'unspecified rest:3.1/no-finalizers-not-shown',
      ]);
      expect(v.next.phase).toBe(o.read ? 'open' : 'absent');
    }
    // And a later create of that name is not judged either while the model cannot know.
    expect(stepDeletion({ phase: 'open' }, { op: 'create', finalizers: [] }, ok(obj([]), 409)).judgements.map((j) => j.verdict)).toEqual([
      'unspecified',
    ]);
  });

  // The removal after the last finalizer has no time bound: still Terminating with none left after the
  // suite's window is inconclusive, naming the window; anything else still stored fails.
  it('an object still Terminating with no finalizers after the window is inconclusive, not failed', () => {
    const terminating: DeletionState = { phase: 'terminating', finalizers: ['a/x'], deletionTimestamp: T };
    const lingering = stepDeletion(terminating, { op: 'setFinalizers', finalizers: [] }, { status: 200, read: obj([], T), waitedMs: 5000 });
    expect(lingering.judgements.map((j) => `${j.verdict} ${j.clause}`)).toEqual([
      'pass rest:2.3/metadata.finalizers',
      'inconclusive rest:3.1/terminating-to-removed',
    ]);
    expect(lingering.judgements[1]!.expected).toContain('5000 ms');
    expect(lingering.next).toEqual({ phase: 'open' });
    // Near misses: the finalizer still there, or a deletionTimestamp that moved.
    expect(
      walk(
        [
          [
            { op: 'setFinalizers', finalizers: [] },
            { status: 200, read: obj(['a/x'], T), waitedMs: 5000 },
          ],
        ],
        terminating,
      ).failed,
    ).toEqual(['fail rest:3.1/terminating-to-removed']);
    expect(
      walk(
        [
          [
            { op: 'setFinalizers', finalizers: [] },
            { status: 200, read: obj([], '2026-11-23T16:00:09Z'), waitedMs: 5000 },
          ],
        ],
        terminating,
      ).failed,
    ).toEqual(['fail rest:3.1/terminating-to-removed']);
    // Gone within the window: a pass, as before.
    expect(
      walk(
        [
          [
            { op: 'setFinalizers', finalizers: [] },
            { status: 200, read: undefined, waitedMs: 300 },
          ],
        ],
        terminating,
      ).verdicts,
    ).toContain('pass rest:3.1/terminating-to-removed');
  });
});
