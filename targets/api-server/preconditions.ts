/**
 * resourceVersion and uid preconditions on writes, the upstream way: a mismatch answers 409 Conflict
 * and changes nothing. The spec has no preconditions (rest:2.3 fixes what a version means, not that a
 * write must match it), so the `preconditions-race` variation, which also accepts the version before
 * the current one, is legal: a concurrent workload records it as unspecified.
 */
import { deletePreconditionsOf } from './delete-options.ts';
import { keyFor } from './reads.ts';
import { conflict, type Answer } from './status.ts';
import { varies, type ServerState } from './state.ts';
import type { StoredObject } from './store.ts';
import type { ResourceType } from '../../reference/resources.ts';

export function preconditionHolds(st: ServerState, key: string, live: StoredObject, rv: string): boolean {
  if (rv === live.metadata['resourceVersion']) return true;
  if (!varies(st, 'preconditions-race')) return false;
  const liveRev = st.codec.parseRv(String(live.metadata['resourceVersion']));
  const before = liveRev === undefined ? undefined : st.store.get(key, liveRev - 1);
  return before !== undefined && before.metadata['resourceVersion'] === rv;
}

/** A DELETE whose DeleteOptions preconditions do not match the live object: 409, nothing deleted. */
export function refusedByPreconditions(
  st: ServerState,
  rt: ResourceType,
  ns: string | undefined,
  name: string,
  rawBody: string,
): Answer | undefined {
  const p = deletePreconditionsOf(rawBody);
  if (p === undefined) return undefined;
  const key = keyFor(rt, ns, name);
  const live = st.store.get(key);
  if (live === undefined) return undefined;
  const uidOk = p.uid === undefined || p.uid === live.metadata['uid'];
  const rvOk = p.resourceVersion === undefined || preconditionHolds(st, key, live, p.resourceVersion);
  if (uidOk && rvOk) return undefined;
  return conflict(
    `Operation cannot be fulfilled on ${rt.plural} "${name}": the precondition on ${uidOk ? 'resourceVersion' : 'UID'} does not match the object`,
  );
}
