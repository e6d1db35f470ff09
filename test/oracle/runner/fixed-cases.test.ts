// The fixed API cases and the checks' fixed examples against the reference server: each fixed check
// judges the input it exists for (its records say so) and passes on the correct server; a planted fault
// of that input is caught on every seed with one case per check (the random properties caught it on some
// seeds only at a small budget); and a failure found in a fixed example replays from its seed and path
// (the path counts the examples first).
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../../scripts/dev/in-process-run.ts';
import {
  bareDryRunCase,
  emptiedListCase,
  jsonReplaceMissingCase,
  prettyBareDryRunCase,
  selectorPagingCases,
} from '../../../generators/rest-edges.ts';

const FIXED = [
  'dry-run-edges-bare-flag',
  'dry-run-edges-bare-flag-pretty',
  ...selectorPagingCases.map((c) => `paging-edges-selector-${c.cell.replace('rest:4.5/list/', '').replaceAll('/', '-')}`),
  'apply-edges-json-replace-missing',
  'apply-edges-empties-list',
  'too-large-edges-list-exact',
  'too-large-edges-list-limit',
];

describe('fixed API cases against the reference server', () => {
  it('pass, each judging its input under the clauses it decides', async () => {
    const records = await runAgainst({ checks: FIXED, runs: 1, seed: 3 });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records)).toEqual([]);
    const judged = (check: string, clause: string, input: string) =>
      records.some((r) => r.check === check && r.clause === clause && r.verdict === 'pass' && (r.inputs?.[input] ?? 0) > 0);
    for (const clause of bareDryRunCase.decides) expect(judged('dry-run-edges-bare-flag', clause, 'bare-dryrun'), clause).toBe(true);
    for (const clause of prettyBareDryRunCase.decides)
      expect(judged('dry-run-edges-bare-flag-pretty', clause, 'bare-dryrun'), clause).toBe(true);
    for (const clause of jsonReplaceMissingCase.decides)
      expect(judged('apply-edges-json-replace-missing', clause, 'json-patch-replace-missing-member'), clause).toBe(true);
    for (const clause of emptiedListCase.decides)
      expect(judged('apply-edges-empties-list', clause, 'apply-empties-list'), clause).toBe(true);
    expect(judged('paging-edges-selector-unset-limit-unset', 'rest:4.4.3', 'paged-selector-list')).toBe(true);
    expect(judged('paging-edges-selector-exact-limit-other', 'rest:4.5/list/exact/limit/other', 'paged-selector-list')).toBe(true);
  }, 120_000);

  it.each([
    ['dry-run-rejects-bare-flag', 'dry-run-edges-bare-flag', 'rest:4.6.1'],
    // dryRun=All&pretty=true in the sequences' fixed example (a bare flag's persistence is open).
    ['dry-run-ignored-with-pretty', 'dry-run-sequences', 'rest:4.6.2'],
  ] as const)(
    'fault %s is caught by %s on every seed with one random case',
    async (fault, check, clause) => {
      for (const seed of [1, 2]) {
        const fails = failuresOf(await runAgainst({ checks: [check], faults: [fault], runs: 1, seed }));
        expect(
          fails.map((f) => f.clause),
          `seed ${seed}`,
        ).toContain(clause);
      }
    },
    120_000,
  );

  it('a failure of a fixed example replays from its seed and path alone', async () => {
    // One random case besides the example: the 406 the fault drops is in the example's requests.
    const first = failuresOf(
      await runAgainst({ checks: ['negotiation-accept-lists'], faults: ['406-replaced-by-json'], runs: 1, seed: 11 }),
    ).find((f) => f.clause === 'rest:4.8/unsupported');
    expect(first).toBeDefined();
    const c = first!.counterexample!;
    // Case 0: the example, which comes before the random case.
    expect(c.path!.split(':')[0]).toBe('0');
    const again = failuresOf(
      await runAgainst({ checks: ['negotiation-accept-lists'], faults: ['406-replaced-by-json'], runs: 1, seed: c.seed, path: c.path! }),
    );
    expect(again.map((f) => f.clause)).toContain('rest:4.8/unsupported');
    expect(again.find((f) => f.clause === 'rest:4.8/unsupported')!.counterexample!.steps).toEqual(c.steps);
  }, 120_000);
});
