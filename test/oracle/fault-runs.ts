/**
 * A run of checks against a server with a planted fault, made once per vitest run however many oracle
 * files ask for it with the same options (test/helpers/once-per-run.ts). The planted-fault cases
 * (fault-cases.ts), the replay of a counterexample, the reproducers (reproducers.test.ts) and the HTML
 * report (html-report-browser.test.ts) each judged the same run of one check against one fault on the
 * same seed, and each made it again (a run that finds a fault also shrinks it: several CPU-seconds).
 * Each still asserts what it asserted, on a run with exactly the options it names. Only within the
 * `oracle` project (its scratch folder, test/dist.global-setup.ts), and only for runs whose records are
 * small: a shrunk counterexample, not a concurrent workload's whole history.
 */
import { createHash } from 'node:crypto';
import { inject } from 'vitest';
import { runAgainst } from '../../scripts/dev/in-process-run.ts';
import type { CheckRecord } from '../../runner/results.ts';
import { oncePerRun } from '../helpers/once-per-run.ts';

type RunOptions = Omit<Parameters<typeof runAgainst>[0], 'variationReach'>;

/** The records of `runAgainst(o)`: made here, or read from the file of this vitest run that made it. */
export function faultRun(o: RunOptions): Promise<CheckRecord[]> {
  // The same options in any order of their keys (a fault's target is spread in among them).
  const canonical = JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
  const key = createHash('sha256').update(canonical).digest('hex').slice(0, 20);
  // A family fault's name holds a slash (removed-version-served/<row>): a file name may not.
  const names = (o.faults?.join('+') ?? 'none').replace(/[^A-Za-z0-9+.-]/g, '_');
  return oncePerRun(inject('oracleScratch'), `fault-run-${names}-${key}`, () => runAgainst(o));
}
