/**
 * The judges of access the authorization checks reach beside a case's rules (rest:5.1, rest:5.6,
 * rest:4.1 subresource rows): a request by someone the server cannot authenticate, a health endpoint,
 * the status subresource, an eviction. What the spec leaves to the mechanisms is recorded, never failed.
 */
import { fail, inconclusive, rule, unspecified, type Judgement } from './judgement.ts';

/** How a request ended: served, refused (401/403, as upstream), or something else (not found, invalid, ...). */
export type Outcome = 'ok' | 'refused' | 'other';
export const outcomeOf = (status: number): Outcome =>
  status >= 200 && status < 300 ? 'ok' : status === 401 || status === 403 ? 'refused' : 'other';

/**
 * The status of a refusal is the mechanisms' business, not the spec's: rest:5.1 "the mechanisms are
 * described outside this document. Mechanisms of client authentication on the API server: not shown."
 * Recorded under that row.
 */
export function refusalRecorded(what: string, status: number): Judgement {
  return unspecified(
    'rest:5.1/client-auth-not-shown',
    `${what}: refused; how (status code, body) belongs to the mechanisms the spec does not show`,
    `answered ${status}`,
  );
}

export type Stranger = 'anonymous' | 'unknown';

const strangerText = (who: Stranger) =>
  who === 'anonymous' ? 'a request without credentials' : 'a request with a bearer token nobody issued';

/**
 * rest:5.1: a request whose sender the server cannot authenticate, or that nobody granted anything,
 * is refused: not served, and for a write, nothing stored. How it is refused is not the spec's.
 */
export function judgeStranger(who: Stranger, what: string, status: number, stored?: boolean): Judgement[] {
  const served = outcomeOf(status) === 'ok';
  const out = [
    rule(
      'rest:5.1',
      !served && stored !== true,
      `${strangerText(who)} to ${what} is refused, and changes nothing`,
      `answered ${status}${stored === true ? '; the object was stored' : ''}`,
    ),
  ];
  if (!served) out.push(refusalRecorded(`${strangerText(who)} to ${what}`, status));
  return out;
}

/**
 * rest:5.6: health endpoints queried from a remote host need authentication. The suite judges it only
 * from a remote host; on the server's own host the spec says nothing, and whether the anonymous
 * identity counts as authentication is described outside the spec (rest:5.1).
 */
export function judgeHealthAccess(who: Stranger, path: string, status: number, remote: boolean): Judgement {
  const served = outcomeOf(status) === 'ok';
  if (!remote)
    return unspecified(
      'rest:5.6',
      `${path} from the server's own host (loopback): rest:5.6 speaks of remote hosts only`,
      `${strangerText(who)} answered ${status}`,
    );
  if (who === 'anonymous')
    return unspecified(
      'rest:5.6',
      `${path} without credentials: whether the anonymous identity counts as authenticated is described outside the spec (rest:5.1)`,
      `answered ${status}`,
    );
  return rule('rest:5.6', !served, `${path} from a remote host with credentials that authenticate nobody is refused`, `answered ${status}`);
}

/** A host name or address of this machine (the suite then is no remote host of a server there). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/**
 * rest:4.1: GET of an object's subresource returns the subresource's representation; for `status`,
 * the object it belongs to (a namespaced custom type's, or a namespace's: cluster-scoped).
 */
export function judgeSubresourceGet(
  path: string,
  status: number,
  kind: string | undefined,
  ownerKind: string,
  scope: 'namespaced' | 'cluster' = 'namespaced',
): Judgement {
  return rule(
    scope === 'namespaced' ? 'rest:4.1/get-namespaced-subresource' : 'rest:4.1/get-subresource',
    status === 200 && kind === ownerKind,
    `GET ${path} answers 200 with the ${ownerKind} it belongs to`,
    `${status}, kind ${kind ?? 'none'}`,
  );
}

/**
 * rest:4.1 eviction row: POST of an Eviction to a pod's `eviction` subresource triggers API-initiated
 * eviction. With no disruption budget in the way the pod goes: gone, or Terminating (a scheduled pod
 * is deleted gracefully). 429 is how a budget refuses (upstream): that proves nothing, inconclusive.
 * How the eviction itself is answered (201 Status upstream) is not in the spec: any 2xx.
 */
export function judgeEviction(evicted: number, after: { status: number; terminating: boolean }): Judgement {
  const expected = "POST of an Eviction to the pod's eviction subresource is accepted and the pod goes (gone or Terminating)";
  if (evicted === 429)
    return inconclusive(
      'rest:4.1/eviction',
      expected,
      'answered 429: an eviction refused for a disruption budget says nothing about the row',
    );
  if (evicted < 200 || evicted >= 300) return fail('rest:4.1/eviction', expected, `the eviction answered ${evicted}`);
  return rule(
    'rest:4.1/eviction',
    after.status === 404 || (after.status === 200 && after.terminating),
    expected,
    `eviction answered ${evicted}; then the pod read ${after.status}${after.status === 200 ? (after.terminating ? ' (Terminating)' : ' (still live)') : ''}`,
  );
}
