/**
 * Whether the client sends a request again after a transport failure (docs/architecture.md
 * "Oracle rules": infrastructure trouble is retried within bounds and reported as error).
 *
 * - Nothing reached the server (connection refused, DNS): any method, up to the client's retries.
 * - The answer was lost after sending (reset, closed): only a read, up to the client's retries. A write
 *   may have been applied; sending it again changes what the oracle observes (a second create is 409,
 *   a second DELETE 404, a second update conflicts), so it becomes an error instead.
 * - No complete answer within the request's bound (timed out): a read once more, a write never. A
 *   read lost once on a flaky network deserves a second chance; a target that holds requests would
 *   otherwise cost (retries + 1) bounds per request and a check minutes per case (hostile fault
 *   hold-connections), so one retry, and only while the run's budget leaves room for a whole bound.
 */

export interface FailedAttempt {
  readonly method: string;
  /** The request certainly did not reach the server. */
  readonly beforeSend: boolean;
  /** A transient failure (another attempt may succeed); a TLS or DNS misconfiguration is not. */
  readonly transient: boolean;
  /** The attempt got no complete answer within its bound. */
  readonly timedOut: boolean;
}

export interface RetryState {
  /** Attempts so far that failed (any cause). */
  readonly retries: number;
  /** How many attempts timed out, the one just failed included. */
  readonly timeouts: number;
}

export interface RetryLimits {
  readonly maxRetries: number;
  /** Milliseconds the run may still spend (its `--timeout` left); undefined: no run budget known. */
  readonly budgetLeftMs?: number;
  /** The bound of the next attempt. */
  readonly attemptBoundMs: number;
}

/** Timed-out reads are sent at most this many more times. */
export const TIMED_OUT_READ_RETRIES = 1;

/** GET (and HEAD) only: see the module comment for why PUT and DELETE are not replayed either. */
export function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 *   GET, timed out, first time, budget ample        -> true
 *   GET, timed out, second time                     -> false
 *   POST, timed out                                 -> false
 *   POST, connection refused, retries < maxRetries  -> true
 *   GET, reset, retries < maxRetries                -> true
 */
export function shouldRetry(f: FailedAttempt, s: RetryState, l: RetryLimits): boolean {
  if (!f.transient || s.retries >= l.maxRetries) return false;
  if (f.beforeSend) return true;
  if (!isRead(f.method)) return false;
  if (!f.timedOut) return true;
  if (s.timeouts > TIMED_OUT_READ_RETRIES) return false;
  return l.budgetLeftMs === undefined || l.budgetLeftMs >= l.attemptBoundMs;
}
