import { describe, expect, it } from 'vitest';
import { profiles } from '../../../../reference/profile.ts';
import { formatMigrationPlan, migrationPlan } from '../../../../reference/versioning/migration-plan.ts';
import { removals } from '../../../../reference/versioning/removals.ts';

const r = (minor: number) => ({ major: 1, minor });

describe('migration plan (rest:9.4)', () => {
  it('v1.25: the 1.25 rows are removed, 1.26/1.27 deprecated, every row somewhere once', () => {
    const p = migrationPlan(profiles.svc, r(25));
    expect(p.removed.length + p.deprecated.length + p.scheduled.length).toBe(removals.length);
    expect(p.removed.map((e) => e.groupVersion)).toContain('batch/v1beta1');
    expect(p.deprecated.map((e) => `${e.groupVersion} ${e.kind}`)).toEqual([
      'flowcontrol.apiserver.svc.io/v1beta1 FlowSchema',
      'flowcontrol.apiserver.svc.io/v1beta1 PriorityLevelConfiguration',
      'autoscaling/v2beta2 HorizontalPodAutoscaler',
      'storage.svc.io/v1beta1 CSIStorageCapacity',
    ]);
    expect(p.scheduled).toEqual([]);
    const psp = p.removed.find((e) => e.groupVersion === 'extensions/v1beta1' && e.kind === 'PodSecurityPolicy')!;
    expect(psp.useInstead).toMatchObject({ groupVersion: 'policy/v1beta1', itselfRemovedIn: 'v1.25' });
  });

  it('v1.23: CSIStorageCapacity has no replacement yet; PodSecurityPolicy has none at all', () => {
    const p = migrationPlan(profiles.k8s, r(23));
    expect(p.scheduled.map((e) => `${e.groupVersion} ${e.kind}`)).toEqual([
      'policy/v1beta1 PodSecurityPolicy',
      'storage.k8s.io/v1beta1 CSIStorageCapacity',
    ]);
    expect(p.scheduled[1]!.useInstead).toMatchObject({ groupVersion: 'storage.k8s.io/v1', availableInRelease: false });
  });

  it("the text names sections, replacements and notable changes in the profile's spelling", () => {
    const text = formatMigrationPlan(migrationPlan(profiles.k8s, r(25)));
    expect(text).toContain('Must migrate now: no longer served in v1.25');
    expect(text).toContain('policy/v1beta1 PodDisruptionBudget: use policy/v1 (served since v1.21)');
    expect(text).toContain('empty spec.selector {} selects all pods');
    expect(text).toContain('networking.k8s.io/v1');
    expect(text).not.toContain('svc.io');
  });
});
