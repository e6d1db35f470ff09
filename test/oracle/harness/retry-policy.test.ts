// A read that timed out is sent once more, a write never (its effect is unknown); other transport
// failures keep the client's retries; no retry is sent when the run's budget cannot wait for it.
import { describe, expect, it } from 'vitest';
import { shouldRetry, TIMED_OUT_READ_RETRIES, type FailedAttempt } from '../../../harness/transport/retry-policy.ts';

const limits = { maxRetries: 3, attemptBoundMs: 30_000 };
const timedOut = (method: string): FailedAttempt => ({ method, beforeSend: false, transient: true, timedOut: true });
const reset = (method: string): FailedAttempt => ({ method, beforeSend: false, transient: true, timedOut: false });
const refused = (method: string): FailedAttempt => ({ method, beforeSend: true, transient: true, timedOut: false });

describe('shouldRetry', () => {
  it('a timed-out read: once', () => {
    expect(TIMED_OUT_READ_RETRIES).toBe(1);
    expect(shouldRetry(timedOut('GET'), { retries: 0, timeouts: 1 }, limits)).toBe(true);
    expect(shouldRetry(timedOut('GET'), { retries: 1, timeouts: 2 }, limits)).toBe(false);
    // A reset earlier does not use up the one retry a timeout gets.
    expect(shouldRetry(timedOut('HEAD'), { retries: 1, timeouts: 1 }, limits)).toBe(true);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('a timed-out or reset %s: never', (method) => {
    expect(shouldRetry(timedOut(method), { retries: 0, timeouts: 1 }, limits)).toBe(false);
    expect(shouldRetry(reset(method), { retries: 0, timeouts: 0 }, limits)).toBe(false);
  });

  it('nothing sent (connection refused): any method, up to maxRetries', () => {
    expect(shouldRetry(refused('POST'), { retries: 2, timeouts: 0 }, limits)).toBe(true);
    expect(shouldRetry(refused('POST'), { retries: 3, timeouts: 0 }, limits)).toBe(false);
    expect(shouldRetry(reset('GET'), { retries: 2, timeouts: 0 }, limits)).toBe(true);
  });

  it('a retry the run cannot wait for is not sent; a client without retries never retries', () => {
    expect(shouldRetry(timedOut('GET'), { retries: 0, timeouts: 1 }, { ...limits, budgetLeftMs: 29_999 })).toBe(false);
    expect(shouldRetry(timedOut('GET'), { retries: 0, timeouts: 1 }, { ...limits, budgetLeftMs: 30_000 })).toBe(true);
    expect(shouldRetry(timedOut('GET'), { retries: 0, timeouts: 1 }, { ...limits, maxRetries: 0 })).toBe(false);
    expect(shouldRetry({ ...refused('GET'), transient: false }, { retries: 0, timeouts: 0 }, limits)).toBe(false);
  });
});
