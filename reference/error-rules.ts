/**
 * Section 7 as judges: 410 Gone, 504 with 'Too large resource version' and an optional Retry-After,
 * and the 400 cell. Errors are matched by status (and the one message text the spec itself fixes),
 * never by body shape, which rest:7.6 leaves open.
 */
import { rule, pass, statusReasonOf, tagged, UnsupportedByModel, type Judgement } from './judgement.ts';
import type { ClauseId } from './catalog/clause-ids.ts';

export const TOO_LARGE_TEXT = 'Too large resource version';

/** A read naming a resourceVersion that never appeared: 504, the spec's text, Retry-After in seconds if sent. */
export function judgeTooLarge(r: TooLargeAnswer, clause: ClauseId = 'rest:7/504'): Judgement[] {
  const verdict = rule(
    clause,
    r.status === 504,
    '504 Gateway Timeout for a resourceVersion that never appeared',
    `status ${r.status} ${r.bodyText.slice(0, 160)}`,
  );
  const reason = statusReasonOf(parsedBody(r.bodyText));
  // The Exact row: a store that hands the revision to etcd unchecked answers 500 at once.
  const js = tagged([verdict], {
    observedStatus: r.status,
    observedReason: reason,
    ...(clause === 'rest:7/504/exact'
      ? { input: 'exact-read-future-rv', class: r.status === 500 ? 'future-revision-500' : undefined }
      : {}),
  });
  if (r.status !== 504) return js;
  return [...js, ...judgeTooLargeMessage(r)];
}

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface TooLargeAnswer {
  readonly status: number;
  readonly bodyText: string;
  readonly retryAfter: string | undefined;
}

/** rest:7.1 and 7.2 on a 504 that says a version was not (yet) recognized: the spec's text, Retry-After in seconds. */
export function judgeTooLargeMessage(r: TooLargeAnswer): Judgement[] {
  return [
    rule(
      'rest:7.2',
      r.bodyText.includes(TOO_LARGE_TEXT),
      `error message containing '${TOO_LARGE_TEXT}'`,
      `body ${JSON.stringify(r.bodyText.slice(0, 200))}`,
    ),
    r.retryAfter === undefined
      ? pass('rest:7.1', 'Retry-After optional', 'absent')
      : rule(
          'rest:7.1',
          /^\d+$/.test(r.retryAfter.trim()),
          'Retry-After as a number of seconds',
          `Retry-After ${JSON.stringify(r.retryAfter)}`,
        ),
  ];
}

/** A continue token past its lifetime, or an Exact read older than retained history. */
export function judgeGone(clause: ClauseId, r: { status: number }, why: string): Judgement[] {
  return [
    rule('rest:7/410', r.status === 410, `410 Gone: ${why}`, `status ${r.status}`),
    rule(clause, r.status === 410, `410 Gone: ${why}`, `status ${r.status}`),
  ];
}

/**
 * A resourceVersion the target cannot have yet, built from what it returned so far. resourceVersions
 * are opaque; only when every one observed is a decimal integer (as upstream's) can the suite make one
 * up, and then only "far beyond the largest seen". Otherwise the check is not possible.
 */
export function futureResourceVersion(observed: Iterable<string>): string | undefined {
  let max = -1n;
  let any = false;
  for (const rv of observed) {
    if (!/^[0-9]{1,30}$/.test(rv)) return undefined;
    any = true;
    const n = BigInt(rv);
    if (n > max) max = n;
  }
  return any ? String(max + 1_000_000_000n) : undefined;
}

/**
 * `futureResourceVersion` for a clause that needs one: outside its scope (opaque versions) the model
 * refuses rather than guess, and the clause is reported as not checked with this reason.
 */
export function requireFutureResourceVersion(clause: ClauseId, observed: Iterable<string>): string {
  const rv = futureResourceVersion(observed);
  if (rv === undefined)
    throw new UnsupportedByModel(
      clause,
      "the target's resourceVersions are not all decimal integers, so the suite cannot name one it has not issued yet",
    );
  return rv;
}

/**
 * The first page a continue-token check starts from (rest:4.4.1): with at least two objects and
 * limit=1, a 200 page and a non-empty continue token; `token` is the page's metadata.continue.
 *
 *   judgeFirstPageToken(200, '') -> [fail rest:4.4.1]
 */
export function judgeFirstPageToken(status: number, token: unknown): Judgement[] {
  return [
    rule(
      'rest:4.4.1',
      status === 200 && typeof token === 'string' && token !== '',
      'a first page of 1 item and a continue token (at least two objects exist)',
      `status ${status}, continue ${JSON.stringify(token)}`,
    ),
  ];
}
