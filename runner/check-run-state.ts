/**
 * What the parts of one check's run share: run-check.ts starts it, case-property.ts runs its cases,
 * failure-records.ts turns a failure into records and continue-past-failures.ts runs the cases after
 * one. The check, its environment and options, its tally and journal, and what its cases met on the way.
 */
import type { AnyCheck, CheckEnv, ClauseViolation, Tally } from '../harness/case/index.ts';
import type { Judgement } from '../reference/judgement.ts';
import type { CheckJournal } from './check-journal.ts';

export interface RunCheckOptions {
  readonly seed: number;
  readonly runs: number;
  /** fast-check path of a counterexample, to replay it directly. */
  readonly path?: string;
  /** How the CLI is invoked to replay, e.g. `npx svc-conformance run`. */
  readonly replayCommand?: string;
  /** Told the moment a check's first failure is found, before shrinking (one line). */
  readonly onFailureFound?: (line: string) => void;
  /** Whether the expectations file lists a failure as known: a known failure is not shrunk. */
  readonly known?: (failure: Judgement, check: string) => boolean;
}

export interface CheckRunState {
  readonly check: AnyCheck;
  readonly env: CheckEnv;
  readonly opts: RunCheckOptions;
  readonly journal: CheckJournal;
  readonly tally: Tally;
  /** The check's own examples, run first, and how many cases fast-check runs in all. */
  readonly examples: readonly unknown[];
  readonly numRuns: number;
  /** The input each reported violation came from (its readable steps). */
  readonly inputs: WeakMap<ClauseViolation, unknown>;
  /** The first failure met in a case that met only excused ones: reported once, beside the first failure reported. */
  excusedFirst: ClauseViolation | undefined;
  excusedAttached: boolean;
  /** One counter for the run and its replays: every case carries a label of its own. */
  caseNumber: number;
}

/** The cases of a check after its failures: those already run are skipped, failures already reported end a case quietly. */
export interface Continuation {
  skip: number;
  readonly reported: ReadonlySet<string>;
  /** Cases run, and those that ended at a failure already reported. */
  ran: number;
  stopped: number;
  /** Cases not run: the time going on may take had run out. */
  outOfTime: number;
  readonly mayRun: () => boolean;
}

/** Whether every failure of `e` is one the expectations file lists as known (such a failure is not shrunk). */
export function knownOnly(run: CheckRunState, e: ClauseViolation): boolean {
  const known = run.opts.known ?? run.env.excused;
  return known !== undefined && e.failures.length > 0 && e.failures.every((f) => known(f, run.check.id));
}

/** fast-check's examples option for the check's own examples. */
export const examplesOption = (run: CheckRunState): [unknown][] => run.examples.map((e) => [e] as [unknown]);
