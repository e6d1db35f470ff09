/**
 * The run's own setup, tried once before any check: can the run create a namespace? Every API check
 * works in namespaces the run creates; on a target that refuses that (a partial server, an identity
 * without the permission) every check would stop at its first request with the same failure, dozens
 * of copies of one line. One namespace is created and deleted here instead: when that fails, the run
 * ends as not tested with one line naming the answer and `--namespace` (docs/partial-targets.md).
 *
 *   probeNamespaceSetup(target, { profile, runId }) -> undefined (created; the capability probe, or else the run's cleanup, deletes it)
 *   -> "not tested: the run cannot create its namespaces: POST /api/v1/namespaces answered 403 Forbidden: ...; ..."
 */
import type { Profile } from '../../reference/profile.ts';
import { collectionPath, resourceTypes } from '../../reference/resources.ts';
import type { Target, TargetResponse } from './exchange.ts';

export interface NamespaceSetupOptions {
  readonly profile: Profile;
  readonly runId: string;
}

/** Answers that say "not now" rather than "no": the checks find out for themselves. */
const TRANSIENT = new Set([429, 500, 502, 503, 504]);

/** The one namespace the setup probe creates; the capability probe works in it after (runner/phases/capability-probe.ts). */
export const setupNamespaceName = (runId: string): string => `svc-conformance-${runId}-setup`;

/** undefined when the run can create (and delete) a namespace of its own; otherwise the one line that says why not. */
export async function probeNamespaceSetup(target: Target, o: NamespaceSetupOptions): Promise<string | undefined> {
  const rt = resourceTypes(o.profile).namespaces;
  const name = setupNamespaceName(o.runId);
  const path = collectionPath(rt);
  const res = await target.send({
    method: 'POST',
    path,
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [o.profile.runLabel]: o.runId } } },
  });
  // Not deleted here: a target that holds deletes would hold the run before its first check. The
  // capability probe works in it and deletes it; it carries the run's label, so the run's cleanup
  // removes it with the others should that not happen.
  if (res.status >= 200 && res.status < 300) return undefined;
  if (TRANSIENT.has(res.status)) return undefined;
  return `not tested: the run cannot create its namespaces: POST ${path} answered ${res.status}${statusText(res)}; name existing, empty namespaces the run may write in with --namespace NAME (repeatable, two or more)`;
}

const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim().slice(0, 160);

function statusText(res: TargetResponse): string {
  const st = res.json as { reason?: unknown; message?: unknown } | undefined;
  const reason = typeof st?.reason === 'string' && st.reason !== '' ? ` ${oneLine(st.reason)}` : '';
  const message =
    typeof st?.message === 'string' && st.message !== ''
      ? `: ${oneLine(st.message)}`
      : res.json === undefined && res.bodyText !== ''
        ? `: ${oneLine(res.bodyText)}`
        : '';
  return `${reason}${message}`;
}
