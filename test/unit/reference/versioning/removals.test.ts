import { describe, expect, it } from 'vitest';
import { profiles } from '../../../../reference/profile.ts';
import { groupName, removals, servedIn } from '../../../../reference/versioning/removals.ts';
import { judgeVersionName, parseVersion, stabilityOf } from '../../../../reference/versioning/stability.ts';
import { parseRelease } from '../../../../reference/versioning/release.ts';
import { catalog, clauseById } from '../../../../reference/catalog/index.ts';
import { groupVersionEnabled, parseRuntimeConfig, runtimeConfigDecision } from '../../../../reference/versioning/runtime-config.ts';

const v = (s: string) => parseRelease(s)!;

describe('rest:9.2 stability from a version string', () => {
  it('reads alpha, beta and stable; refuses the rest', () => {
    expect(stabilityOf('v1alpha1')).toBe('alpha');
    expect(stabilityOf('v2beta3')).toBe('beta');
    expect(stabilityOf('v1')).toBe('stable');
    expect(stabilityOf('v1.0')).toBeUndefined();
    expect(stabilityOf('1')).toBeUndefined();
    expect(parseVersion('v2beta3')).toEqual({ version: 'v2beta3', major: 2, level: 'beta', minor: 3 });
    expect(parseVersion('v0')).toBeUndefined();
    expect(judgeVersionName('batch/v1beta1')).toMatchObject({ clause: 'rest:9.2/beta', verdict: 'pass' });
    expect(judgeVersionName('x.io/v1alpha1')).toMatchObject({ clause: 'rest:9.2/alpha', verdict: 'pass' });
    expect(judgeVersionName('x.io/v1.0')).toMatchObject({ clause: 'rest:9.2/stable', verdict: 'fail' });
  });

  it('releases: v1.24, 1.25.3; not 1, v1.x', () => {
    expect(v('v1.24')).toEqual({ major: 1, minor: 24 });
    expect(v('1.25.3')).toEqual({ major: 1, minor: 25 });
    expect(parseRelease('1')).toBeUndefined();
    expect(parseRelease('v1.x')).toBeUndefined();
  });
});

describe('rest:9.4 removal table', () => {
  it('every row names a clause of the catalog, in both profiles', () => {
    for (const r of removals) expect(clauseById(r.clause), r.clause).toBeDefined();
    const rows = catalog
      .filter(
        (c) => c.section === '9.4' && !['rest:9.4/persisted-objects', 'rest:9.4/guidance', 'rest:9.4/client-libraries'].includes(c.id),
      )
      .map((c) => c.id);
    expect(new Set(removals.map((r) => r.clause))).toEqual(new Set(rows));
    expect(new Set(removals.map((r) => r.clause)).size).toBe(removals.length);
  });

  it('servedIn: deprecated before removal, removed from the removal release, both profiles', () => {
    for (const p of [profiles.svc, profiles.k8s]) {
      expect(servedIn(p, 'batch', 'v1beta1', 'cronjobs', v('1.24'))).toBe('deprecated');
      expect(servedIn(p, 'batch', 'v1beta1', 'cronjobs', v('1.25'))).toBe('removed');
      expect(servedIn(p, 'batch', 'v1', 'cronjobs', v('1.25'))).toBe('unlisted');
    }
    expect(servedIn(profiles.svc, 'storage.svc.io', 'v1beta1', 'csistoragecapacities', v('1.23'))).toBe('listed');
    expect(servedIn(profiles.svc, 'storage.svc.io', 'v1beta1', 'csistoragecapacities', v('1.24'))).toBe('deprecated');
    expect(servedIn(profiles.svc, 'storage.svc.io', 'v1beta1', 'storageclasses', v('1.24'))).toBe('removed');
    expect(servedIn(profiles.k8s, 'storage.k8s.io', 'v1beta1', 'csistoragecapacities', v('1.27'))).toBe('removed');
    expect(servedIn(profiles.k8s, 'storage.svc.io', 'v1beta1', 'csistoragecapacities', v('1.24'))).toBe('unlisted');
    expect(servedIn(profiles.svc, 'policy', 'v1beta1', 'podsecuritypolicies', v('1.24'))).toBe('listed');
    expect(groupName(profiles.k8s, removals.find((r) => r.kind === 'FlowSchema')!.group)).toBe('flowcontrol.apiserver.k8s.io');
  });

  it('every replacement is at least as stable as what it replaces (rule 3)', () => {
    const rank = { alpha: 0, beta: 1, stable: 2 };
    for (const r of removals)
      if (r.replacement) expect(rank[stabilityOf(r.replacement.version)!]).toBeGreaterThanOrEqual(rank[stabilityOf(r.version)!]);
  });
});

describe('rest:9.1.3 --runtime-config', () => {
  it('the three forms and the omitted value', () => {
    const r = parseRuntimeConfig('batch/v1beta1=false,policy/v1beta1,policy/v1beta1/poddisruptionbudgets=false,api/v1');
    expect(r).toEqual({
      ok: true,
      entries: [
        { group: 'batch', version: 'v1beta1', enabled: false },
        { group: 'policy', version: 'v1beta1', enabled: true },
        { group: 'policy', version: 'v1beta1', resource: 'poddisruptionbudgets', enabled: false },
        { group: '', version: 'v1', enabled: true },
      ],
    });
    if (!r.ok) throw new Error('unreachable');
    expect(runtimeConfigDecision(r.entries, 'batch', 'v1beta1', 'cronjobs', true)).toBe(false);
    expect(runtimeConfigDecision(r.entries, 'policy', 'v1beta1', 'poddisruptionbudgets', true)).toBe(false);
    expect(runtimeConfigDecision(r.entries, 'policy', 'v1beta1', 'podsecuritypolicies', false)).toBe(true);
    expect(groupVersionEnabled(r.entries, 'policy', 'v1beta1', ['poddisruptionbudgets'], true)).toBe(false);
  });

  it('bad items are refused with their position', () => {
    for (const bad of ['batch', 'batch/v1=maybe', 'a/b/c/d', 'batch//x', 'Batch/v1']) {
      const r = parseRuntimeConfig(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.errors[0]).toMatch(/^item 1/);
    }
  });
});
