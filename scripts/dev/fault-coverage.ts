/**
 * `npm run fault-coverage -- [SUMMARY]`: which clauses a run passed have a planted fault that names
 * them (as its clause or as a clause a correct report may name), which have a catalogued reason why
 * none can be planted (reference/catalog/no-planted-fault.ts), and which have neither. SUMMARY is a
 * default run's summary.json (default results/summary.json, as `npm start` writes it).
 *
 *   faultCoverage(['rest:2.2.2', 'rest:7.1'], faultsByClause, {}) ->
 *     { rest: { passed: 2, failedByFault: 1, excused: 0, missing: ['rest:7.1'] }, node: {...} }
 *
 * The faults' declared clauses are what is counted; `npm run mutation` shows the clauses each fault was
 * actually reported under, and the self-tests require each fault to be caught by one of them.
 */
import { readFileSync } from 'node:fs';
import { faults, type Fault } from '../../targets/api-server/faults.ts';
import { familyFaults } from '../../targets/api-server/fault-families.ts';
import { nodeagentFaults } from '../../targets/nodeagent-loader/faults.ts';
import { nodeagentFieldFaults } from '../../targets/nodeagent-loader/field-faults.ts';
import { nodeagentDefaultFaults } from '../../targets/nodeagent-loader/default-faults.ts';
import { daemonFaults } from '../../targets/controller-daemon/faults.ts';
import { daemonDefaultFaults } from '../../targets/controller-daemon/default-faults.ts';
import { noPlantedFaultReasons } from '../../reference/catalog/no-planted-fault.ts';

export interface DocCoverage {
  /** Clauses of the document the run passed. */
  readonly passed: number;
  /** Of those, clauses a planted fault names. */
  readonly failedByFault: number;
  /** Of the rest, clauses with a catalogued reason why no fault can be planted. */
  readonly excused: number;
  /** Passed clauses with neither, in the run's order. */
  readonly missing: readonly string[];
}

/** More clauses than this in one fault's list: a family, not clauses it is known to fail. */
const WIDE = 8;

/** The planted faults of every reference target, by the clauses they name. */
export function plantedFaultsByClause(): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  const add = (clause: string, fault: string) => out.set(clause, [...(out.get(clause) ?? []), fault]);
  for (const f of [...(faults as readonly Fault[]), ...familyFaults]) for (const c of [f.clause, ...f.alsoReportedAs]) add(c, f.name);
  // A fault that may be reported under any of a whole family (every scalar field, every nested path)
  // shows only that some of them bite: it counts for its first clause alone.
  for (const f of [...nodeagentFaults, ...nodeagentFieldFaults, ...nodeagentDefaultFaults])
    for (const c of f.clauses.length > WIDE ? f.clauses.slice(0, 1) : f.clauses) add(c, `nodeagent:${f.name}`);
  for (const f of [...daemonFaults, ...daemonDefaultFaults]) add(f.clause, `daemon:${f.name}`);
  return out;
}

export function faultCoverage(
  passed: readonly string[],
  byClause: ReadonlyMap<string, readonly string[]>,
  reasons: Readonly<Record<string, string | undefined>>,
): Readonly<Record<'rest' | 'node', DocCoverage>> {
  const of = (doc: 'rest' | 'node'): DocCoverage => {
    const mine = [...new Set(passed.filter((c) => c.startsWith(`${doc}:`)))];
    const failed = mine.filter((c) => (byClause.get(c)?.length ?? 0) > 0);
    const rest = mine.filter((c) => !failed.includes(c));
    const excused = rest.filter((c) => reasons[c] !== undefined);
    return {
      passed: mine.length,
      failedByFault: failed.length,
      excused: excused.length,
      missing: rest.filter((c) => reasons[c] === undefined),
    };
  };
  return { rest: of('rest'), node: of('node') };
}

/** The clauses a run's records pass: a pass recorded and no failure. */
export function passedInRecords(records: readonly { readonly clause: string; readonly verdict: string }[]): string[] {
  const failed = new Set(records.filter((r) => r.verdict === 'fail').map((r) => r.clause));
  return [...new Set(records.filter((r) => r.verdict === 'pass' && !failed.has(r.clause)).map((r) => r.clause))];
}

/**
 * Passed clauses with neither a planted fault that names them nor a catalogued reason why none can be
 * planted: what "a planted fault for every passed clause" leaves open (empty when it holds).
 */
export function withoutFaultOrReason(
  passed: readonly string[],
  byClause: ReadonlyMap<string, readonly string[]> = plantedFaultsByClause(),
  reasons: Readonly<Record<string, string | undefined>> = noPlantedFaultReasons,
): string[] {
  const cov = faultCoverage(passed, byClause, reasons);
  return [...cov.rest.missing, ...cov.node.missing];
}

/** The clause ids a summary.json marks passed. */
export function passedClauses(summary: unknown): string[] {
  const clauses = (summary as { clauses?: unknown } | null)?.clauses;
  if (!Array.isArray(clauses)) throw new Error('not a summary.json: no clauses array');
  return clauses
    .filter((c: { status?: unknown; id?: unknown }) => c.status === 'passed' && typeof c.id === 'string')
    .map((c: { id: string }) => c.id);
}

const percent = (n: number, of: number) => (of === 0 ? '-' : `${((n / of) * 100).toFixed(0)} %`);

export function coverageLines(cov: Readonly<Record<'rest' | 'node', DocCoverage>>): string[] {
  const label = { rest: 'API', node: 'node' } as const;
  const out: string[] = [];
  for (const doc of ['rest', 'node'] as const) {
    const c = cov[doc];
    out.push(
      `${label[doc]} clauses passed: ${c.passed}; failed by a planted fault: ${c.failedByFault} (${percent(c.failedByFault, c.passed)}); no fault possible (catalogued): ${c.excused}; neither: ${c.missing.length}`,
    );
  }
  for (const doc of ['rest', 'node'] as const) for (const m of cov[doc].missing) out.push(`  no fault: ${m}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? 'results/summary.json';
  let summary: unknown;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    process.stderr.write(
      `fault-coverage: cannot read ${file}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} (run \`npm start\` first, or name a summary.json)\n`,
    );
    process.exit(2);
  }
  try {
    process.stdout.write(
      `${coverageLines(faultCoverage(passedClauses(summary), plantedFaultsByClause(), noPlantedFaultReasons)).join('\n')}\n`,
    );
  } catch (e) {
    process.stderr.write(`fault-coverage: ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
}
