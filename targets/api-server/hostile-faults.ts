/**
 * Hostile targets: planted faults that do not give a wrong answer so much as keep
 * the run waiting: a delete that never takes effect, a namespace that never finishes, a connection
 * never answered, a body one byte a second, a silent watch, writes acknowledged and never stored.
 * They are not in the oracle-strength table (`npm run mutation` judges one check per fault); the
 * self-test test/oracle/cli/hostile-targets.test.ts runs whole bounded runs against each and requires a
 * report in time, a verdict that is never conformant, and one of `clauses` failed or inconclusive
 * where the fault breaks a clause (none for the two transport faults: their answer is `error`).
 */
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';

export interface HostileFault {
  readonly name: string;
  /** The clause it breaks first, shown by `list-faults` (a transport fault names none: '-'). */
  readonly clause: ClauseId | '-';
  readonly description: string;
  /** Clauses of which a run must report at least one failed or inconclusive (empty: only `error`). */
  readonly clauses: readonly ClauseId[];
}

export const hostileFaults = [
  { name: 'never-delete', clause: 'rest:4.1/delete', description: 'DELETE answers 200 (the object, or the list for a collection) but nothing is ever deleted, namespaces included', clauses: ['rest:4.1/delete', 'rest:2.2.4', 'rest:3.1/live-to-terminating', 'rest:3.1/terminating-to-removed', 'rest:6.1.1'] },
  { name: 'namespace-never-finalizes', clause: 'rest:2.2.4', description: 'a deleted namespace stays Terminating forever with its objects (its controller never runs)', clauses: ['rest:2.2.4'] },
  { name: 'hold-connections', clause: '-', description: 'every 7th request (watches included) is accepted and never answered; the connection stays open', clauses: [] },
  { name: 'trickle-body', clause: '-', description: 'every 7th answer is sent one byte a second', clauses: [] },
  { name: 'silent-watch', clause: 'rest:6.1.1', description: 'a watch is answered 200 and then never sends an event (nor ends)', clauses: ['rest:6.1.1', 'rest:4.5/watch/unset', 'rest:4.5/watch/0', 'rest:4.5/watch/other', 'rest:6.1.2'] },
  { name: 'write-201-not-stored', clause: 'rest:4.1/post', description: 'every create answers 201 with the object it would store, and stores nothing (namespaces included)', clauses: ['rest:4.1/post', 'rest:2.2.1', 'rest:2.2.2', 'rest:4.1/put', 'rest:4.1/patch', 'rest:4.1/delete'] },
] as const satisfies readonly HostileFault[];

export type HostileFaultName = (typeof hostileFaults)[number]['name'];
