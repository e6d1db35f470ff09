/**
 * `merge-reports`: the shards of one run (`--shard i/n`, same seed) put back together. Each shard's
 * summary.json has every catalog clause, judged by that shard's checks or notChecked; the merged status
 * of a clause is the strongest of its shards' (a failure anywhere disproves it), as `statusOf` ranks
 * the records of one run. Pure: parsed summaries in, one RunResult out.
 */
import type { ClauseResult, ClauseStatus, Counterexample, RunResult } from '../harness/results.ts';
import { totalsOf, verdictOf } from './aggregate.ts';
import type { SummaryJson } from './summary-json.ts';
import { mergeClauseExpectations } from './known-failures.ts';

const RANK: readonly ClauseStatus[] = ['failed', 'error', 'passed', 'unspecified', 'inconclusive', 'skipped', 'informative', 'notChecked'];

export class MergeError extends Error {}

export function mergeSummaries(shards: readonly { readonly file: string; readonly summary: SummaryJson }[]): RunResult {
  const first = shards[0];
  if (first === undefined) throw new MergeError('nothing to merge: give at least one report folder');
  for (const s of shards) {
    if (s.summary.tool !== 'svc-conformance' || !Array.isArray(s.summary.clauses)) throw new MergeError(`${s.file}: not a summary.json of svc-conformance`);
    // Shards of different seeds or profiles are different runs: merging them would report a run that never happened.
    if (s.summary.seed !== first.summary.seed) throw new MergeError(`${s.file}: seed ${s.summary.seed}, but ${first.file} has seed ${first.summary.seed}; shards of one run share a seed`);
    if (s.summary.profile !== first.summary.profile) throw new MergeError(`${s.file}: profile ${s.summary.profile}, but ${first.file} has ${first.summary.profile}`);
  }
  const byId = new Map<string, ClauseResult[]>();
  const order: string[] = [];
  for (const s of shards) {
    for (const c of s.summary.clauses) {
      const list = byId.get(c.id);
      if (list === undefined) {
        byId.set(c.id, [toClause(c)]);
        order.push(c.id);
      } else list.push(toClause(c));
    }
  }
  const clauses = order.map((id) => mergeClause(byId.get(id)!));
  const errors = [...new Set(shards.flatMap((s) => s.summary.errors ?? []))];
  const startedAt = shards.map((s) => s.summary.startedAt).sort()[0] ?? first.summary.startedAt;
  return {
    tool: 'svc-conformance',
    version: first.summary.version,
    profile: first.summary.profile,
    seed: first.summary.seed,
    verdict: verdictOf(clauses, errors),
    target: first.summary.target,
    startedAt,
    // Shards run side by side: the run took as long as its slowest shard.
    durationMs: Math.max(...shards.map((s) => s.summary.durationMs)),
    totals: totalsOf(clauses),
    clauses,
    errors,
  };
}

function toClause(c: SummaryJson['clauses'][number]): ClauseResult {
  return {
    id: c.id,
    section: c.section,
    summary: c.summary,
    status: c.status,
    checks: c.checks,
    counterexamples: c.counterexamples as Counterexample[],
    notes: c.notes,
    ...(c.expectedFailure ? { expectedFailure: true } : {}),
    ...(c.expectation !== undefined ? { expectation: c.expectation } : {}),
  };
}

function mergeClause(parts: readonly ClauseResult[]): ClauseResult {
  const status = RANK.find((s) => parts.some((p) => p.status === s)) ?? 'notChecked';
  const judged = parts.filter((p) => p.status !== 'notChecked');
  const notes = [...new Set((judged.length > 0 ? judged : parts).flatMap((p) => p.notes))];
  const first = parts[0]!;
  return {
    id: first.id,
    section: first.section,
    summary: first.summary,
    status,
    checks: parts.reduce((n, p) => n + p.checks, 0),
    counterexamples: parts.flatMap((p) => p.counterexamples),
    notes,
    ...mergedExpectation(parts),
  };
}

/** A listed clause: the entries' outcomes merged; known (not a regression) only if no shard regressed. */
function mergedExpectation(parts: readonly ClauseResult[]): Pick<ClauseResult, 'expectation' | 'expectedFailure'> {
  const listed = parts.flatMap((p) => (p.expectation === undefined ? [] : [p.expectation]));
  if (listed.length === 0) return parts.some((p) => p.expectedFailure === true) ? { expectedFailure: true } : {};
  const expectation = mergeClauseExpectations(listed);
  return expectation.regression ? { expectation } : { expectation, expectedFailure: true };
}

/** Sharding is the runner's (runner/shard.ts); merging shards is ours. */
export { parseShard, shardOf } from '../runner/shard.ts';
