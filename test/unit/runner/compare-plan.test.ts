/**
 * The plan of `compare` (runner/compare-plan.ts) finds every option mistake before a server starts or
 * a file is read, and selects the checks compared, as planRun does for `run`.
 */
import { describe, expect, it } from 'vitest';
import { defaultCompareChecks, LEFT_OUT, planCompare, type SideOptions } from '../../../runner/compare-plan.ts';

const clean: SideOptions = { profile: 'svc' };
const drawn = { seed: 7, runIds: ['aaaa1111', 'bbbb2222'] } as const;
const base = { target: clean, reference: clean, runs: 8, reports: 'results', strict: false };
const errorsOf = (o: Partial<Parameters<typeof planCompare>[0]>) => planCompare({ ...base, ...o }, drawn).errors ?? [];

describe('planCompare', () => {
  it('selects the default checks, none of those left out, and embedded sides', () => {
    const { plan } = planCompare({ ...base, reference: { ...clean, variation: ['opaque-rv'] } }, drawn);
    expect(plan?.selected).toEqual(defaultCompareChecks());
    expect(plan?.selected.some((id) => LEFT_OUT[id] !== undefined)).toBe(false);
    expect(plan?.sides.map(({ external, faults, variations, runId, label }) => ({ external, faults, variations, runId, label }))).toEqual([
      { external: false, faults: [], variations: [], runId: 'aaaa1111', label: 'embedded reference server' },
      {
        external: false,
        faults: [],
        variations: ['opaque-rv'],
        runId: 'bbbb2222',
        label: 'embedded reference server (variation opaque-rv)',
      },
    ]);
    expect(plan?.seed).toBe(7);
  });

  it("describes each side as a run plan's target, with the windows both share", () => {
    const embedded = planCompare(base, drawn).plan!;
    expect(embedded.sides[0].target).toEqual({ kind: 'embedded', faults: [], variations: [], continueTtlMs: 1500, historyWindowMs: 3000 });
    expect(embedded.settings.eventualWindowMs).toBe(5_000);
    // One external side gives both the external windows: the embedded server waits as long as the other.
    const mixed = planCompare({ ...base, reference: { profile: 'k8s', server: 'https://x', tokenFile: 't' }, seed: 3 }, drawn).plan!;
    expect(mixed.sides[1]).toMatchObject({
      which: 'reference',
      flag: '--reference-',
      external: true,
      target: { kind: 'external', server: 'https://x', tokenFile: 't', hooks: {} },
    });
    expect(mixed.sides[1].profile.name).toBe('k8s');
    expect(mixed.sides[1].label).toBeUndefined();
    expect(mixed.sides[0].target).toMatchObject({
      kind: 'embedded',
      continueTtlMs: mixed.settings.continueTtlMs,
      historyWindowMs: mixed.settings.historyWindowMs,
    });
    expect(mixed.settings.continueTtlMs).toBeGreaterThan(1500);
    expect(mixed.settings.eventualWindowMs).toBe(10_000);
    expect(mixed.seed).toBe(3);
  });

  it('refuses each mistake with the line the command prints, in the order it checks them', () => {
    expect(errorsOf({ path: '3' })).toEqual(['--path replays one case: give it with the --seed and the one --check it was printed with']);
    expect(errorsOf({ path: '3:1', seed: 1, check: ['crud-sequences'] })).toEqual([
      "--path 3:1: compare's paths are case numbers (0, 1, ...), as its reports print them",
    ]);
    expect(errorsOf({ check: ['crud-sequence'] })[0]).toMatch(/^unknown check crud-sequence; did you mean crud-sequences\?/);
    expect(errorsOf({ suite: ['rest-wach'] })[0]).toMatch(/^unknown suite rest-wach; did you mean rest-watch\?/);
    expect(errorsOf({ target: { ...clean, fault: ['nope'] } })[0]).toMatch(/^--fault: unknown nope; known: /);
    expect(errorsOf({ reference: { ...clean, variation: ['nope'] } })[0]).toMatch(/^--reference-variation: unknown nope; known: /);
    expect(errorsOf({ reference: { ...clean, server: 'https://x', fault: ['ignore-exact'] } })).toEqual([
      '--reference-fault and --reference-variation apply to an embedded server only',
    ]);
    expect(errorsOf({ check: ['nope'], target: { ...clean, fault: ['nope'] } }).map((e) => e.split(' ')[0])).toEqual([
      'unknown',
      '--fault:',
    ]);
  });
});
