// Each rule of rest:9.3 with a case that must hold and one that must not: the model of the rules is
// only trusted once it is seen to say no.
import { describe, expect, it } from 'vitest';
import {
  apiVersionMayBeRemoved,
  behaviourMayStop,
  elementRemovalAllowed,
  gateMayTransition,
  mayAdvancePreferred,
  mayReplace,
  metricLifetime,
  metricMayBeRemoved,
  optionMayStopWorking,
} from '../../../../reference/versioning/rules.ts';
import { gateDefault, setGate } from '../../../../reference/versioning/feature-gates.ts';
import { deprecatedDescription, metricRegistered, metricVisibility } from '../../../../reference/versioning/metrics.ts';
import { windowOver } from '../../../../reference/versioning/windows.ts';
import { deriveTimeline, exampleIntroductions, exampleTimeline } from '../../../../reference/versioning/timeline.ts';

const r = (minor: number) => ({ major: 1, minor });

describe('rest:9.3 rules', () => {
  it('rule 1: removal needs a new group version (alpha annotations excepted)', () => {
    expect(elementRemovalAllowed({ fromVersion: 'v1beta1', toVersion: 'v1beta2' })).toBe(true);
    expect(elementRemovalAllowed({ fromVersion: 'v1', toVersion: 'v1' })).toBe(false);
    expect(elementRemovalAllowed({ fromVersion: 'v1', toVersion: 'v1', alphaAnnotation: true })).toBe(true);
  });

  it('rule 3: never deprecated in favour of a less stable version', () => {
    expect(mayReplace('beta', 'stable')).toBe(true);
    expect(mayReplace('alpha', 'beta')).toBe(true);
    expect(mayReplace('beta', 'beta')).toBe(true);
    expect(mayReplace('alpha', 'alpha')).toBe(true);
    expect(mayReplace('stable', 'beta')).toBe(false);
    expect(mayReplace('beta', 'alpha')).toBe(false);
    expect(mayReplace('stable', 'alpha')).toBe(false);
  });

  it('rule 4a: beta 9 months or 3 releases, whichever is longer; stable not within a major; alpha any time', () => {
    expect(apiVersionMayBeRemoved('beta', { releases: 3, months: 9 }, true)).toBe(true);
    expect(apiVersionMayBeRemoved('beta', { releases: 3, months: 8 }, true)).toBe(false);
    expect(apiVersionMayBeRemoved('beta', { releases: 2, months: 12 }, true)).toBe(false);
    expect(apiVersionMayBeRemoved('stable', { releases: 30, months: 120 }, true)).toBe(false);
    expect(apiVersionMayBeRemoved('stable', { releases: 1, months: 1 }, false)).toBe(true);
    expect(apiVersionMayBeRemoved('alpha', { releases: 0, months: 0 }, true)).toBe(true);
  });

  it('rule 4b: preferred advances only after a release served both', () => {
    const history = [
      { release: 0, served: ['v1beta1'] },
      { release: 1, served: ['v1beta1', 'v1beta2'] },
    ];
    expect(mayAdvancePreferred(history, 'v1beta1', 'v1beta2', 2)).toBe(true);
    expect(mayAdvancePreferred(history, 'v1beta1', 'v1beta2', 1)).toBe(false);
    expect(mayAdvancePreferred(history, 'v1beta1', 'v1', 2)).toBe(false);
  });

  it('rule 5a: user-facing options: GA 12 months or 2 releases, beta 3 months or 1 release, alpha 0', () => {
    expect(optionMayStopWorking('user', 'ga', { releases: 2, months: 12 })).toBe(true);
    expect(optionMayStopWorking('user', 'ga', { releases: 3, months: 11 })).toBe(false);
    expect(optionMayStopWorking('user', 'beta', { releases: 1, months: 3 })).toBe(true);
    expect(optionMayStopWorking('user', 'beta', { releases: 0, months: 6 })).toBe(false);
    expect(optionMayStopWorking('user', 'alpha', { releases: 0, months: 0 })).toBe(true);
  });

  it('rule 5b: admin-facing options: GA 6 months or 1 release', () => {
    expect(optionMayStopWorking('admin', 'ga', { releases: 1, months: 6 })).toBe(true);
    expect(optionMayStopWorking('admin', 'ga', { releases: 1, months: 5 })).toBe(false);
    expect(optionMayStopWorking('admin', 'beta', { releases: 1, months: 2 })).toBe(false);
    expect(optionMayStopWorking('admin', 'alpha', { releases: 0, months: 0 })).toBe(true);
  });

  it('rule 7: deprecated behaviours work at least a year', () => {
    expect(behaviourMayStop({ releases: 3, months: 12 })).toBe(true);
    expect(behaviourMayStop({ releases: 5, months: 11 })).toBe(false);
  });

  it('rule 8: feature-gate transitions', () => {
    expect(gateMayTransition('beta-to-ga', { releases: 2, months: 6 })).toBe(true);
    expect(gateMayTransition('beta-to-ga', { releases: 1, months: 8 })).toBe(false);
    expect(gateMayTransition('beta-to-end-of-life', { releases: 1, months: 3 })).toBe(true);
    expect(gateMayTransition('beta-to-end-of-life', { releases: 1, months: 2 })).toBe(false);
    expect(gateMayTransition('alpha-to-end-of-life', { releases: 0, months: 0 })).toBe(true);
  });

  it('rule 9 and the gate life cycle: defaults, a GA gate warns, disabling it fails, removed is refused', () => {
    expect(gateDefault('alpha')).toBe(false);
    expect(gateDefault('beta')).toBe(true);
    expect(setGate('alpha', true)).toMatchObject({ accepted: true, enabled: true, warns: false });
    expect(setGate('beta', false)).toMatchObject({ accepted: true, enabled: false });
    expect(setGate('ga', true)).toMatchObject({ accepted: true, warns: true });
    expect(setGate('ga', false).accepted).toBe(false);
    expect(setGate('removed', true).accepted).toBe(false);
  });

  it('rule 9a: STABLE metrics live 4 releases or 12 months; ALPHA 0', () => {
    expect(windowOver(metricLifetime('STABLE'), { releases: 4, months: 12 })).toBe(true);
    expect(windowOver(metricLifetime('STABLE'), { releases: 4, months: 11 })).toBe(false);
    expect(windowOver(metricLifetime('ALPHA'), { releases: 0, months: 0 })).toBe(true);
  });

  it('rule 9b: after deprecation STABLE 3 releases or 9 months; ALPHA 0', () => {
    expect(metricMayBeRemoved('STABLE', { releases: 3, months: 9 })).toBe(true);
    expect(metricMayBeRemoved('STABLE', { releases: 2, months: 9 })).toBe(false);
    expect(metricMayBeRemoved('ALPHA', { releases: 0, months: 0 })).toBe(true);
  });

  it('deprecated metrics: notice, hidden at current-3, shown by the option, deleted a release later', () => {
    expect(deprecatedDescription('requests', r(20))).toBe('(Deprecated from 1.20) requests');
    expect(metricVisibility(r(20), r(19))).toBe('active');
    expect(metricVisibility(r(20), r(22))).toBe('deprecated');
    expect(metricVisibility(r(20), r(23))).toBe('hidden');
    expect(metricVisibility(r(20), r(23), r(22))).toBe('shown-hidden');
    expect(metricVisibility(r(20), r(23), r(20))).toBe('hidden');
    expect(metricVisibility(r(20), r(24), r(23))).toBe('deleted');
    expect(metricRegistered('hidden')).toBe(false);
    expect(metricRegistered('shown-hidden')).toBe(true);
  });

  it('the example timeline follows from the rules', () => {
    expect(deriveTimeline(exampleIntroductions, 10)).toEqual(exampleTimeline);
  });

  it('a timeline that breaks rule 4b is not what the rules derive', () => {
    // Moving the preferred version to v1 in X+5 (the release that introduces it) would break rollback.
    const broken = exampleTimeline.map((t) => (t.release === 5 ? { ...t, preferred: 'v1' } : t));
    expect(deriveTimeline(exampleIntroductions, 10)).not.toEqual(broken);
    // Three releases are not enough when releases come every two months (9 months needed).
    const fast = deriveTimeline(exampleIntroductions, 10, 2);
    expect(fast.find((t) => t.release === 6)!.served).toContain('v1beta1');
  });
});
