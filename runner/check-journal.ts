/**
 * A check's part of the run's record (docs/rejudge.md): its judge calls in order, which of them the
 * failures it reported came from, and how many of its records the tally made (those rejudge rebuilds
 * from the calls). Kept beside the check's footprint, which travels with its records to the reports.
 */
import type { CheckFootprint } from '../harness/case/index.ts';
import type { Blobs, FailureLink, JournalEntry } from '../harness/case/index.ts';
import type { Tally } from '../harness/case/index.ts';

export interface CheckJournal {
  readonly check: string;
  entries: readonly JournalEntry[];
  blobs: Blobs;
  readonly links: FailureLink[];
  /** The leading records of the check that its tally made (passes, unspecified, inconclusive, not checked by the model). */
  tallyRecords: number;
  /** The check returned its records (a check that broke or was stopped has records the tally did not make). */
  complete: boolean;
  /** While the check runs: its tally. */
  tally?: Tally;
}

const journals = new WeakMap<CheckFootprint, CheckJournal>();

export function newCheckJournal(check: string, footprint: CheckFootprint): CheckJournal {
  const j: CheckJournal = { check, entries: [], blobs: new Map(), links: [], tallyRecords: 0, complete: false };
  journals.set(footprint, j);
  return j;
}

/** The journal of a check's run, when it ran in this process. */
export const journalOf = (footprint: CheckFootprint): CheckJournal | undefined => journals.get(footprint);
