// The scale profile is off by default (its checks say why they did not run), only `nightly` can be
// named on the command line, and its namespace families really prefix one another (ns-1, ns-10, ns-100).
import { describe, expect, it } from 'vitest';
import { prefixNamespaceNames, scaleProfileByName, scaleProfiles } from '../../../harness/case/scale.ts';
import { checks } from '../../../suites/checks/index.ts';
import { defaultTargetSettings } from '../../../runner/env.ts';
import type { CheckEnv } from '../../../harness/case/index.ts';
import { SCALE_SELFTEST_WINDOW_MS } from '../../../scripts/dev/in-process-run.ts';

describe('the scale profile', () => {
  it("is named nightly on the command line; the self-tests' one is not selectable", () => {
    expect(scaleProfileByName('nightly')).toBe(scaleProfiles.nightly);
    expect(scaleProfileByName('selftest')).toBeUndefined();
    expect(scaleProfileByName('huge')).toBeUndefined();
  });

  it('nightly means thousands of objects and a chain of hundreds of pages', () => {
    const p = scaleProfiles.nightly;
    expect(p.objects).toBeGreaterThanOrEqual(1000);
    expect(p.objects / p.pageLimit).toBeGreaterThanOrEqual(100);
  });

  it("gives namespace families whose names prefix one another and never another family's", () => {
    const fams = prefixNamespaceNames('svc-conformance-x-1', { namespaceRoots: 2, namespaceDepth: 3 });
    expect(fams).toEqual([
      ['svc-conformance-x-1-1', 'svc-conformance-x-1-10', 'svc-conformance-x-1-100'],
      ['svc-conformance-x-1-2', 'svc-conformance-x-1-20', 'svc-conformance-x-1-200'],
    ]);
  });

  it('its checks are not checked without --scale, with the reason', () => {
    const env = { settings: defaultTargetSettings } as CheckEnv;
    const scale = checks.filter((c) => c.suite === 'rest-scale');
    expect(scale.map((c) => c.id).sort()).toEqual(['scale-large-objects', 'scale-namespace-prefixes', 'scale-page-chain']);
    for (const c of scale) expect(c.applicable?.(env)).toMatch(/--scale nightly/);
    for (const c of scale)
      expect(c.applicable?.({ ...env, settings: { ...defaultTargetSettings, scale: scaleProfiles.nightly } })).toBeUndefined();
  });

  it("the self-tests' chains are never cut by their own slowness: the token lifetime outlasts the longest oracle case (10 minutes)", () => {
    // A 410 within the lifetime fails rest:4.4.4; past it the chain ends legally before the page a
    // planted drift shows at, so a window shorter than a loaded case's run hides the fault.
    expect(SCALE_SELFTEST_WINDOW_MS).toBeGreaterThan(10 * 60_000);
  });
});
