// Why: `compare` must say nothing differs between two clean servers, must list a planted
// fault's clause as target-violates (exit 1) for one fault of each area it covers, and must keep a
// legal variation an open choice (exit 0; exit 1 only under --strict).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCompare, type SideOptions } from '../../../scripts/compare-cli.ts';
import { faults } from '../../../targets/api-server/index.ts';
import { compareJsonSchema } from '../../../reports/compare-schema.ts';

const clean: SideOptions = { profile: 'svc' };
const dir = () => mkdtempSync(path.join(tmpdir(), 'compare-'));

describe('svc-conformance compare (two embedded servers)', () => {
  it('finds no divergence between two clean servers and exits 0', async () => {
    const { result, exitCode, files } = await runCompare({
      target: clean,
      reference: clean,
      seed: 21,
      runs: 4,
      reports: dir(),
      strict: true,
    });
    expect(result.divergences).toEqual([]);
    expect(result.totals.same).toBeGreaterThan(100);
    expect(exitCode).toBe(0);
    const json = JSON.parse(readFileSync(files[0]!, 'utf8')) as Record<string, unknown>;
    for (const k of compareJsonSchema.required) expect(json).toHaveProperty(k);
    expect(readFileSync(files[2]!, 'utf8')).toContain('Same: every compared step answered alike');
  }, 240_000);

  for (const [fault, check] of [
    ['page-overflow', 'paging-snapshot'],
    ['watch-drop-events', 'watch-cell-unset'],
    ['apply-conflicts-forced', 'apply-sequences'],
    ['dry-run-persists', 'dry-run-sequences'],
  ] as const) {
    it(`lists ${fault}'s clause as target-violates and exits 1`, async () => {
      const clause = faults.find((f) => f.name === fault)!.clause;
      const { result, exitCode } = await runCompare({
        target: { ...clean, fault: [fault] },
        reference: clean,
        seed: 21,
        runs: 10,
        check: [check],
        reports: dir(),
        strict: false,
      });
      const violating = result.divergences.filter((d) => d.class === 'target-violates');
      expect(violating.flatMap((d) => d.clauses)).toContain(clause);
      expect(result.totals['reference-violates']).toBe(0);
      expect(violating[0]!.replay).toContain(`--check ${check} --seed 21 --path `);
      expect(exitCode).toBe(1);
      if (fault === 'page-overflow') {
        // The printed replay runs that one case again, and it fails alike.
        const one = violating[0]!;
        const again = await runCompare({
          target: { ...clean, fault: [fault] },
          reference: clean,
          seed: 21,
          runs: 10,
          check: [check],
          path: one.path,
          reports: dir(),
          strict: false,
        });
        expect(again.result.checks[0]!.cases).toBe(1);
        expect(again.result.divergences.filter((d) => d.class === 'target-violates').flatMap((d) => d.clauses)).toEqual(
          expect.arrayContaining([...one.clauses]),
        );
      }
    }, 120_000);
  }

  it("the other way round the fault is the reference's", async () => {
    const { result, exitCode } = await runCompare({
      target: clean,
      reference: { ...clean, fault: ['dry-run-persists'] },
      seed: 21,
      runs: 10,
      check: ['dry-run-sequences'],
      reports: dir(),
      strict: false,
    });
    expect(result.totals['reference-violates']).toBeGreaterThan(0);
    expect(result.totals['target-violates']).toBe(0);
    expect(exitCode).toBe(0);
  }, 120_000);

  it('keeps a legal variation an open choice: exit 0, and 1 under --strict', async () => {
    const o = {
      target: { ...clean, variation: ['short-pages'] },
      reference: clean,
      seed: 21,
      runs: 10,
      check: ['paging-snapshot'],
      reports: dir(),
    };
    const lax = await runCompare({ ...o, strict: false });
    expect(lax.result.totals['target-violates']).toBe(0);
    expect(lax.result.totals['differs-both-conformant']).toBeGreaterThan(0);
    expect(lax.exitCode).toBe(0);
    const strict = await runCompare({ ...o, strict: true });
    expect(strict.exitCode).toBe(1);
  }, 120_000);

  it('works across profiles: an svc server against a k8s one differs in names only, so nothing differs', async () => {
    const { result, exitCode } = await runCompare({
      target: clean,
      reference: { profile: 'k8s' },
      seed: 21,
      runs: 3,
      check: ['crud-sequences', 'watch-cell-unset', 'apply-points', 'dry-run-sequences', 'generated-names'],
      reports: dir(),
      strict: true,
    });
    expect(result.divergences).toEqual([]);
    expect(result.reference.profile).toBe('k8s');
    expect(exitCode).toBe(0);
  }, 120_000);

  it('refuses an unknown fault in one line (a configuration error)', async () => {
    await expect(
      runCompare({ target: { ...clean, fault: ['no-such-fault'] }, reference: clean, runs: 1, reports: dir(), strict: false }),
    ).rejects.toThrow(/--fault: unknown no-such-fault/);
  });
});
