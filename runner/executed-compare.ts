/**
 * What the executor hands back for a `compare` plan (runner/compare-plan.ts), and what its caller
 * supplies: the lines a person watches and the edge that makes reports of the result
 * (scripts/compare-reports.ts), as `RunIO` is for a run. Plain data: reports/ formats it.
 */
import type { StepResult } from '../harness/interpreters/index.ts';
import type { ComparePlan } from './compare-plan.ts';

/** One side as the reports name it. */
export interface ComparedSide {
  readonly server: string;
  readonly profile: string;
  readonly label: string;
}

/** One check compared: its cases and the steps paired. */
export interface ComparedCheck {
  readonly id: string;
  readonly suite: string;
  readonly cases: number;
  readonly steps: number;
  readonly notApplicable?: string;
}

export interface ExecutedCompare {
  readonly plan: ComparePlan;
  readonly target: ComparedSide;
  readonly reference: ComparedSide;
  readonly checks: readonly ComparedCheck[];
  /** Every step of every case, classified (harness/interpreters/lockstep-case.ts). */
  readonly steps: readonly StepResult[];
  /** Steps that could not be paired. */
  readonly notCompared: number;
  readonly startedAt: Date;
  readonly durationMs: number;
}

export interface CompareEdge {
  /** The result made into reports; returns the exit code. */
  publish(compared: ExecutedCompare): Promise<number>;
}

export interface CompareIO {
  readonly log: (line: string) => void;
  readonly edge: CompareEdge;
}
