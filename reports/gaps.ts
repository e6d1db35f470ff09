/**
 * Clauses left without a verdict, grouped by their reason (the first note), so a reason shared by a
 * hundred clauses is one line with a count, not a hundred lines. A component the run was not given
 * (harness/case/not-selected.ts) is such a reason, and every report shows it as one line of its own.
 *   [{ notes: ['not selected: pass --nodeagent-loader ...'] } x 150, { id: 'rest:6.3', notes: ['audit ...'] }]
 *   -> [{ reason: 'not selected: ...', clauses: [150 ids] }, { reason: 'audit ...', clauses: ['rest:6.3'] }]
 */
import { isNotSelected } from '../harness/case/index.ts';
import type { ClauseResult, RunResult } from '../runner/results.ts';

export interface GapGroup {
  readonly reason: string;
  readonly clauses: readonly string[];
}

const NO_REASON = 'not checked';

/** The notChecked clauses by reason, in order of first appearance (catalog order). */
export function gapGroups(clauses: readonly Pick<ClauseResult, 'id' | 'status' | 'notes'>[]): GapGroup[] {
  const groups = new Map<string, string[]>();
  for (const c of clauses) {
    if (c.status !== 'notChecked') continue;
    const reason = c.notes[0] ?? NO_REASON;
    const list = groups.get(reason);
    if (list === undefined) groups.set(reason, [c.id]);
    else list.push(c.id);
  }
  return [...groups].map(([reason, ids]) => ({ reason, clauses: ids }));
}

/** The groups whose reason is a component the run was not given. */
export function notSelectedGroups(clauses: readonly Pick<ClauseResult, 'id' | 'status' | 'notes'>[]): GapGroup[] {
  return gapGroups(clauses).filter((g) => isNotSelected(g.reason));
}

/**
 * One line per component not given: its reason, with how many checks (when the run recorded them) and
 * clauses it holds. `not selected: pass --nodeagent-loader CMD to test a node-agent config loader (14 checks, 162 clauses not checked)`
 */
export function notSelectedLines(run: Pick<RunResult, 'clauses' | 'notSelected'>): string[] {
  return notSelectedGroups(run.clauses).map((g) => {
    const checks = run.notSelected?.find((n) => n.reason === g.reason)?.checks.length;
    const n = g.clauses.length;
    return `${g.reason} (${checks !== undefined ? `${checks} check${checks === 1 ? '' : 's'}, ` : ''}${n} clause${n === 1 ? '' : 's'} not checked)`;
  });
}

/** The other groups: gaps of this run or of the suite. */
export function otherGapGroups(clauses: readonly Pick<ClauseResult, 'id' | 'status' | 'notes'>[]): GapGroup[] {
  return gapGroups(clauses).filter((g) => !isNotSelected(g.reason));
}
