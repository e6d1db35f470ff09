/**
 * Results are data (docs/architecture.md "Checks and results as data"): every check emits CheckRecords; the run result aggregates
 * them per clause; the report writers in reports/ are pure functions of RunResult.
 */
import type { JudgementValues } from '../reference/value-diff.ts';
import type { ClauseId } from '../reference/catalog/clause-ids.ts';
import type { ObservationTags } from '../reference/judgement.ts';
import type { AnswerNeed } from '../reference/answer-checks.ts';
import type { ObservedAnswer } from '../harness/reproducers/index.ts';
import type { FeatureFinding } from '../reference/features.ts';

/** A need of the model with how the recorded answers fared against it (the compact diff of a failure). */
export interface NeedShown extends AnswerNeed {
  readonly observed: string;
  readonly met: boolean;
}

import type { ClauseStatus, Verdict } from './verdicts.ts';

/** The verdict words and their mapping to report statuses: runner/verdicts.ts. */
export type { ClauseStatus, Verdict };

/** `expectedValue`, `observedValue`, `diff`: the compared values as data, when the judge compared objects. */
/**
 * `class`, `input`, `observedStatus`, `observedReason` (reference/observations.ts): the model's name for
 * the kind of departure and of input, and the answer's status and Status reason, where the judge gave
 * them; what an expectations signature is matched against, with `observed`.
 */
export interface Counterexample extends JudgementValues, ObservationTags {
  /** Check that found it. */
  readonly check: string;
  readonly clause: ClauseId;
  /** Human text: what the model accepted (already rendered from the model's set). */
  readonly expected: string;
  readonly observed: string;
  /** The shrunk operations in readable form, one per line. */
  readonly steps: readonly string[];
  /** Standalone shell script of curl commands (secrets redacted). */
  readonly curl: string;
  /** The same reproducer as a node test file (`node --test`), where the answer needed is data. */
  readonly nodeTest?: string;
  readonly requestCount: number;
  /** fast-check replay: `--seed S --path P`. */
  readonly seed: number;
  readonly path?: string;
  readonly replay: string;
  /** What the model judged, as plain JSON to judge again later (a watch history and its events). */
  readonly history?: unknown;
  /** How the failure fared when replayed before it was reported (runner/confirm-failures.ts). */
  readonly confirmation?: Confirmation;
  /**
   * The answer the model needed, as data naming requests of `answers` by index, with what each got:
   * the reproducer script checks the same needs. Absent: not available as data.
   */
  readonly needs?: readonly NeedShown[];
  /** Every request of the case and what came back, as data (items of every page, watch events). */
  readonly answers?: readonly ObservedAnswer[];
}

/**
 * The label of a confirmed failure: `reproduces alone` every replay of its case alone failed
 * the same clause; `flaky` some did; `needs concurrent writes` none alone, every one beside background
 * writes (`--background-writes`); `not reproduced` no replay did, though each reached it; `not confirmed
 * (replays failed earlier)` every replay stopped at another failure of the case first (its state
 * differed from the run's), so none could show this one. The other `not confirmed (...)` labels say
 * why it was not replayed: the time bound ran out, confirmation was off, the expectations file lists
 * the clause, or the failure has no seed and path to replay from.
 */
export const CONFIRMATION_LABELS = [
  'reproduces alone',
  'flaky',
  'needs concurrent writes',
  'not reproduced',
  'not confirmed (replays failed earlier)',
  'not confirmed (time)',
  'not confirmed (off)',
  'not confirmed (known failure)',
  'not confirmed (no replay path)',
] as const;
export type ConfirmationLabel = (typeof CONFIRMATION_LABELS)[number];

export interface Confirmation {
  readonly label: ConfirmationLabel;
  /** Replays of the case alone (its check only, parallel 1, namespaces of its own), and how many failed the same clause again. */
  readonly runs: number;
  readonly reproduced: number;
  /** Replays beside background writes, made when no replay alone failed again. */
  readonly withWrites?: { readonly runs: number; readonly reproduced: number };
  /** `not confirmed (replays failed earlier)`: the clauses the replays failed instead, before reaching this one. */
  readonly stoppedEarlierBy?: readonly string[];
}

export interface CheckRecord {
  readonly clause: ClauseId;
  readonly check: string;
  readonly verdict: Verdict;
  /** Number of observations behind the verdict (requests checked). */
  readonly count: number;
  /** For unspecified / inconclusive / skipped / notChecked / error: why, and what the target did. */
  readonly note?: string;
  readonly counterexample?: Counterexample;
  /**
   * On a pass record: the input classes (reference/observations.ts) judged under the clause with a
   * conforming answer, and how often. A listed departure is "no longer occurring" only when its input
   * class is here; otherwise it was not exercised.
   */
  readonly inputs?: Readonly<Record<string, number>>;
}

export interface ClauseResult {
  readonly id: string;
  readonly section: string;
  readonly summary: string;
  readonly status: ClauseStatus;
  readonly checks: number;
  readonly counterexamples: readonly Counterexample[];
  readonly notes: readonly string[];
  /** The checks whose records for this clause were `error` (the report names them; none is green). */
  readonly errorChecks?: readonly string[];
  /** Listed in the expectations file and not a regression (failed as excused, or did not fail). */
  readonly expectedFailure?: boolean;
  /** The expectations entries of a listed clause and what became of each (reports/known-failures.ts). */
  readonly expectation?: ClauseExpectation;
  /** Its share of the wall time of the checks that judged it (for JUnit); absent when not measured. */
  readonly timeMs?: number;
}

