// Why: a BOOKMARK's promise (rest:6.1, "all changes up to the carried metadata.resourceVersion were
// already sent") must be judged the same whenever the bookmark lands. Under CPU load the legal-variation
// run (associative-lists-reversed) read "rest:6.1/BOOKMARK: only 2 of 3 events before it" from the
// correct server: a bookmark sent between the synthetic ADDED of a Most Recent watch and an object
// created while watching was judged against the later start that stream also fits. The legal variation
// bookmark-after-state makes that landing certain instead of a matter of load (a bookmark right after the
// state, before the changes made while watching); an early bookmark must still fail.
import { describe, expect, it } from 'vitest';
import { errorsOf, failuresOf, runAgainst } from '../../scripts/dev/in-process-run.ts';

const SEED = 20261122;
const OFTEN_MS = 3;

describe.concurrent('bookmarks judged the same wherever they land (rest:6.1/BOOKMARK)', () => {
  it('a bookmark right after the state, then changes made while watching (bookmark-after-state), passes', async () => {
    const records = await runAgainst({
      checks: ['watch-bookmarks'],
      variations: ['bookmark-after-state'],
      runs: 40,
      seed: SEED,
      bookmarkIntervalMs: OFTEN_MS,
    });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records).map((f) => `${f.clause}: ${f.counterexample?.observed}`)).toEqual([]);
    // Bookmarks were sent and judged for what they owe, not only for their shape.
    expect(records.some((r) => r.clause === 'rest:6.1/BOOKMARK' && r.verdict === 'pass')).toBe(true);
  }, 300_000);

  it('a bookmark at the start revision sent before the synthetic ADDED (bookmark-before-state) fails', async () => {
    const records = await runAgainst({
      checks: ['watch-bookmarks'],
      faults: ['bookmark-before-state'],
      runs: 40,
      seed: SEED,
      bookmarkIntervalMs: OFTEN_MS,
    });
    expect(errorsOf(records)).toEqual([]);
    expect(failuresOf(records).map((f) => f.clause)).toContain('rest:6.1/BOOKMARK');
  }, 300_000);
});
