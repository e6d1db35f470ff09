/**
 * The upgrade view of the removal table (rest:9.4) for one release: what a client can no longer use,
 * what it still can but must leave (and for what, available since when), and the notable changes.
 * Pure data and a pure formatter; `svc-conformance versions --release 1.25` prints it.
 */
import type { Profile } from '../profile.ts';
import { compareReleases, formatRelease, type Release } from './release.ts';
import { groupName, groupVersionOf, removals, servedIn, type Removal } from './removals.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export interface PlanEntry {
  readonly groupVersion: string;
  readonly kind: string;
  readonly resource: string;
  readonly removedIn: string;
  /** `networking.svc.io/v1` and the release it is served since; absent when the spec names none. */
  readonly useInstead?: {
    readonly groupVersion: string;
    readonly since: string;
    readonly availableInRelease: boolean;
    readonly itselfRemovedIn?: string;
  };
  readonly notableChanges: string;
  readonly clause: ClauseId;
}

export interface MigrationPlan {
  readonly release: string;
  readonly profile: string;
  /** No longer served in the release: clients must already use the replacement. */
  readonly removed: readonly PlanEntry[];
  /** Still served but deprecated (a replacement exists): migrate before `removedIn`. */
  readonly deprecated: readonly PlanEntry[];
  /** Still served and scheduled for removal, with no replacement available in the release. */
  readonly scheduled: readonly PlanEntry[];
}

function entry(profile: Profile, r: Removal, release: Release): PlanEntry {
  const to = r.replacement;
  let useInstead: PlanEntry['useInstead'];
  if (to) {
    const toGroup = groupName(profile, to.group);
    const itself =
      servedIn(profile, toGroup, to.version, r.resource, release) === 'removed'
        ? removals.find((x) => groupName(profile, x.group) === toGroup && x.version === to.version && x.resource === r.resource)
        : undefined;
    useInstead = {
      groupVersion: groupVersionOf(profile, to.group, to.version),
      since: formatRelease(to.since),
      availableInRelease: compareReleases(release, to.since) >= 0,
      itselfRemovedIn: itself ? formatRelease(itself.removedIn) : undefined,
    };
  }
  return {
    groupVersion: groupVersionOf(profile, r.group, r.version),
    kind: r.kind,
    resource: r.resource,
    removedIn: formatRelease(r.removedIn),
    useInstead,
    notableChanges: r.notableChanges,
    clause: r.clause,
  };
}

export function migrationPlan(profile: Profile, release: Release): MigrationPlan {
  const removed: PlanEntry[] = [];
  const deprecated: PlanEntry[] = [];
  const scheduled: PlanEntry[] = [];
  // Still served: soonest removal first (the order a client has to act in). Removed: newest first.
  // Sorting is stable, so the spec's row order holds within one release.
  for (const r of [...removals].sort((x, y) => compareReleases(x.removedIn, y.removedIn))) {
    const s = servedIn(profile, groupName(profile, r.group), r.version, r.resource, release);
    if (s === 'deprecated') deprecated.push(entry(profile, r, release));
    else if (s !== 'removed') scheduled.push(entry(profile, r, release));
  }
  for (const r of [...removals].sort((x, y) => compareReleases(y.removedIn, x.removedIn))) {
    if (servedIn(profile, groupName(profile, r.group), r.version, r.resource, release) === 'removed')
      removed.push(entry(profile, r, release));
  }
  return { release: formatRelease(release), profile: profile.name, removed, deprecated, scheduled };
}

function line(e: PlanEntry): string[] {
  const to = e.useInstead;
  const target = !to
    ? 'no direct replacement'
    : `use ${to.groupVersion} (served since ${to.since}${to.availableInRelease ? '' : ', not yet in this release'}${to.itselfRemovedIn ? `; itself removed in ${to.itselfRemovedIn}` : ''})`;
  const out = [`  ${e.groupVersion} ${e.kind}: ${target}`];
  if (e.notableChanges !== '') out.push(`      notable changes: ${e.notableChanges.replace(/`/g, '')}`);
  return out;
}

export function formatMigrationPlan(plan: MigrationPlan): string {
  const out: string[] = [`API versions and release ${plan.release} (rest:9.4, profile ${plan.profile})`, ''];
  const section = (title: string, entries: readonly PlanEntry[], note: (e: PlanEntry) => string) => {
    out.push(`${title} (${entries.length})`);
    if (entries.length === 0) out.push('  none');
    let last = '';
    for (const e of entries) {
      const head = note(e);
      if (head !== last) out.push(` ${head}`);
      last = head;
      out.push(...line(e));
    }
    out.push('');
  };
  section(`Must migrate now: no longer served in ${plan.release}`, plan.removed, (e) => `removed in ${e.removedIn}:`);
  section(`May still use, but deprecated: migrate before removal`, plan.deprecated, (e) => `stops being served in ${e.removedIn}:`);
  section(
    'May still use, scheduled for removal without a replacement in this release',
    plan.scheduled,
    (e) => `stops being served in ${e.removedIn}:`,
  );
  out.push('Every group version not listed above is unaffected by the removal table. Objects persisted under a removed');
  out.push('version stay reachable through the replacement. Test with --runtime-config=<group>/<version>=false.');
  return `${out.join('\n')}\n`;
}
