/**
 * A check: a named property tied to the clauses it judges (docs/architecture.md "Checks and results as data"). The registry of
 * checks is what both the command line and the self-tests run; the suites stay thin. What a check
 * runs in is check-env.ts.
 */
import type fc from 'fast-check';
import type { ClauseId } from '../../reference/catalog/clause-ids.ts';
import type { CheckEnv } from './check-env.ts';

export interface Check<T> {
  readonly id: string;
  readonly suite: string;
  readonly title: string;
  /** Every clause this check can judge: shown as not checked or error when the check cannot run. */
  readonly clauses: readonly ClauseId[];
  /** Undefined when applicable; otherwise why not (recorded as notChecked / skipped). */
  readonly applicable?: (env: CheckEnv) => string | undefined;
  readonly arbitrary: (env: CheckEnv) => fc.Arbitrary<T>;
  /** Readable steps of one input, for the counterexample. */
  readonly describe: (input: T) => string[];
  /** Runs one case; returns its judgements, throws ClauseViolation on the first failing one. */
  readonly run: (input: T, cx: import('./case-context.ts').CaseContext) => Promise<void>;
  /**
   * A standalone reproducer of a failure of one input, for checks whose target is a process (a loader,
   * the daemon) rather than HTTP exchanges: takes the place of the curl script.
   */
  readonly reproducer?: (
    input: T,
    failure: import('../../reference/judgement.ts').Judgement,
    env: CheckEnv,
    about: import('../reproducers/index.ts').ProcessAbout,
  ) => string;
  /**
   * Fixed cases run first on every run (fast-check `examples`), on top of the random ones: the parts of
   * the check's clauses that a few random cases reach on some seeds only (an endpoint of three, a
   * series event, an Accept list nothing serves), so that the clause's status does not rest on the
   * seed. A failure ends the property, so a case a target is known to get wrong is a check of its own.
   */
  readonly examples?: (env: Pick<CheckEnv, 'profile'>) => readonly T[];
  /** Cases per run unless the CLI says otherwise (time-bound checks use one). */
  readonly defaultRuns?: number;
  /** false: a failing case is reported as found, not shrunk (a concurrent workload is not replayable). */
  readonly shrink?: false;
  /**
   * Runs with no other check at the same time: it restarts the target or compacts its history, which
   * would cut other checks' connections or age their versions under them.
   */
  readonly exclusive?: true;
}

/**
 * The cases one run of a check holds: its fixed examples, then the random ones (`runs` capped by the
 * check's `defaultRuns`, at least one). A replay's path counts the examples first, as fast-check does.
 */
export function casesOf<T>(
  check: Check<T>,
  env: Pick<CheckEnv, 'profile'>,
  runs: number,
): { readonly examples: T[]; readonly numRuns: number } {
  const examples = [...(check.examples?.(env) ?? [])];
  const random = Math.max(1, check.defaultRuns !== undefined ? Math.min(check.defaultRuns, runs) : runs);
  return { examples, numRuns: random + examples.length };
}

// Checks are stored with their input type erased; each is built by a typed factory.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCheck = Check<any>;
