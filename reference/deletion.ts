/**
 * Two-phase deletion of one named object (rest:3.1, rest:2.3 deletionTimestamp and finalizers,
 * rest:2.2.2 name reuse) as a step function: given the model state, a step the suite took, and what
 * it observed (the write's status and a read of the object afterwards), the judgements and the next
 * state. Generated values (deletionTimestamp) are learned from the first observation, then held.
 *
 *   live{f1,f2} --delete--> terminating{f1,f2}@t --remove f2--> terminating{f1}@t --remove f1--> absent
 *
 * Deletion of an object without finalizers is not shown (rest:3.1): the object may be gone at once or
 * linger; the model then follows what it sees, and records `unspecified`.
 *
 * Removal after the last finalizer goes has no time bound either: the suite reads until the object is
 * gone or its eventual window passes (`waitedMs`); an object still Terminating with no finalizers by
 * then is inconclusive, not a failure.
 */
import { fail, inconclusive, pass, rule, unspecified, type Judgement } from './judgement.ts';

export type DeletionState =
  | { readonly phase: 'absent'; readonly existed: boolean }
  | { readonly phase: 'live'; readonly finalizers: readonly string[] }
  | { readonly phase: 'terminating'; readonly finalizers: readonly string[]; readonly deletionTimestamp: string }
  /** After a deletion the spec does not describe: the model does not know what the object is. */
  | { readonly phase: 'open' };

export type DeletionStep =
  | { readonly op: 'create'; readonly finalizers: readonly string[] }
  | { readonly op: 'delete' }
  /** A PUT of the object with this finalizer list (any actor, any order: rest:2.3/metadata.finalizers). */
  | { readonly op: 'setFinalizers'; readonly finalizers: readonly string[] };

export interface DeletionObservation {
  readonly status: number;
  /** The object read back after the step; undefined when the read found nothing (404). */
  readonly read: { readonly finalizers: unknown; readonly deletionTimestamp: unknown } | undefined;
  /** Set when the suite kept reading for an eventual removal: how long it waited in all. */
  readonly waitedMs?: number;
}

export interface DeletionVerdict {
  readonly judgements: Judgement[];
  readonly next: DeletionState;
}

export const initialDeletionState: DeletionState = { phase: 'absent', existed: false };

const is2xx = (s: number) => s >= 200 && s < 300;
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const show = (l: readonly string[]) => `[${l.join(', ')}]`;

function finalizersOf(read: DeletionObservation['read']): string[] | undefined {
  if (!read) return undefined;
  if (read.finalizers === undefined || read.finalizers === null) return [];
  return Array.isArray(read.finalizers) && read.finalizers.every((f) => typeof f === 'string') ? (read.finalizers as string[]) : undefined;
}

const isTimestamp = (v: unknown): v is string => typeof v === 'string' && v !== '' && !Number.isNaN(Date.parse(v));

/** What the object looks like now, in words, for the `observed` side of a judgement. */
function describe(o: DeletionObservation): string {
  if (!o.read) return `status ${o.status}; the object is gone (404)`;
  return `status ${o.status}; finalizers ${JSON.stringify(o.read.finalizers ?? [])}, deletionTimestamp ${JSON.stringify(o.read.deletionTimestamp)}`;
}

/** The finalizers the object holds in the model, or undefined when it holds none the model knows of. */
export function heldFinalizers(s: DeletionState): readonly string[] | undefined {
  return s.phase === 'live' || s.phase === 'terminating' ? s.finalizers : undefined;
}

/** One step of the suite's: its judgements and the model's next state. */
export function stepDeletion(s: DeletionState, step: DeletionStep, o: DeletionObservation): DeletionVerdict {
  const seen = describe(o);
  const got = finalizersOf(o.read);
  switch (step.op) {
    case 'create':
      return stepCreate(s, step, o, seen, got);
    case 'delete':
      return stepDelete(s, o, seen, got);
    case 'setFinalizers':
      return stepSetFinalizers(s, step, o, seen, got);
  }
}

/**
 * A create of the name: free, held by a live or Terminating object, or after a deletion not shown.
 * `seen` and `got`: the read after the step, in words and its finalizers.
 */
