/**
 * What the executor (runner/executor.ts) hands back, and the little a caller supplies: the lines and the
 * check stage a person watches, and the reports made of the result. Everything else a run needs is in
 * its plan (runner/plan.ts), the self-tests' in-process overrides included.
 */
import type { CapabilityEntry, CheckRecord } from './results.ts';
import type { RunFootprint } from '../harness/case/index.ts';
import type { RunPlan } from './plan.ts';
import type { CheckStage } from './check-stage.ts';
import type { SweepResult } from './sweep.ts';
import type { RunEnd, RunVerdict } from './run-verdict.ts';
import type { SignalListener } from './run-stop.ts';

/** What a run did, before any report is made of it. Records and footprints follow check order. */
export interface ExecutedRun {
  readonly plan: RunPlan;
  readonly records: readonly CheckRecord[];
  readonly errors: readonly string[];
  readonly footprint: RunFootprint;
  readonly server: string;
  /** The node-agent loader judged, as the reports name it; null when none. */
  readonly nodeagentLoader: string | null;
  readonly startedAt: number;
  readonly durationMs: number;
  /** What the sweep of an external target found; absent for the embedded one. */
  readonly swept?: SweepResult;
  /** How the run ended before its checks did (timeout, signal, a broken precondition): the verdict rules read it. */
  readonly end?: RunEnd;
  /** External targets: the command that removes whatever the run left (`svc-conformance cleanup`). */
  readonly cleanupCommand?: string;
  /** The capability map the probe before the checks made; absent when none ran (no API suite selected, a replay). */
  readonly capabilities?: readonly CapabilityEntry[];
}

/** The target as it answered: where, under which credentials, and the release it reports. */
export interface ReachedTarget {
  readonly server: string;
  readonly source: string;
  readonly reportedVersion?: string;
}

/**
 * The command line around a run (scripts/run-reports.ts, scripts/run-signals.ts): its reports and the signals its process hears.
 * The self-tests have none: they read the records, and a signal is their test runner's business.
 */
export interface RunEdge {
  /** Once the target answered, with the release it reports: which failures are known (not confirmed). */
  reachable(release: string | undefined, target: ReachedTarget): ((r: CheckRecord) => boolean) | undefined;
  /** Between the checks and the cleanup (e.g. the progress line ends). */
  checksDone(): void;
  /** The result made into reports; `final` false: a stopped run publishes before its cleanup and again after it. */
  publish(run: ExecutedRun, final: boolean): Promise<RunVerdict>;
  /** The target or the run's identity refused before any check: its one line made into reports; returns the exit code. */
  refused(line: string, run: ExecutedRun): Promise<number>;
  readonly signals: RunSignals;
}

/** SIGINT and SIGTERM, as the command line's process hears them and ends on them. */
export interface RunSignals {
  readonly listen: SignalListener;
  /** A signal while the run is stopping: it hurries; whatever hangs, the process ends with `exitCode` within bounds. */
  hurried(signal: NodeJS.Signals, exitCode: number): void;
  /** A signal after that: out now, with `exitCode`. */
  aborted(signal: NodeJS.Signals, exitCode: number): void;
}

export interface RunIO {
  readonly log: (line: string) => void;
  readonly stage: CheckStage;
  readonly edge?: RunEdge;
}

export interface RunOutcome {
  readonly exitCode: number;
  readonly run: ExecutedRun;
}
