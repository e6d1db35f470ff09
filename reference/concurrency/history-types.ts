/**
 * A recorded concurrent history, as plain JSON (it is saved with a failure and judged again offline):
 * every operation with its invocation and completion times as the client saw them and its outcome,
 * every watch stream with the events it delivered, every consistent list. Keys are `namespace/name`.
 * Every write puts a token of its own into the object (`data.w`), so whatever a read or an event shows
 * names the write it comes from; resourceVersions are learned from answers, compared for equality only.
 */
import type { ObjectInput, ObjectOutput } from './object-model.ts';

export const CONCURRENT_HISTORY_FORMAT = 'svc-conformance/concurrent-history@1';

export interface RecordedOp {
  readonly id: number;
  readonly client: string;
  readonly key: string;
  readonly input: ObjectInput;
  readonly output: ObjectOutput;
  /** For a write: the object content it sent (data), to judge events and reads as whole writes. */
  readonly sent?: Readonly<Record<string, string>>;
  /**
   * The answer showed a deletionTimestamp: the write met an object being deleted, whose removal may
   * follow at once (rest:3.1; deletion without finalizers is not shown), so no event need show it.
   */
  readonly terminating?: boolean;
  /** The HTTP status, for the report (undefined when no answer came). */
  readonly httpStatus?: number;
  /** ms on the suite's monotonic clock. */
  readonly call: number;
  /** undefined: the answer never came. */
  readonly ret?: number;
}

export interface RecordedEvent {
  /** `ADDED`, `MODIFIED`, `BOOKMARK`, or another name (deletion: type and payload not shown, rest:6.1.6). */
  readonly type: string;
  /** undefined for a BOOKMARK. */
  readonly key?: string;
  /** The token of the write the object shows, when it shows one. */
  readonly token?: string;
  readonly rv?: string;
  /** The object's data as delivered (to tell a partial write). */
  readonly data?: Readonly<Record<string, string>>;
  /** Arrival time. */
  readonly at: number;
  /**
   * The object carries a deletionTimestamp: the event shows a delete under way, not a write (deleting
   * an object without finalizers may leave it Terminating for a while, rest:3.1: not shown).
   */
  readonly terminating?: boolean;
}

export interface RecordedWatch {
  readonly id: string;
  readonly client: string;
  /** Namespaces the watch covers (a namespace-wide watch: one; a label-selected cluster-wide watch: all of the workload's). */
  readonly namespaces: readonly string[];
  /** `state`: rv unset or "0", starts with synthetic ADDED; `exact`: from `rv`, no synthetic events. */
  readonly start: { readonly kind: 'state'; readonly rv?: '0' } | { readonly kind: 'exact'; readonly rv: string };
  /** When the start version was known to be reached: writes invoked after it are after the start. */
  readonly startKnownAt: number;
  /** This watch resumes another one from a version that one was shown (rest:6.1.2). */
  readonly resumedFrom?: { readonly watch: string; readonly rv: string };
  readonly bookmarksRequested: boolean;
  /** The watcher read its stream slowly on purpose. */
  readonly slow: boolean;
  readonly opened: number;
  readonly events: readonly RecordedEvent[];
  /** `gone`: 410; `error`: an error event or status; `closed`: the server ended it; `stopped`: the suite ended it. */
  readonly end: 'stopped' | 'closed' | 'gone' | 'error' | 'failed-to-start';
}

export interface RecordedList {
  readonly id: number;
  readonly client: string;
  readonly namespaces: readonly string[];
  readonly rv: string;
  readonly items: readonly { readonly key: string; readonly token?: string; readonly rv?: string }[];
  readonly call: number;
  readonly ret: number;
}

export interface ConcurrentHistory {
  readonly format: typeof CONCURRENT_HISTORY_FORMAT;
  readonly ops: readonly RecordedOp[];
  readonly watches: readonly RecordedWatch[];
  readonly lists: readonly RecordedList[];
}
