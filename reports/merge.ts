/**
 * `merge-reports`: the shards of one run (`--shard i/n`, same seed) put back together. Each shard's
 * summary.json has every catalog clause, judged by that shard's checks or notChecked; the merged status
 * of a clause is the strongest of its shards' (a failure anywhere disproves it), as `statusOf` ranks
 * the records of one run. Pure: parsed summaries in, one RunResult out.
 */
import type { ClauseResult, ClauseStatus, Counterexample, RunResult } from '../runner/results.ts';
import { regressionsOf, totalsOf } from './aggregate.ts';
import { decideRun } from '../runner/run-verdict.ts';
import type { SummaryJson } from './summary-json.ts';
import { mergeClauseExpectations } from './known-failures.ts';
import { REST_4_5, REST_4_5_CELLS, restCells } from './scorecard.ts';
import { BELOW_REQUIRE, checkRequirements, REQUIRE_KEYS, requirementLine, type RequireKey } from './require.ts';
import type { Exercised, Scorecard } from '../harness/case/index.ts';

const RANK: readonly ClauseStatus[] = [
  'failed',
  'error',
  'notServed',
  'passed',
  'unspecified',
  'inconclusive',
  'blocked',
  'skipped',
  'informative',
  'notChecked',
];

export class MergeError extends Error {}

export function mergeSummaries(shards: readonly { readonly file: string; readonly summary: SummaryJson }[]): RunResult {
  const first = shards[0];
  if (first === undefined) throw new MergeError('nothing to merge: give at least one report folder');
  for (const s of shards) {
    if (s.summary.tool !== 'svc-conformance' || !Array.isArray(s.summary.clauses))
      throw new MergeError(`${s.file}: not a summary.json of svc-conformance`);
    // Shards of different seeds or profiles are different runs: merging them would report a run that never happened.
    if (s.summary.seed !== first.summary.seed)
      throw new MergeError(
        `${s.file}: seed ${s.summary.seed}, but ${first.file} has seed ${first.summary.seed}; shards of one run share a seed`,
      );
    if (s.summary.profile !== first.summary.profile)
      throw new MergeError(`${s.file}: profile ${s.summary.profile}, but ${first.file} has ${first.summary.profile}`);
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
  const scorecard = mergeScorecards(shards.flatMap((s) => (s.summary.scorecard !== undefined ? [s.summary.scorecard] : [])));
  // A shard that tested too little leaves the merged run untested too (unless a shard failed a clause:
  // runner/run-verdict.ts); --require holds for the sum.
  const judgedTooLittle = (s: SummaryJson) => [
    ...(s.notTested ?? []),
    ...(s.incomplete?.lines.filter((l) => l.startsWith('not tested: ')) ?? []),
  ];
  const vacuous = shards.flatMap((s) =>
    judgedTooLittle(s.summary)
      .filter((l) => !l.startsWith(BELOW_REQUIRE))
      .map((l) => `${s.file}: ${l}`),
  );
  const below = requirementLine(scorecard?.require ?? []);
  const decision = decideRun({
    regressions: regressionsOf(clauses),
    errors: errors.length > 0 || clauses.some((c) => c.status === 'error'),
    notTested: [...vacuous, ...(below !== undefined ? [below] : [])],
  });
  return {
    tool: 'svc-conformance',
    version: first.summary.version,
    profile: first.summary.profile,
    seed: first.summary.seed,
    verdict: decision.verdict,
    notTested: decision.notTested.length > 0 ? [...decision.notTested] : undefined,
    incomplete: decision.incomplete,
    scorecard,
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
    expectation: c.expectation,
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
/**
 * The shards of one run (`merge-reports`): counts add up, the longest chain and the largest are maxima,
 * a cell is hit when some shard hit it, the selection's figures add up, and a minimum of --require is
 * met by the sum. A shard's own verdict on its exercise stays with it (the merged run is notTested when
 * one shard was).
 */
export function mergeScorecards(cards: readonly Scorecard[]): Scorecard | undefined {
  if (cards.length === 0) return undefined;
  const sum = (f: (s: Scorecard) => number) => cards.reduce((n, s) => n + f(s), 0);
  const max = (f: (s: Scorecard) => number) => Math.max(...cards.map(f));
  const answers: Record<string, number> = {};
  for (const c of cards) for (const [k, n] of Object.entries(c.answers)) answers[k] = (answers[k] ?? 0) + n;
  const missed = REST_4_5_CELLS.filter((cell) => cards.every((c) => restCells(c).missed.includes(cell)));
  const hit = REST_4_5_CELLS.filter((cell) => !missed.includes(cell));
  const kind = (k: string) => hit.filter((c) => c.startsWith(`rest:4.5/${k}/`)).length;
  const ex = cards.flatMap((c) => (c.exercised !== undefined ? [c.exercised] : []));
  const exercised: Exercised | undefined =
    ex.length === 0
      ? undefined
      : (() => {
          const f = {
            selectedChecks: ex.reduce((n, e) => n + e.selectedChecks, 0),
            applicableChecks: ex.reduce((n, e) => n + e.applicableChecks, 0),
            checksWithVerdict: ex.reduce((n, e) => n + e.checksWithVerdict, 0),
            declaredClauses: ex.reduce((n, e) => n + e.declaredClauses, 0),
            judgedClauses: ex.reduce((n, e) => n + e.judgedClauses, 0),
          };
          const notTested = ex.some((e) => e.notTested);
          return {
            ...f,
            notTested,
            line: `${notTested ? 'not tested in some shard' : 'exercised'}: ${f.checksWithVerdict} of ${f.selectedChecks} selected checks reached a verdict (${f.selectedChecks - f.applicableChecks} declined), ${f.judgedClauses} of ${f.declaredClauses} clauses judged, summed over ${ex.length} shards`,
          };
        })();
  const merged: Scorecard = {
    answers,
    cells: {
      [REST_4_5]: { hit: hit.length, of: REST_4_5_CELLS.length, get: kind('get'), list: kind('list'), watch: kind('watch'), missed },
    },
    pages: { walked: sum((s) => s.pages.walked), longestChain: max((s) => s.pages.longestChain) },
    watches: {
      opened: sum((s) => s.watches.opened),
      resumed: sum((s) => s.watches.resumed),
      expired: sum((s) => s.watches.expired),
      delivering: sum((s) => s.watches.delivering ?? 0),
    },
    compactions: sum((s) => s.compactions),
    restarts: sum((s) => s.restarts),
    applyConflicts: sum((s) => s.applyConflicts),
    largest: { objects: max((s) => s.largest.objects), bytes: max((s) => s.largest.bytes) },
    exercised,
  };
  const reqs = (cards[0]!.require ?? []).flatMap((q) =>
    (REQUIRE_KEYS as readonly string[]).includes(q.key) ? [{ key: q.key as RequireKey, min: q.min }] : [],
  );
  return reqs.length === 0 ? merged : { ...merged, require: checkRequirements(merged, reqs) };
}
