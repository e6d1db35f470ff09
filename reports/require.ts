/**
 * `--require`: minimums a run must reach on its scorecard, so a nightly job fails when it stopped
 * testing (a selector that matches nothing, a target that answers every list in one page, a hook
 * that no longer runs). Syntax: comma-separated `KEY>=N`, N a non-negative integer:
 *
 *   --require pages>=5,watches.resumed>=1,cells.rest:4.5>=10
 *
 * A run below any minimum is `notTested` (exit 3) unless it failed a clause (exit 1 wins: a regression
 * is never hidden behind it).
 */
import type { RequirementResult, Scorecard } from '../harness/case/index.ts';
import { restCells } from './scorecard.ts';

export interface Requirement {
  readonly key: RequireKey;
  readonly min: number;
}

const METRICS = {
  'answers.2xx': (s) => s.answers['2xx'] ?? 0,
  'answers.3xx': (s) => s.answers['3xx'] ?? 0,
  'answers.4xx': (s) => s.answers['4xx'] ?? 0,
  'answers.5xx': (s) => s.answers['5xx'] ?? 0,
  'answers.409': (s) => s.answers['409'] ?? 0,
  'answers.410': (s) => s.answers['410'] ?? 0,
  'answers.429': (s) => s.answers['429'] ?? 0,
  'answers.504': (s) => s.answers['504'] ?? 0,
  'cells.rest:4.5': (s) => restCells(s).hit,
  'cells.get': (s) => restCells(s).get,
  'cells.list': (s) => restCells(s).list,
  'cells.watch': (s) => restCells(s).watch,
  pages: (s) => s.pages.walked,
  chain: (s) => s.pages.longestChain,
  'watches.opened': (s) => s.watches.opened,
  'watches.resumed': (s) => s.watches.resumed,
  'watches.expired': (s) => s.watches.expired,
  'watches.delivering': (s) => s.watches.delivering ?? 0,
  compactions: (s) => s.compactions,
  restarts: (s) => s.restarts,
  conflicts: (s) => s.applyConflicts,
  objects: (s) => s.largest.objects,
  bytes: (s) => s.largest.bytes,
  checks: (s) => s.exercised?.checksWithVerdict ?? 0,
  clauses: (s) => s.exercised?.judgedClauses ?? 0,
} as const satisfies Record<string, (s: Scorecard) => number>;

export type RequireKey = keyof typeof METRICS;
export const REQUIRE_KEYS = Object.keys(METRICS) as RequireKey[];

/** `pages>=5,chain>=2` -> requirements; a string naming what is wrong for anything else. */
export function parseRequire(text: string): Requirement[] | string {
  const out: Requirement[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    const m = /^([a-z0-9.:]+)\s*>=\s*(\d{1,12})$/i.exec(part);
    if (m === null) return `"${part}" is not KEY>=N (e.g. pages>=5,watches.resumed>=1)`;
    if (!(REQUIRE_KEYS as readonly string[]).includes(m[1]!)) return `unknown key ${m[1]}; known: ${REQUIRE_KEYS.join(', ')}`;
    out.push({ key: m[1] as RequireKey, min: Number(m[2]) });
  }
  return out;
}

export function checkRequirements(s: Scorecard, reqs: readonly Requirement[]): RequirementResult[] {
  return reqs.map((q) => {
    const actual = METRICS[q.key](s);
    return { key: q.key, min: q.min, actual, met: actual >= q.min };
  });
}

/** How that line starts (merge-reports re-checks the shards' sum instead of keeping theirs). */
export const BELOW_REQUIRE = 'not tested: the run fell below --require';

/** The one line a run below its minimums carries; undefined when every minimum is met. */
export function requirementLine(results: readonly RequirementResult[]): string | undefined {
  const unmet = results.filter((r) => !r.met);
  if (unmet.length === 0) return undefined;
  return `${BELOW_REQUIRE}: ${unmet.map((r) => `${r.key} ${r.actual} < ${r.min}`).join(', ')}`;
}
