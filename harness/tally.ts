/** Per-check bookkeeping of judgements that did not fail: counts per clause and unspecified notes. */
import type { Judgement } from '../reference/judgement.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';

export class Tally {
  readonly passes = new Map<ClauseId, number>();
  readonly unspecified = new Map<ClauseId, Map<string, number>>();
  readonly inconclusive = new Map<ClauseId, Map<string, number>>();
  readonly notChecked = new Map<ClauseId, string>();

  add(j: Judgement): void {
    if (j.verdict === 'pass') this.passes.set(j.clause, (this.passes.get(j.clause) ?? 0) + 1);
    else if (j.verdict === 'unspecified') noteIn(this.unspecified, j);
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
