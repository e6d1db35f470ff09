/**
 * A linearizability checker in the manner of porcupine (Wing & Gong's search with Lowe's memoisation):
 * is there a total order of the operations, consistent with real time (an operation that returned
 * before another was invoked comes first), in which every operation's observed output is one the
 * sequential model allows?
 *
 * The model is four pure functions, as in porcupine: `init`, `step`, `key` (state identity for the
 * cache) and `describe`. `step` returns the next state, or `undefined` when the output is impossible
 * from that state. Where the spec allows several outcomes, the model's state is itself the set of
 * possible states (determinised), so one `step` covers them all.
 *
 * Operations whose answer never came (`unknown`) may have taken effect at any time after their
 * invocation, or never: their return time is infinite and `step` must accept any output for them
 * (porcupine's treatment), so linearizing them last is the same as "never happened".
 *
 * Worked case: a register; w1 = write(a) [0,10], r1 = read()->b [5,15], w2 = write(b) [12,20].
 * r1 returned at 15 after w2 was invoked at 12, so w2 may precede r1: w1, w2, r1 is legal.
 */

export interface Operation<In, Out> {
  readonly id: number;
  readonly input: In;
  readonly output: Out;
  /** Monotonic times (ms) as the client saw them. */
  readonly call: number;
  /** `Infinity` for an operation whose answer never came. */
  readonly ret: number;
}

export interface SequentialModel<S, In, Out> {
  readonly init: S;
  readonly step: (state: S, input: In, output: Out) => S | undefined;
  /** Equal states must give equal keys: the memo of (linearized set, state) depends on it. */
  readonly key: (state: S) => string;
  readonly describe: (input: In, output: Out) => string;
}

export type LinearizabilityResult<S> =
  | { readonly ok: true; readonly order: readonly number[] }
  | {
      readonly ok: false;
      /** The longest linearizable prefix found, and the operations none of which could come next. */
      readonly longestPrefix: readonly number[];
      readonly stuckAt: readonly number[];
      readonly stateAfterPrefix: S;
    }
  | { readonly ok: 'unknown'; readonly reason: string };

interface Entry {
  readonly op: number;
  readonly isCall: boolean;
  readonly time: number;
  match?: Entry;
  prev?: Entry;
  next?: Entry;
}

/**
 * The search is exponential in the worst case; `budget` bounds the steps so a pathological history
 * answers `unknown` (never a pass) instead of hanging the run.
 */
export function checkLinearizable<S, In, Out>(
  model: SequentialModel<S, In, Out>,
  ops: readonly Operation<In, Out>[],
  budget = 2_000_000,
): LinearizabilityResult<S> {
  if (ops.length === 0) return { ok: true, order: [] };
  const byId = new Map(ops.map((o) => [o.id, o]));
  const idx = new Map(ops.map((o, i) => [o.id, i]));
  const head = historyList(ops);

  const linearized = new Uint8Array(ops.length);
  const bitsKey = (): string => Buffer.from(linearized).toString('base64');
  const cache = new Set<string>();
  const stack: { entry: Entry; state: S }[] = [];
  let state = model.init;
  let longest: number[] = [];
  let longestState = state;
  let stuck: number[] = [];
  let steps = 0;

  let entry = head.next;
  while (head.next !== undefined) {
    if (++steps > budget) return { ok: 'unknown', reason: `search budget of ${budget} steps exhausted on ${ops.length} operations` };
    if (entry === undefined) break;
    if (entry.isCall) {
      const op = byId.get(entry.op)!;
      const next = model.step(state, op.input, op.output);
      let advanced = false;
      if (next !== undefined) {
        linearized[idx.get(op.id)!] = 1;
        const k = `${bitsKey()}|${model.key(next)}`;
        if (!cache.has(k)) {
          cache.add(k);
          stack.push({ entry, state });
          state = next;
          lift(entry);
          entry = head.next;
          advanced = true;
          if (stack.length > longest.length) {
            longest = stack.map((s) => s.entry.op);
            longestState = state;
            stuck = [];
          }
        } else linearized[idx.get(op.id)!] = 0;
      }
      if (!advanced) entry = entry.next;
    } else {
      // A return whose call is still pending: nothing before it can be linearized here; backtrack.
      if (stack.length === 0) {
        return {
          ok: false,
          longestPrefix: longest,
          stuckAt: stuck.length > 0 ? stuck : pendingCalls(head),
          stateAfterPrefix: longestState,
        };
      }
      if (stack.length === longest.length) stuck = pendingCalls(head);
      const top = stack.pop()!;
      state = top.state;
      linearized[idx.get(top.entry.op)!] = 0;
      unlift(top.entry);
      entry = top.entry.next;
    }
  }
  return { ok: true, order: stack.map((s) => s.entry.op) };
}

/**
 * The history as a doubly linked list of calls and returns in time order, behind a head entry; each
 * call points at its return. Calls sort before returns at equal times: touching intervals overlap, the
 * lenient reading.
 */
function historyList<In, Out>(ops: readonly Operation<In, Out>[]): Entry {
  const events = ops
    .flatMap((o) => [
      { op: o.id, isCall: true, time: o.call },
      { op: o.id, isCall: false, time: o.ret },
    ])
    .sort((a, b) => a.time - b.time || (a.isCall === b.isCall ? 0 : a.isCall ? -1 : 1));
  const head: Entry = { op: -1, isCall: false, time: -Infinity };
  let last: Entry = head;
  const callOf = new Map<number, Entry>();
  for (const e of events) {
    const entry: Entry = { ...e, prev: last };
    last.next = entry;
    last = entry;
    if (e.isCall) callOf.set(e.op, entry);
    else {
      const call = callOf.get(e.op)!;
      call.match = entry;
    }
  }
  return head;
}

/** Takes a call and its return out of the list (the operation is linearized). */
function lift(e: Entry): void {
  e.prev!.next = e.next;
  if (e.next) e.next.prev = e.prev;
  const m = e.match!;
  m.prev!.next = m.next;
  if (m.next) m.next.prev = m.prev;
}

/** Puts them back where they were (backtracking). */
function unlift(e: Entry): void {
  const m = e.match!;
  m.prev!.next = m;
  if (m.next) m.next.prev = m;
  e.prev!.next = e;
  if (e.next) e.next.prev = e;
}

/** The calls of the operations not yet linearized up to the first return: the ones that could not go next. */
function pendingCalls(head: Entry): number[] {
  const out: number[] = [];
  for (let e = head.next; e !== undefined && e.isCall; e = e.next) out.push(e.op);
  if (out.length === 0 && head.next !== undefined) out.push(head.next.op);
  return out;
}