function stepCreate(
  s: DeletionState,
  step: Extract<DeletionStep, { op: 'create' }>,
  o: DeletionObservation,
  seen: string,
  got: string[] | undefined,
): DeletionVerdict {
  if (s.phase === 'open') {
    // Whether a name whose deletion is not shown is free again is not shown either.
    const js = [unspecified('rest:2.2.2', 'reuse of a name whose object may still be terminating: not shown', `status ${o.status}`)];
    return { judgements: js, next: is2xx(o.status) && o.read ? { phase: 'live', finalizers: got ?? [] } : { phase: 'open' } };
  }
  if (s.phase !== 'absent') {
    // A Terminating object still holds its name: only removal frees it (rest:3.1, rest:2.2.2).
    const refused = o.status >= 400 && o.status < 500;
    return {
      judgements: [rule('rest:2.2.2', refused, `create refused (4xx): the name is held by a ${s.phase} object`, `status ${o.status}`)],
      next: s,
    };
  }
  const clause = s.existed ? 'rest:2.2.2' : 'rest:4.1/post';
  const js: Judgement[] = [
    rule(
      clause,
      is2xx(o.status),
      s.existed ? 'create succeeds: the name was freed by removal' : 'create succeeds (2xx)',
      `status ${o.status}`,
    ),
  ];
  js.push(
    rule(
      'rest:2.3/metadata.finalizers',
      got !== undefined && sameSet(got, step.finalizers),
      `a live object with finalizers ${show(step.finalizers)}`,
      seen,
    ),
  );
  js.push(
    rule(
      'rest:2.3/metadata.deletionTimestamp',
      o.read !== undefined && (o.read.deletionTimestamp === undefined || o.read.deletionTimestamp === null),
      'no deletionTimestamp before any delete',
      seen,
    ),
  );
  return { judgements: js, next: { phase: 'live', finalizers: step.finalizers } };
}

/**
 * A delete: the first one of a live object with finalizers makes it Terminating; without finalizers
 * what happens is not shown.
 */
function stepDelete(s: DeletionState, o: DeletionObservation, seen: string, got: string[] | undefined): DeletionVerdict {
  if (s.phase === 'absent')
    return { judgements: [rule('rest:3.1/terminating-to-removed', o.read === undefined, 'a removed object stays removed', seen)], next: s };
  if (s.phase === 'open') return { judgements: [], next: o.read ? { phase: 'open' } : { phase: 'absent', existed: true } };
  if (s.phase === 'live' && s.finalizers.length === 0) {
    const js = [
      rule('rest:4.1/delete', is2xx(o.status), 'delete accepted (2xx)', `status ${o.status}`),
      unspecified(
        'rest:3.1/no-finalizers-not-shown',
        'deletion without finalizers: not shown',
        o.read ? 'left in the store' : 'removed at once',
      ),
    ];
    return { judgements: js, next: o.read ? { phase: 'open' } : { phase: 'absent', existed: true } };
  }
  if (s.phase === 'live') {
    const js: Judgement[] = [rule('rest:4.1/delete', is2xx(o.status), 'delete accepted (2xx)', `status ${o.status}`)];
    const dt = o.read?.deletionTimestamp;
    js.push(
      rule(
        'rest:3.1/live-to-terminating',
        o.read !== undefined && isTimestamp(dt),
        `Terminating: still stored with deletionTimestamp set while finalizers ${show(s.finalizers)} remain`,
        seen,
      ),
    );
    if (o.read) {
      js.push(rule('rest:2.3/metadata.deletionTimestamp', isTimestamp(dt), 'deletionTimestamp set by the first delete', seen));
      js.push(
        rule(
          'rest:2.3/metadata.finalizers',
          got !== undefined && sameSet(got, s.finalizers),
          `finalizers ${show(s.finalizers)} untouched by the delete`,
          seen,
        ),
      );
    }
    return { judgements: js, next: { phase: 'terminating', finalizers: s.finalizers, deletionTimestamp: String(dt) } };
  }
  // A repeated delete: only the first one sets deletionTimestamp (rest:2.3); its status is not shown.
  return { judgements: terminatingStill(s, s.finalizers, o, seen, 'a repeated delete'), next: s };
}

