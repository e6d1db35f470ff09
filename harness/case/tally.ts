/** Per-check bookkeeping of judgements that did not fail: counts per clause and unspecified notes. */
import type { Judgement } from '../../reference/judgement.ts';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import type { Blobs, JournalEntry } from './judge-record.ts';

export class Tally {
  readonly passes = new Map<ClauseId, number>();
  readonly unspecified = new Map<ClauseId, Map<string, number>>();
  readonly inconclusive = new Map<ClauseId, Map<string, number>>();
  readonly notChecked = new Map<ClauseId, string>();
  /** Input classes judged with a conforming answer, per clause (reference/observations.ts). */
  readonly exercised = new Map<ClauseId, Map<string, number>>();
  /** Every judge call of the check's cases, in order: the run's record (harness/case/judge-record.ts). */
  readonly journal: JournalEntry[] = [];
  /** Values the journal refers to by id (history snapshots, object versions), once each. */
  readonly blobs: Blobs = new Map();

  add(j: Judgement): void {
    if (j.verdict === 'pass') {
      this.passes.set(j.clause, (this.passes.get(j.clause) ?? 0) + 1);
      if (j.input !== undefined) {
        const inputs = this.exercised.get(j.clause) ?? new Map<string, number>();
        inputs.set(j.input, (inputs.get(j.input) ?? 0) + 1);
        this.exercised.set(j.clause, inputs);
      }
    } else if (j.verdict === 'unspecified') noteIn(this.unspecified, j);
    else if (j.verdict === 'inconclusive') noteIn(this.inconclusive, j);
  }

  notCheckedBecause(clause: ClauseId, reason: string): void {
    this.notChecked.set(clause, reason);
  }
}

function noteIn(byClause: Map<ClauseId, Map<string, number>>, j: Judgement): void {
  const notes = byClause.get(j.clause) ?? new Map<ClauseId, number>();
  const note = `${j.observed} (spec: ${j.expected})`;
  notes.set(note, (notes.get(note) ?? 0) + 1);
  byClause.set(j.clause, notes);
}
