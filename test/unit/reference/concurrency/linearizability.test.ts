// Why: the history checkers are the oracle of the concurrent workload; each is shown on hand-made
// histories that must pass and near misses that must fail (docs/oracle.md).
import { describe, expect, it } from 'vitest';
import { checkLinearizable, type Operation, type SequentialModel } from '../../../../reference/concurrency/linearizability.ts';
import { objectModel, type ObjectInput, type ObjectOutput } from '../../../../reference/concurrency/object-model.ts';

type RegIn = { w?: string };
const register: SequentialModel<string, RegIn, string> = {
  init: '',
  step: (s, i, o) => (i.w !== undefined ? i.w : o === s ? s : undefined),
  key: (s) => s,
  describe: (i, o) => (i.w !== undefined ? `w(${i.w})` : `r()->${o}`),
};
const op = (id: number, input: RegIn, output: string, call: number, ret: number): Operation<RegIn, string> => ({
  id,
  input,
  output,
  call,
  ret,
});

describe('checkLinearizable on a register', () => {
  it('finds the order that overlapping intervals allow', () => {
    const r = checkLinearizable(register, [op(1, { w: 'a' }, '', 0, 10), op(2, {}, 'b', 5, 15), op(3, { w: 'b' }, '', 12, 20)]);
    expect(r).toEqual({ ok: true, order: [1, 3, 2] });
  });

  it('refuses a read of a value written only after the read returned (near miss of the case above)', () => {
    const r = checkLinearizable(register, [op(1, { w: 'a' }, '', 0, 10), op(2, {}, 'b', 5, 11), op(3, { w: 'b' }, '', 12, 20)]);
    expect(r.ok).toBe(false);
    if (r.ok === false) expect(r.stuckAt).toContain(2);
  });

  it('refuses a stale read after a completed write (the classic anomaly)', () => {
    const r = checkLinearizable(register, [op(1, { w: 'a' }, '', 0, 1), op(2, { w: 'b' }, '', 2, 3), op(3, {}, 'a', 4, 5)]);
    expect(r.ok).toBe(false);
  });

  it('answers unknown, never a pass, when the budget runs out', () => {
    const ops = Array.from({ length: 12 }, (_, i) => op(i, { w: `v${i}` }, '', 0, 100));
    expect(checkLinearizable(register, [...ops, op(99, {}, 'nope', 0, 100)], 50).ok).toBe('unknown');
  });

  it('stays interactive on a long history (2,000 operations, 4 clients)', () => {
    const ops: Operation<RegIn, string>[] = [];
    let last = '';
    for (let i = 0; i < 2000; i++) {
      const t = i * 10;
      if (i % 3 === 0) {
        last = `v${i}`;
        ops.push(op(i, { w: last }, '', t, t + 15));
      } else ops.push(op(i, {}, last, t + 16, t + 18));
    }
    expect(checkLinearizable(register, ops).ok).toBe(true);
  });
});

const o = (
  id: number,
  input: ObjectInput,
  output: ObjectOutput,
  call: number,
  ret: number | undefined,
): Operation<ObjectInput, ObjectOutput> => ({ id, input, output, call, ret: ret ?? Infinity });
const strict = objectModel({ preconditions: 'honoured' });

describe('objectModel', () => {
  it('accepts create, read, update with a matching precondition, read', () => {
    const ops = [
      o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '10' }, 0, 1),
      o(2, { kind: 'read' }, { status: 'ok', present: true, token: 'a', rv: '10' }, 2, 3),
      o(3, { kind: 'update', token: 'b', precondition: '10' }, { status: 'ok', rv: '11' }, 4, 5),
      o(4, { kind: 'read' }, { status: 'ok', present: true, token: 'b', rv: '11' }, 6, 7),
    ];
    expect(checkLinearizable(strict, ops).ok).toBe(true);
  });

  it('refuses two successful creates of one name (rest:2.2.2)', () => {
    const ops = [
      o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '1' }, 0, 5),
      o(2, { kind: 'create', token: 'b' }, { status: 'ok', rv: '2' }, 1, 6),
    ];
    expect(checkLinearizable(strict, ops).ok).toBe(false);
  });

  it('refuses two updates with the same precondition both succeeding, but only when preconditions are checked', () => {
    const ops = [
      o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '1' }, 0, 1),
      o(2, { kind: 'update', token: 'b', precondition: '1' }, { status: 'ok', rv: '2' }, 2, 6),
      o(3, { kind: 'update', token: 'c', precondition: '1' }, { status: 'ok', rv: '3' }, 3, 7),
    ];
    expect(checkLinearizable(strict, ops).ok).toBe(false);
    expect(checkLinearizable(objectModel({ preconditions: 'unchecked' }), ops).ok).toBe(true);
  });

  it('lets an unanswered write have happened or not, and learns its version from a later read', () => {
    const happened = [
      o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '1' }, 0, 1),
      o(2, { kind: 'update', token: 'b' }, { status: 'unknown' }, 2, undefined),
      o(3, { kind: 'read' }, { status: 'ok', present: true, token: 'b', rv: '7' }, 5, 6),
      o(4, { kind: 'read' }, { status: 'ok', present: true, token: 'b', rv: '7' }, 8, 9),
    ];
    expect(checkLinearizable(strict, happened).ok).toBe(true);
    const notHappened = [happened[0]!, happened[1]!, o(3, { kind: 'read' }, { status: 'ok', present: true, token: 'a', rv: '1' }, 5, 6)];
    expect(checkLinearizable(strict, notHappened).ok).toBe(true);
    const twoVersions = [...happened.slice(0, 3), o(4, { kind: 'read' }, { status: 'ok', present: true, token: 'b', rv: '8' }, 8, 9)];
    expect(checkLinearizable(strict, twoVersions).ok).toBe(false);
  });

  it('refuses a read showing a write that was refused', () => {
    const ops = [
      o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '1' }, 0, 1),
      o(2, { kind: 'update', token: 'b', precondition: '0' }, { status: 'conflict' }, 2, 3),
      o(3, { kind: 'read' }, { status: 'ok', present: true, token: 'b', rv: '2' }, 4, 5),
    ];
    expect(checkLinearizable(strict, ops).ok).toBe(false);
  });

  it('reads a delete as removal: a later read that finds the object fails, one that does not passes', () => {
    const base = [o(1, { kind: 'create', token: 'a' }, { status: 'ok', rv: '1' }, 0, 1), o(2, { kind: 'delete' }, { status: 'ok' }, 2, 3)];
    expect(checkLinearizable(strict, [...base, o(3, { kind: 'read' }, { status: 'notFound' }, 4, 5)]).ok).toBe(true);
    expect(
      checkLinearizable(strict, [...base, o(3, { kind: 'read' }, { status: 'ok', present: true, token: 'a', rv: '1' }, 4, 5)]).ok,
    ).toBe(false);
  });
});