export type EntryOutcome = 'excused' | 'noLongerOccurs' | 'notExercised';

/** One expectations entry of a listed clause, and what the run made of it. */
export interface EntryResult {
  /** The signature, for a person: `class limit-ignored, status 200`, or `any failure of the clause`. */
  readonly excuses: string;
  readonly reason: string;
  readonly source?: string;
  /** `file:line` of the entry. */
  readonly at?: string;
  readonly outcome: EntryOutcome;
  /** One line: how many failures it excused, or what the run sent or did not send. */
  readonly detail: string;
}

export interface ClauseExpectation {
  /** A failure of the clause that no entry excuses. */
  readonly regression: boolean;
  /** Those failures: the observed answer, with why no entry matched. */
  readonly unexcused: readonly string[];
  readonly entries: readonly EntryResult[];
}

export interface RunResult {
  readonly tool: 'svc-conformance';
  readonly version: string;
  readonly profile: string;
  readonly seed: number;
  /**
   * notTested: the run exercised too little of its selection, fell below `--require`, or the preflight
   * stopped it (exit 3). interrupted: a signal (SIGINT, SIGTERM) stopped it before it finished (exit 130, 143).
   */
  readonly verdict: 'conformant' | 'nonconformant' | 'error' | 'notTested' | 'interrupted';
  /** Why the run is notTested, one line each. */
  readonly notTested?: readonly string[];
  /** A nonconformant run that did not finish or judged too little: why, short and in full (runner/run-verdict.ts). */
  readonly incomplete?: import('./run-verdict.ts').Incomplete;
  /** Components the run was not given (harness/case/not-selected.ts), one entry each: the checks and clauses they hold. */
  readonly notSelected?: readonly NotSelected[];
  readonly target: RunTarget;
  /** How the run was asked for: the command line (secrets never), the selection and the expectations files. */
  readonly invocation?: RunInvocation;
  readonly startedAt: string;
  readonly durationMs: number;
  /**
   * Clauses by status; a known failure (failed, excused by the expectations file) counts under `known`,
   * not `failed`: `failed` is the failures beyond expectations, the ones that make a run nonconformant.
   */
  readonly totals: RunTotals;
  /** What the capability probe found the target serves, feature by feature (absent: no probe ran). */
  readonly capabilities?: readonly CapabilityEntry[];
  readonly clauses: readonly ClauseResult[];
  readonly errors: readonly string[];
  /** What the run cost the target; absent when not measured. */
  readonly footprint?: import('../harness/case/index.ts').RunFootprint;
  /** What the run created on the target and its cleanup did not remove (external targets only). */
  readonly leftovers?: readonly RunLeftover[];
  /** External targets: `svc-conformance cleanup` for this run, with the target options it was given. */
  readonly cleanupCommand?: string;
  /** What the run reached (answers, table cells, pages, watches, ...) and how much of its selection it judged. */
  readonly scorecard?: import('../harness/case/index.ts').Scorecard;
}

export interface NotSelected {
  /** "not selected: pass --nodeagent-loader CMD to test a node-agent config loader". */
  readonly reason: string;
  readonly checks: readonly string[];
  readonly clauses: number;
}

export interface RunTotals {
  passed: number;
  failed: number;
  known: number;
  unspecified: number;
  inconclusive: number;
  skipped: number;
  notChecked: number;
  informative: number;
  error: number;
  /** A feature the target does not serve and the spec lets it leave out (docs/capability-map.md). */
  notServed: number;
  /** Needs a feature the target does not serve: not run. */
  blocked: number;
}

/**
 * What the run tested. `kind` and `description` are absent only in reports of versions before them
 * (merged or compared old summaries); every run names them.
 *   embedded: { kind: 'embedded', description: 'embedded reference server', server: 'http://127.0.0.1:37197' }
 *   external: { kind: 'external', description: 'https://10.0.0.1:6443 (kubeconfig /home/u/.kube/config, context prod)' }
 */
export interface RunTarget {
  readonly server: string | null;
  readonly nodeagentLoader: string | null;
  readonly kind?: 'embedded' | 'external';
  /** For a person: "embedded reference server", or the server URL with the kubeconfig and context it came from; never a credential. */
  readonly description?: string;
  /** The version the API server reports at /version; absent when it reports none. */
  readonly reportedVersion?: string;
}

export interface RunInvocation {
  /** The command that runs this again, target options included, secrets never. */
  readonly command: string;
  /** The checks the run selected, in one line ("193 checks", "--suite rest-watch: 12 checks"). */
  readonly selection: string;
  readonly expectations: readonly string[];
}

/** One feature of the capability map as the reports show it. */
export interface CapabilityEntry extends FeatureFinding {
  readonly area: string;
  readonly title: string;
  /** The clause that requires it (or lets a server leave it out). */
  readonly clause: string;
  readonly required: boolean;
  /** The selected checks not run because it is not served. */
  readonly blocks: readonly string[];
}

export interface RunLeftover {
  readonly kind: string;
  readonly name: string;
  readonly state: 'present' | 'terminating';
  /** Removes it by hand. */
  readonly command: string;
}
