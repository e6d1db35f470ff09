/**
 * The plan of `compare` (runner/compare-plan.ts) finds every option mistake before a server starts or
 * a file is read, and selects the checks compared, as planRun does for `run`.
 */
import { describe, expect, it } from 'vitest';
import { defaultCompareChecks, LEFT_OUT, planCompare, type SideOptions } from '../../runner/compare-plan.ts';

const clean: SideOptions = { profile: 'svc' };
const errorsOf = (o: Partial<Parameters<typeof planCompare>[0]>) => planCompare({ target: clean, reference: clean, ...o }).errors ?? [];

describe('planCompare', () => {
  it('selects the default checks, none of those left out, and embedded sides', () => {
    const { plan } = planCompare({ target: clean, reference: { ...clean, variation: ['opaque-rv'] } });
    expect(plan?.selected).toEqual(defaultCompareChecks());
    expect(plan?.selected.some((id) => LEFT_OUT[id] !== undefined)).toBe(false);
    expect(plan?.sides).toEqual([
      { external: false, faults: [], variations: [] },
      { external: false, faults: [], variations: ['opaque-rv'] },
    ]);
  });

  it('refuses each mistake with the line the command prints, in the order it checks them', () => {
    expect(errorsOf({ path: '3' })).toEqual(['--path replays one case: give it with the --seed and the one --check it was printed with']);
    expect(errorsOf({ path: '3:1', seed: 1, check: ['crud-sequences'] })).toEqual(["--path 3:1: compare's paths are case numbers (0, 1, ...), as its reports print them"]);
    expect(errorsOf({ check: ['crud-sequence'] })[0]).toMatch(/^unknown check crud-sequence; did you mean crud-sequences\?/);
    expect(errorsOf({ suite: ['rest-wach'] })[0]).toMatch(/^unknown suite rest-wach; did you mean rest-watch\?/);
    expect(errorsOf({ target: { ...clean, fault: ['nope'] } })[0]).toMatch(/^--fault: unknown nope; known: /);
    expect(errorsOf({ reference: { ...clean, variation: ['nope'] } })[0]).toMatch(/^--reference-variation: unknown nope; known: /);
    expect(errorsOf({ reference: { ...clean, server: 'https://x', fault: ['ignore-exact'] } })).toEqual(['--reference-fault and --reference-variation apply to an embedded server only']);
    expect(errorsOf({ check: ['nope'], target: { ...clean, fault: ['nope'] } }).map((e) => e.split(' ')[0])).toEqual(['unknown', '--fault:']);
  });
});
