/**
 * Core types served beside the ones the suites exercise, because real components write them at
 * start-up: the controller manager records core/v1 Events (leader election, namespace deletion).
 * They are plain stored objects with no rules of their own.
 */
import type { Profile } from '../../reference/profile.ts';
import type { ResourceType } from '../../reference/resources.ts';

export function hostedCoreTypes(_profile: Profile): ResourceType[] {
  return [{ plural: 'events', kind: 'Event', group: '', version: 'v1', namespaced: true }];
}
