/**
 * Core types served beside the ones the suites exercise, because real components and kubectl use
 * them: the controller manager records core/v1 Events (leader election, namespace deletion); kubectl
 * users run `get pods`, `get deploy`. They are plain stored objects with no rules of their own (no
 * scheduling, no phases, no controllers), listed in discovery so kubectl finds them.
 */
import type { Profile } from '../../reference/profile.ts';
import type { ResourceType } from '../../reference/resources.ts';

export function hostedCoreTypes(_profile: Profile): ResourceType[] {
  // Pods also for their eviction subresource (rest:4.1, subresources.ts).
  return [
    { plural: 'events', kind: 'Event', group: '', version: 'v1', namespaced: true },
    { plural: 'pods', kind: 'Pod', group: '', version: 'v1', namespaced: true },
    { plural: 'replicationcontrollers', kind: 'ReplicationController', group: '', version: 'v1', namespaced: true },
  ];
}

/**
 * The short names and categories upstream's discovery gives workload types: kubectl resolves
 * `deploy`, `po`, `rs` only through them. Keyed by group/plural; core types have group ''.
 */
const KUBECTL_NAMES: Readonly<Record<string, { readonly shortNames: readonly string[]; readonly categories: readonly string[] }>> = {
  '/pods': { shortNames: ['po'], categories: ['all'] },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ['all'] },
  'apps/deployments': { shortNames: ['deploy'], categories: ['all'] },
  'apps/replicasets': { shortNames: ['rs'], categories: ['all'] },
  'apps/statefulsets': { shortNames: ['sts'], categories: ['all'] },
  'apps/daemonsets': { shortNames: ['ds'], categories: ['all'] },
};

/** Extra discovery fields of a type (nothing for types upstream gives none). */
export function kubectlNames(t: ResourceType): { shortNames?: readonly string[]; categories?: readonly string[] } {
  return KUBECTL_NAMES[`${t.group}/${t.plural}`] ?? {};
}
