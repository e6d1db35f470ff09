/**
 * The namespaces a control plane has from its start. Real components assume them: the controller
 * manager takes its leader Lease in the system namespace, kubectl writes to `default`, and
 * `kubectl get ns` lists them. The suite's guard never writes to them (it writes only what its run
 * created), so its cleanup leaves them alone.
 */
import { resourceTypes } from '../../reference/resources.ts';
import { systemNamespaces } from '../../reference/profile.ts';
import type { ServerState } from './state.ts';
import { createObject } from './writes.ts';

/** Creates the system namespaces (`default`, the system, public and node-lease namespaces of the profile). */
export function seedSystemNamespaces(st: ServerState, more: readonly string[] = []): void {
  const ns = resourceTypes(st.profile).namespaces;
  for (const name of new Set([...systemNamespaces(st.profile), ...more])) {
    const r = createObject(st, ns, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    if (r.status >= 300) throw new Error(`could not create the system namespace ${name}: ${JSON.stringify(r.body)}`);
  }
}
