/**
 * The exercised scorecard: what the run reached on the target, beside what it judged.
 * A verdict says which clauses held; the scorecard says how hard they were pushed: answers by class,
 * the rest:4.5 table cells requested, pages and the longest continue chain, watches opened, resumed and
 * expired, compactions and restarts crossed, apply conflicts met, the largest list and object. Built
 * from the footprint's reach counts (harness/case/reach.ts), which come from the exchanges the run recorded.
 */
import { emptyReach, type CheckReach } from '../harness/case/index.ts';
import type { RunFootprint } from '../harness/case/index.ts';
import type { RunResult } from '../runner/results.ts';
import { getClause, listClause, watchClause, type MatchClass, type PagingClass, type RvClass } from '../reference/rv-semantics.ts';
import type { Exercised, Scorecard, TableCells } from '../harness/case/index.ts';

const RVS: readonly RvClass[] = ['unset', 'zero', 'other'];
const MATCHES: readonly MatchClass[] = ['unset', 'Exact', 'NotOlderThan'];
const PAGINGS: readonly PagingClass[] = ['no-limit', 'limit', 'limit-continue'];

/** Every cell of the rest:4.5 get, list and watch tables (resourceVersionMatch with continue has no row). */
export const REST_4_5_CELLS: readonly string[] = [
  ...RVS.map(getClause),
  ...MATCHES.flatMap((m) =>
    PAGINGS.filter((p) => m === 'unset' || p !== 'limit-continue').flatMap((p) => RVS.map((rv) => listClause(m, p, rv))),
  ),
  ...RVS.map(watchClause),
];

/** The key of the rest:4.5 tables in `cells`. */
export const REST_4_5 = 'rest:4.5';

/** The rest:4.5 cells of a scorecard (none hit when it has no such entry). */
export const restCells = (s: Scorecard): TableCells =>
  s.cells[REST_4_5] ?? { hit: 0, of: REST_4_5_CELLS.length, get: 0, list: 0, watch: 0, missed: [...REST_4_5_CELLS] };

/** The answer classes always shown, so a zero reads as "none", not "not counted". */
export const ANSWER_KEYS = ['2xx', '3xx', '4xx', '5xx', '409', '410', '429', '504', 'none'] as const;

export function scorecardOf(footprint: RunFootprint | undefined, exercised?: Exercised): Scorecard {
  const r: CheckReach = footprint?.reach ?? emptyReach();
  const hit = REST_4_5_CELLS.filter((c) => (r.cells[c] ?? 0) > 0);
  const kind = (k: string) => hit.filter((c) => c.startsWith(`rest:4.5/${k}/`)).length;
  return {
    answers: Object.fromEntries([
      ...ANSWER_KEYS.map((k) => [k, r.answers[k] ?? 0] as const),
      ...Object.entries(r.answers).filter(([k]) => !(ANSWER_KEYS as readonly string[]).includes(k)),
    ]),
    cells: {
      [REST_4_5]: {
        hit: hit.length,
        of: REST_4_5_CELLS.length,
        get: kind('get'),
        list: kind('list'),
        watch: kind('watch'),
        missed: REST_4_5_CELLS.filter((c) => !hit.includes(c)),
      },
    },
    pages: { walked: r.pages, longestChain: r.longestChain },
    watches: { ...r.watches },
    compactions: r.compactions,
    restarts: r.restarts,
    applyConflicts: r.applyConflicts,
    largest: { objects: r.largestList, bytes: r.largestObjectBytes },
    exercised,
  };
}

/** A few lines for the terminal and summary.md. */
export function scorecardLines(s: Scorecard): string[] {
  const a = s.answers;
  const cells = restCells(s);
  const lines = [
    `answers: ${['2xx', '3xx', '4xx', '5xx'].map((k) => `${k} ${a[k] ?? 0}`).join(', ')} (409 ${a['409'] ?? 0}, 410 ${a['410'] ?? 0}, 429 ${a['429'] ?? 0}, 504 ${a['504'] ?? 0}; no answer ${a['none'] ?? 0})`,
    `rest:4.5 cells hit: ${cells.hit} of ${cells.of} (get ${cells.get}, list ${cells.list}, watch ${cells.watch}); pages walked ${s.pages.walked}, longest continue chain ${s.pages.longestChain}`,
    `watches opened ${s.watches.opened} (${s.watches.delivering ?? 0} delivered an event), resumed ${s.watches.resumed}, expired (410) ${s.watches.expired}; compactions crossed ${s.compactions}, restarts ${s.restarts}; apply conflicts ${s.applyConflicts}; largest list ${s.largest.objects} objects, largest object ${s.largest.bytes} bytes`,
  ];
  if (s.exercised !== undefined) lines.push(s.exercised.line);
  for (const q of s.require ?? []) if (!q.met) lines.push(`--require ${q.key}>=${q.min}: the run reached ${q.actual}`);
  return lines;
}

/** How a person reads the verdict: `notTested` is "not tested"; the others as summary.json spells them. */
export function verdictText(v: RunResult['verdict']): string {
  return v === 'notTested' ? 'not tested' : v;
}
