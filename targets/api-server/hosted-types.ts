/**
 * Core types served beside the ones the suites exercise, because real components write them at
 * start-up: the controller manager records core/v1 Events (leader election, namespace deletion).
 * They are plain stored objects with no rules of their own.
 */
import type { Profile } from '../../reference/profile.ts';
import type { ResourceType } from '../../reference/resources.ts';

export function hostedCoreTypes(_profile: Profile): ResourceType[] {
  // Pods: stored as they come (no scheduling, no phases), for their eviction subresource (rest:4.1, subresources.ts).
  return [{ plural: 'events', kind: 'Event', group: '', version: 'v1', namespaced: true }, { plural: 'pods', kind: 'Pod', group: '', version: 'v1', namespaced: true }];
}