/** A PUT of the finalizer list: any actor, any order; the last one gone removes a Terminating object. */
function stepSetFinalizers(
  s: DeletionState,
  step: Extract<DeletionStep, { op: 'setFinalizers' }>,
  o: DeletionObservation,
  seen: string,
  got: string[] | undefined,
): DeletionVerdict {
  if (s.phase === 'absent' || s.phase === 'open') throw new Error('model misuse: setFinalizers on an object the model does not hold');
  const js: Judgement[] = [
    rule(
      'rest:2.3/metadata.finalizers',
      is2xx(o.status),
      `any actor may change finalizers to ${show(step.finalizers)} (2xx)`,
      `status ${o.status}`,
    ),
  ];
  // A removal not from the front that is refused enforces an order the spec says there is none of.
  const outOfOrder =
    s.phase === 'terminating' &&
    step.finalizers.length < s.finalizers.length &&
    !sameSet(s.finalizers.slice(s.finalizers.length - step.finalizers.length), step.finalizers);
  if (outOfOrder && !is2xx(o.status))
    js.push(
      fail(
        'rest:3.1/finalizer-order',
        'finalizers removed out of list order are accepted',
        `status ${o.status} removing ${show(s.finalizers)} -> ${show(step.finalizers)}`,
      ),
    );
  if (s.phase === 'live') {
    js.push(
      rule('rest:2.3/metadata.finalizers', got !== undefined && sameSet(got, step.finalizers), `finalizers ${show(step.finalizers)}`, seen),
    );
    return { judgements: js, next: { phase: 'live', finalizers: step.finalizers } };
  }
  if (step.finalizers.length === 0) {
    if (o.read !== undefined && awaitingRemoval(s, o.read)) {
      const window =
        o.waitedMs === undefined ? 'at the next read' : `within the ${o.waitedMs} ms the suite waited (--eventual-window widens it)`;
      js.push(
        inconclusive(
          'rest:3.1/terminating-to-removed',
          `the last finalizer removed: the object leaves the store, with no time bound; not seen ${window}`,
          seen,
        ),
      );
      return { judgements: js, next: { phase: 'open' } };
    }
    js.push(rule('rest:3.1/terminating-to-removed', o.read === undefined, 'the last finalizer removed: the object leaves the store', seen));
    return { judgements: js, next: { phase: 'absent', existed: true } };
  }
  js.push(...terminatingStill(s, step.finalizers, o, seen, `finalizers ${show(step.finalizers)} remain`));
  // Any removal order is acceptable; one that is not from the front shows none is enforced.
  if (!sameSet(s.finalizers.slice(s.finalizers.length - step.finalizers.length), step.finalizers))
    js.push(pass('rest:3.1/finalizer-order', 'finalizers removed out of list order are accepted'));
  return { judgements: js, next: { ...s, finalizers: step.finalizers } };
}

/**
 * True when a read after the last finalizer went shows the object on its way out: still Terminating
 * (the first delete's deletionTimestamp) with no finalizers left. Its removal may still come.
 */
export function awaitingRemoval(s: DeletionState, read: NonNullable<DeletionObservation['read']>): boolean {
  const got = finalizersOf(read);
  return s.phase === 'terminating' && got !== undefined && got.length === 0 && read.deletionTimestamp === s.deletionTimestamp;
}

/** A Terminating object that must still be there, unchanged but for its finalizers. */
function terminatingStill(
  s: Extract<DeletionState, { phase: 'terminating' }>,
  finalizers: readonly string[],
  o: DeletionObservation,
  seen: string,
  why: string,
): Judgement[] {
  if (!o.read) return [fail('rest:3.1/terminating-to-removed', `still Terminating: ${why}`, seen)];
  const got = finalizersOf(o.read);
  return [
    pass('rest:3.1/terminating-to-removed', 'stays while finalizers remain'),
    rule('rest:2.3/metadata.finalizers', got !== undefined && sameSet(got, finalizers), `finalizers ${show(finalizers)}`, seen),
    rule(
      'rest:2.3/metadata.deletionTimestamp',
      o.read.deletionTimestamp === s.deletionTimestamp,
      `deletionTimestamp ${s.deletionTimestamp}, as set by the first delete`,
      seen,
    ),
  ];
}
