/**
 * What a check runs in: the target, the run's settings and clock, and the parts of the harness the
 * run hands it (namespace pool, loader, daemon, hooks, pace). Apart from check.ts, whose case runner
 * takes a case context that itself holds an environment.
 */
import type { Profile } from '../../reference/profile.ts';
import type { Target, Transcript } from '../transport/index.ts';
import { stretched } from '../transport/index.ts';
import type { NodeagentLoaderTarget, ControllerDaemonTarget } from '../processes/index.ts';

export interface TargetSettings {
  /** Lifetime of continue tokens the target is configured with (rest:4.4.4; spec default 5 min). */
  readonly continueTtlMs: number;
  /** History the target keeps (rest:6.1.4, rest:8; spec default 5 min). */
  readonly historyWindowMs: number;
  /** Run clauses that need to wait out the windows above when they are long. */
  readonly slow: boolean;
  /** Longest the suite may wait for a time-bound clause without --slow. */
  readonly maxFastWaitMs: number;
  /**
   * How long the suite watches for an effect the spec promises "eventually" with no bound (a deleted
   * namespace's objects going away, rest:2.2.4; a watch event; a Terminating object's removal). Not seeing it within this window is inconclusive,
   * never a failure (`--eventual-window`).
   */
  readonly eventualWindowMs: number;
  /** How long a watch may take to deliver the events of writes already acknowledged. */
  readonly watchWaitMs: number;
  /**
   * How long shrinking one failure may take once it is found (`--shrink-time`, default
   * harness/case/shrink-budget.ts); when it runs out the smallest counterexample seen is reported.
   */
  readonly shrinkTimeMs?: number;
  /** How long a watch that asked for bookmarks is kept open to see one (none may come: that passes). */
  readonly bookmarkWaitMs: number;
  /** The target's release (`1.24`) when it does not report one at /version as gitVersion (rest:9.4). */
  readonly release?: string;
  /** How to restart the target or compact its history (`--hook`); the embedded server has both. */
  readonly hooks?: import('./hooks.ts').Hooks;
  /** The scale profile (`--scale nightly`); the rest-scale checks are not checked without one. */
  readonly scale?: import('./scale.ts').ScaleProfile;
  /** Size of the concurrent workload (`--writers`, `--ops-per-writer`); defaults fit a 2-core machine. */
  readonly workload?: { readonly writers?: number; readonly opsPerWriter?: number };
}

export interface CheckEnv {
  readonly target: Target;
  readonly transcript: Transcript;
  readonly profile: Profile;
  readonly runId: string;
  readonly settings: TargetSettings;
  /** Suite clock, ms. Passed in so model tests can drive time. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** A fresh namespace name for this run (guard-approved prefix). */
  readonly nextNamespace: () => string;
  /** Namespaces leased to one case at a time and reused; without it every case makes its own. */
  readonly namespacePool?: import('./namespace-pool.ts').NamespacePool;
  /** The node-agent config loader under test, when one is configured (nodeagent checks need it). */
  readonly nodeagentLoader?: NodeagentLoaderTarget;
  /**
   * The restricted identity (rest:5): `impersonation` (the run binds a user of its own and acts as it
   * with Impersonate-User), or the user of `--restricted-kubeconfig` (requests with identity
   * `restricted`), whose name is known from its client certificate or learned with a TokenReview.
   */
  readonly identities?: { readonly restricted: 'impersonation' | { readonly user: () => Promise<string | undefined> } };
  /** The controller daemon under test (`--controller-daemon`); its checks are notChecked without one. */
  readonly controllerDaemon?: ControllerDaemonTarget;
  /** `--background-writes`: one write elsewhere before each request (harness/case/background-writes.ts). */
  readonly backgroundWrites?: import('./background-writes.ts').BackgroundWrites;
  /**
   * How slow the target answers lately, from the run's own requests (harness/transport/pace.ts): the suite's
   * own windows below stretch by it. Absent in environments built by hand: the nominal windows.
   */
  readonly pace?: import('../transport/index.ts').Pace;
  /**
   * The running check's transcript and footprint (runner/run-check.ts), when the env is a check's own:
   * what the harness does for the check outside `target` (a pooled namespace emptied, a hook run) is
   * recorded and counted there too.
   */
  readonly exchangeSink?: import('./footprint.ts').ExchangeSink;
  /**
   * Whether the expectations file excuses a failure of this clause by this check: a case goes on past
   * such a failure (harness/case/case-context.ts). Absent: every case stops at its first failure.
   */
  readonly excused?: (failure: import('../../reference/judgement.ts').Judgement, check: string) => boolean;
}

/**
 * The window for "eventually" (see `eventualWindowMs`); at least the watch wait; stretched by the
 * target's pace, so a busy machine lengthens the wait instead of turning it inconclusive.
 */
export function eventualWindowOf(env: Pick<CheckEnv, 'settings' | 'pace'>): number {
  return stretched(env.pace, Math.max(env.settings.eventualWindowMs, env.settings.watchWaitMs));
}

/** How long a watch may take to deliver acknowledged writes (`watchWaitMs`), stretched by the target's pace. */
export function watchWaitOf(env: Pick<CheckEnv, 'settings' | 'pace'>): number {
  return stretched(env.pace, env.settings.watchWaitMs);
}

/**
 * `applicable` of a check that must wait out one of the target's time windows: runs when the window
 * is short enough to wait for in a normal run, or with --slow; otherwise says why not.
 */
export function waitsOut(env: CheckEnv, windowMs: number, what: string): string | undefined {
  return env.settings.slow || windowMs <= env.settings.maxFastWaitMs ? undefined : `waiting out ${what} of ${windowMs} ms needs --slow`;
}
