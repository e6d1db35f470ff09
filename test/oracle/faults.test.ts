// The oracle must bite (issue: "Done means"): every planted fault of the reference server is reported
// as a failure of the clause it breaks, with a short shrunk counterexample; the correct server and
// every legal variation pass. A suite that only ever passes proves nothing.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from './run-against.ts';
import type { FaultName } from '../../targets/api-server/faults.ts';
import { variations } from '../../targets/api-server/variations.ts';
import { checks } from '../../suites/checks/index.ts';

const SEED = 20261122;
const MAX_SHRUNK_REQUESTS = 30;

// fault -> the checks that should catch it -> the clauses a correct report may name.
const table: [FaultName, string[], string[]][] = [
  ['ignore-exact', ['rv-cell-list-exact-no-limit-other', 'rv-cell-list-unset-limit-other'], ['rest:4.5/list/exact/no-limit/other', 'rest:4.5/list/unset/limit/other']],
  ['page-rv-drift', ['paging-snapshot'], ['rest:4.4.3']],
  ['remaining-with-selector', ['paging-snapshot'], ['rest:4.4.6']],
  ['continue-on-last-page', ['paging-snapshot'], ['rest:2.3/metadata.continue']],
  ['accept-400-cell', ['rv-cell-list-unset-limit-continue-other'], ['rest:4.5/list/unset/limit-continue/other']],
  ['duplicate-create-overwrites', ['crud-sequences'], ['rest:2.2.2']],
  ['stale-not-older-than', ['rv-cell-list-unset-no-limit-other'], ['rest:4.5/list/unset/no-limit/other']],
  ['continue-never-expires', ['continue-token-expiry'], ['rest:4.4.4', 'rest:7/410']],
  ['wrong-list-kind', ['crud-sequences'], ['rest:2.4.1']],
  ['too-large-without-text', ['too-large-resource-version'], ['rest:7.2']],
  ['uid-changes-on-update', ['crud-sequences'], ['rest:2.3/metadata.uid']],
  ['remaining-off-by-one', ['paging-snapshot'], ['rest:4.4.6']],
  ['page-overflow', ['paging-snapshot'], ['rest:4.4.1']],
  ['namespace-delete-keeps-objects', ['names-and-scope'], ['rest:2.2.4']],
  ['invalid-cell-accepted', ['rv-cell-list-exact-no-limit-unset'], ['rest:4.5/list/exact/no-limit/unset']],
  ['continuation-sees-new-writes', ['paging-snapshot'], ['rest:4.4.3']],
  ['rv-unchanged-on-update', ['crud-sequences'], ['rest:2.3/metadata.resourceVersion']],
  ['generate-name-collides', ['generated-names'], ['rest:2.3/metadata.name']],
  ['exact-410-too-early', ['rv-cell-list-exact-no-limit-other'], ['rest:6.1.4', 'rest:4.5/list/exact/no-limit/other']],
];

describe('planted faults are caught by the right clause', () => {
  it.each(table)('%s', async (fault, checkIds, clauses) => {
    const records = await runAgainst({ checks: checkIds, faults: [fault], runs: 40, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    const fails = failuresOf(records);
    expect(fails.map((f) => f.clause)).not.toEqual([]);
    expect(fails.some((f) => clauses.includes(f.clause)), `reported ${fails.map((f) => f.clause).join(', ')}`).toBe(true);
    for (const f of fails) {
      const c = f.counterexample!;
      expect(c.requestCount).toBeGreaterThan(0);
      expect(c.requestCount).toBeLessThanOrEqual(MAX_SHRUNK_REQUESTS);
      expect(c.curl).toContain('curl');
      expect(c.replay).toContain(`--seed ${c.seed}`);
      expect(c.steps.length).toBeGreaterThan(0);
    }
  }, 120_000);
});

describe('correct behaviour passes', () => {
  const all = checks.map((c) => c.id);

  it('the reference server passes every check, and every check exercises its clauses', async () => {
    const records = await runAgainst({ checks: all, runs: 15, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records)).toEqual([]);
    const passed = new Set(records.filter((r) => r.verdict === 'pass').map((r) => r.clause));
    const neverPassed = checks.flatMap((c) => c.clauses.filter((clause) => !passed.has(clause)).map((clause) => `${c.id}: ${clause}`));
    expect(neverPassed).toEqual([]);
  }, 300_000);

  it.each(variations.map((v) => [v.name]))('legal variation %s is not flagged', async (variation) => {
    const records = await runAgainst({ checks: all, variations: [variation as never], runs: 6, seed: SEED });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
  }, 300_000);
});
