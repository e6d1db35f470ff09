/** Discovery documents, enough for kubectl and client libraries to find the served resources. */
import type { Profile } from '../../reference/profile.ts';
import { resourceTypes } from '../../reference/resources.ts';
import { DISCOVERY_VERBS } from './custom-discovery.ts';
import { hostedCoreTypes, kubectlNames } from './hosted-types.ts';

/**
 * The only paths a discovery document can live at (this file's, served-versions.ts's and
 * custom-discovery.ts's): /version, /api, /api/V, /apis, /apis/G, /apis/G/V. Every other GET skips
 * building them (the served extra types were computed for every request before).
 */
const DISCOVERY_PATH = /^\/(?:version|api(?:\/[^/]+)?|apis(?:\/[^/]+(?:\/[^/]+)?)?)$/;
export const mayBeDiscovery = (path: string): boolean => DISCOVERY_PATH.test(path);

export function discovery(profile: Profile, path: string): unknown | undefined {
  const rts = resourceTypes(profile);
  // kubectl api-resources --verbs=watch (and patch) found nothing: both are served.
  const verbs = DISCOVERY_VERBS;
  const coord = rts.leases.group;
  switch (path) {
    case '/version':
      return { major: '1', minor: '24', gitVersion: 'v1.24.0', platform: 'svc-conformance-reference' };
    case '/api':
      return {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
      };
    case '/apis':
      return {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: coord,
            versions: [{ groupVersion: `${coord}/v1`, version: 'v1' }],
            preferredVersion: { groupVersion: `${coord}/v1`, version: 'v1' },
          },
        ],
      };
    case '/api/v1':
      return {
        kind: 'APIResourceList',
        groupVersion: 'v1',
        resources: [
          { name: 'namespaces', singularName: '', namespaced: false, kind: 'Namespace', verbs, shortNames: ['ns'] },
          { name: 'configmaps', singularName: '', namespaced: true, kind: 'ConfigMap', verbs, shortNames: ['cm'] },
          { name: 'events', singularName: '', namespaced: true, kind: 'Event', verbs, shortNames: ['ev'] },
          { name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] },
          { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'update'] },
          // After the entries above (unchanged): the hosted workload types kubectl users ask for.
          ...hostedCoreTypes(profile)
            .filter((t) => t.plural !== 'events')
            .map((t) => ({ name: t.plural, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs, ...kubectlNames(t) })),
        ],
      };
    case `/apis/${coord}/v1`:
      return {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: `${coord}/v1`,
        resources: [{ name: 'leases', singularName: '', namespaced: true, kind: 'Lease', verbs }],
      };
    case `/apis/${coord}`:
      return {
        kind: 'APIGroup',
        apiVersion: 'v1',
        name: coord,
        versions: [{ groupVersion: `${coord}/v1`, version: 'v1' }],
        preferredVersion: { groupVersion: `${coord}/v1`, version: 'v1' },
      };
    default:
      return undefined;
  }
}
