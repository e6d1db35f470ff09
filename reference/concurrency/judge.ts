/**
 * The verdicts on one recorded concurrent history: linearizability per object of the writes and the
 * consistent reads (each Most Recent list counts as a read of every workload key of its namespaces),
 * and the watch guarantees across every watcher. Pure; the history is the whole input, so a saved
 * failing history is judged again offline with the same result.
 */
import { fail, inconclusive, pass, unspecified, type Judgement } from '../judgement.ts';
import type { ConcurrentHistory, RecordedOp } from './history-types.ts';
import { checkLinearizable, type Operation } from './linearizability.ts';
import { describeObjectOp, objectModel, type ObjectInput, type ObjectOutput } from './object-model.ts';
import { checkWatchGuarantees, GUARANTEE_CLAUSE, type Guarantee, type WatchViolation } from './watch-guarantees.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export interface KeyVerdict {
  readonly key: string;
  readonly verdict: 'linearizable' | 'violation' | 'precondition-anomaly' | 'needs-delete-semantics' | 'unknown';
  readonly clause?: ClauseId;
  /** Operation ids: the longest linearizable prefix, and those none of which could come next. */
  readonly prefix?: readonly number[];
  readonly stuck?: readonly number[];
  readonly explanation?: string;
}

export interface ConcurrentVerdict {
  readonly judgements: readonly Judgement[];
  readonly keys: readonly KeyVerdict[];
  readonly watchViolations: readonly WatchViolation[];
}

const LINEARIZABLE_CLAUSES = ['rest:4.5/meaning/most-recent', 'rest:2.2.2'] as const;

export function judgeConcurrentHistory(h: ConcurrentHistory, budget?: number): ConcurrentVerdict {
  const perKey = opsPerKey(h);
  const keys = [...perKey].map(([key, ops]) => judgeKey(key, ops, budget));
  const watchViolations = checkWatchGuarantees(h);
  const judgements: Judgement[] = [];
  for (const k of keys) {
    const where = `${k.key}: ${k.explanation ?? ''}`;
    if (k.verdict === 'linearizable')
      for (const c of LINEARIZABLE_CLAUSES) judgements.push(pass(c, 'the writes and consistent reads of each object are linearizable'));
    else if (k.verdict === 'violation')
      judgements.push(fail(k.clause!, 'some order of the operations, consistent with real time, explains every answer', where));
    else if (k.verdict === 'precondition-anomaly')
      judgements.push(
        unspecified(
          'rest:2.3/metadata.resourceVersion',
          'resourceVersion preconditions on writes are not in the spec (upstream answers a mismatch with 409 and changes nothing)',
          where,
        ),
      );
    else if (k.verdict === 'needs-delete-semantics')
      judgements.push(
        unspecified(
          'rest:3.1/no-finalizers-not-shown',
          'deleting an object without finalizers: not shown; linearizable only if it lingers',
          where,
        ),
      );
    else judgements.push(inconclusive('rest:4.5/meaning/most-recent', 'a linearizability verdict within the search budget', where));
  }
  const violated = new Set<Guarantee>(watchViolations.map((x) => x.guarantee));
  for (const x of watchViolations)
    judgements.push(fail(x.clause, `watch guarantee "${x.guarantee}"`, `${x.watch ? `${x.watch}: ` : ''}${x.message}`));
  if (h.watches.length > 0) {
    for (const g of Object.keys(GUARANTEE_CLAUSE) as Guarantee[]) {
      if (violated.has(g) || !exercised(g, h)) continue;
      judgements.push(pass(GUARANTEE_CLAUSE[g], `watch guarantee "${g}" across ${h.watches.length} watchers`));
    }
  }
  return { judgements, keys, watchViolations };
}

/** A guarantee passes only where the history gave it something to judge. */
function exercised(g: Guarantee, h: ConcurrentHistory): boolean {
  const events = h.watches.reduce((n, w) => n + w.events.length, 0);
  switch (g) {
    case 'resumable':
      return h.watches.some((w) => w.resumedFrom !== undefined);
    case 'bookmarkable':
      return h.watches.some((w) => w.events.some((e) => e.type === 'BOOKMARK'));
    case 'list-watch':
      return h.lists.length > 0 && h.watches.some((w) => w.start.kind === 'state');
    default:
      return events > 0;
  }
}

function opsPerKey(h: ConcurrentHistory): Map<string, Operation<ObjectInput, ObjectOutput>[]> {
  const out = new Map<string, Operation<ObjectInput, ObjectOutput>[]>();
  const add = (key: string, op: Operation<ObjectInput, ObjectOutput>): void => {
    const list = out.get(key);
    if (list) list.push(op);
    else out.set(key, [op]);
  };
  for (const o of h.ops) add(o.key, toOperation(o));
  // A Most Recent list is one consistent read of every key of its namespaces.
  const keys = [...new Set(h.ops.map((o) => o.key))];
  let id = Math.max(0, ...h.ops.map((o) => o.id)) + 1;
  for (const l of h.lists) {
    const items = new Map(l.items.map((i) => [i.key, i]));
    for (const key of keys) {
      if (!l.namespaces.includes(key.slice(0, key.indexOf('/')))) continue;
      const it = items.get(key);
      const output: ObjectOutput =
        it === undefined
          ? { status: 'ok', present: false }
          : {
              status: 'ok',
              present: true,
              token: it.token,
              rv: it.rv,
            };
      add(key, { id: id++, input: { kind: 'read' }, output, call: l.call, ret: l.ret });
    }
  }
  return out;
}

const toOperation = (o: RecordedOp): Operation<ObjectInput, ObjectOutput> => ({
  id: o.id,
  input: o.input,
  output: o.output,
  call: o.call,
  ret: o.ret ?? Infinity,
});

function judgeKey(key: string, ops: readonly Operation<ObjectInput, ObjectOutput>[], budget?: number): KeyVerdict {
  const strict = checkLinearizable(objectModel({ preconditions: 'honoured' }), ops, budget);
  if (strict.ok === true) return { key, verdict: 'linearizable' };
  if (strict.ok === 'unknown') return { key, verdict: 'unknown', explanation: strict.reason };
  const byId = new Map(ops.map((o) => [o.id, o]));
  const explanation = `after ${strict.longestPrefix.length} operation(s) in order [${strict.longestPrefix.map((i) => describe(byId.get(i)!)).join('; ')}], none of [${strict.stuckAt.map((i) => describe(byId.get(i)!)).join('; ')}] can come next`;
  const loose = checkLinearizable(objectModel({ preconditions: 'unchecked' }), ops, budget);
  if (loose.ok === true) return { key, verdict: 'precondition-anomaly', explanation, prefix: strict.longestPrefix, stuck: strict.stuckAt };
  if (ops.some((o) => o.input.kind === 'delete'))
    return { key, verdict: 'needs-delete-semantics', explanation, prefix: strict.longestPrefix, stuck: strict.stuckAt };
  const stuckKinds = new Set(strict.stuckAt.map((i) => byId.get(i)!.input.kind));
  const clause = stuckKinds.has('read') ? 'rest:4.5/meaning/most-recent' : stuckKinds.has('create') ? 'rest:2.2.2' : 'rest:4.1/put';
  return { key, verdict: 'violation', clause, explanation, prefix: strict.longestPrefix, stuck: strict.stuckAt };
}

const describe = (o: Operation<ObjectInput, ObjectOutput>): string =>
  `#${o.id} ${describeObjectOp(o.input, o.output)} [${o.call}, ${o.ret === Infinity ? '∞' : o.ret}]`;
