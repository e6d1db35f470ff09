/**
 * The verdict and exit code of a run, decided in one place (docs/verdict-rules.md has the table).
 *
 * A failure found is a failure reported: a clause failed beyond the expectations file makes the run
 * nonconformant (exit 1) whatever else holds: a small selection, the vacuity guard, a timeout, an
 * early end. What kept the run from finishing or from judging enough is then said beside the verdict
 * (`incomplete`), never instead of it. "Not tested" and "error" (exit 3) only replace what would
 * otherwise be "conformant". A signal keeps the shell's exit code (130, 143): the run was told to stop.
 *
 * Which failures count: every observed failure of a clause no expectations entry excuses, confirmed or
 * not (a failure whose replay did not fail again was still observed; its label says how sure it is).
 */

/** How a run ended before its checks did. */
export type RunEnd =
  | { readonly kind: 'run timeout'; readonly line: string }
  | { readonly kind: 'SIGTERM' | 'SIGINT'; readonly line: string }
  /** The target broke a precondition of the run (no clean namespace could be had): its line. */
  | { readonly kind: 'early end'; readonly line: string };

export type RunVerdict = 'conformant' | 'nonconformant' | 'notTested' | 'error' | 'interrupted';

export interface VerdictFacts {
  /** Clauses failed beyond the expectations file. */
  readonly regressions: readonly string[];
  /** Infrastructure trouble: a run error or a clause in error. */
  readonly errors: boolean;
  /** Why the run would be not tested (preflight refusal, vacuity guard, silent watches, --require), one line each. */
  readonly notTested: readonly string[];
  readonly end?: RunEnd;
}

export interface RunDecision {
  readonly verdict: RunVerdict;
  readonly exitCode: number;
  /** notTested: why, one line each. */
  readonly notTested: readonly string[];
  /** nonconformant: what the run left undone, or undefined when it finished and judged enough. */
  readonly incomplete?: Incomplete;
}

/** A nonconformant run that did not finish or judged too little. */
export interface Incomplete {
  /** Short, for the verdict line: `timed out`, `stopped by SIGTERM`, `ended early`, `judged too little`. */
  readonly because: readonly string[];
  /** The full lines, one per reason. */
  readonly lines: readonly string[];
}

const BECAUSE: Readonly<Record<RunEnd['kind'], string>> = {
  'run timeout': 'timed out',
  SIGTERM: 'stopped by SIGTERM',
  SIGINT: 'stopped by SIGINT',
  'early end': 'ended early',
};

/** DESIGN.md "Exit codes of svc-conformance run". */
export const EXIT = { conformant: 0, nonconformant: 1, usage: 2, unreachable: 3 } as const;

const SIGNAL_EXIT = { SIGTERM: 143, SIGINT: 130 } as const;

/**
 *   regressions [rest:4.2/verbose], notTested ['only 1 of 9 ...']  -> nonconformant, exit 1, incomplete because ['judged too little']
 *   regressions [], notTested ['only 1 of 9 ...']                  -> notTested, exit 3
 *   regressions [rest:2.2], end early end                          -> nonconformant, exit 1, incomplete because ['ended early']
 *   regressions [], errors, end run timeout                        -> error, exit 3
 *   regressions [], end SIGINT                                     -> interrupted, exit 130
 *   regressions [rest:2.2], end SIGTERM                            -> nonconformant, exit 143, incomplete because ['stopped by SIGTERM']
 */
export function decideRun(f: VerdictFacts): RunDecision {
  if (f.regressions.length > 0) {
    const because = [...(f.end !== undefined ? [BECAUSE[f.end.kind]] : []), ...(f.notTested.length > 0 ? ['judged too little'] : [])];
    const lines = [...(f.end !== undefined ? [f.end.line] : []), ...f.notTested];
    return {
      verdict: 'nonconformant',
      exitCode: exitCodeOf('nonconformant', f.end),
      notTested: [],
      ...(lines.length > 0 ? { incomplete: { because, lines } } : {}),
    };
  }
  // Told to stop (a cancelled job): a verdict of its own, not the target's fault nor the suite's.
  if (f.end !== undefined && (f.end.kind === 'SIGINT' || f.end.kind === 'SIGTERM'))
    return { verdict: 'interrupted', exitCode: SIGNAL_EXIT[f.end.kind], notTested: [] };
  if (f.notTested.length > 0) return { verdict: 'notTested', exitCode: exitCodeOf('notTested', f.end), notTested: [...f.notTested] };
  // A run that did not finish cannot vouch for the target: never conformant.
  const verdict: RunVerdict = f.errors || f.end !== undefined ? 'error' : 'conformant';
  return { verdict, exitCode: exitCodeOf(verdict, f.end), notTested: [] };
}

/** The exit code of a decided verdict: 0, 1, or 3; a signal's 128+n whatever the verdict. */
export function exitCodeOf(verdict: RunVerdict, end?: RunEnd): number {
  if (end !== undefined && (end.kind === 'SIGTERM' || end.kind === 'SIGINT')) return SIGNAL_EXIT[end.kind];
  return verdict === 'conformant' ? EXIT.conformant : verdict === 'nonconformant' ? EXIT.nonconformant : EXIT.unreachable;
}

/**
 * The line a run that ended early prints. With failures found first, they lead: a target that breaks a
 * clause often breaks the run's precondition by the same bug (a list that also returns other
 * namespaces' objects looks like objects that survived their deletion).
 *   earlyEndLine('no clean namespace: ...', ['rest:2.2'])
 *     -> 'run ended early, nonconformant: failed rest:2.2; then no clean namespace: ... (a failure above may be its cause)'
 */
export function earlyEndLine(precondition: string, regressions: readonly string[]): string {
  if (regressions.length === 0) return `run ended early: ${precondition}`;
  const shown = regressions.slice(0, 8).join(', ');
  const more = regressions.length > 8 ? ` and ${regressions.length - 8} more` : '';
  return `run ended early, nonconformant: failed ${shown}${more}; then ${precondition} (a failure above may be its cause)`;
}
