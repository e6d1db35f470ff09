/**
 * What the capability map does to a run: each feature not served becomes one record under
 * the clause that speaks of it (a failure where the spec requires the feature, `notServed` where it
 * lets a server leave it out), and every selected check that needs such a feature is not run: its
 * clauses are recorded `blocked by` the feature, so the long waits of a check whose premise the target
 * lacks (a watch that never delivers, a list that never pages) are never spent. Which check needs which
 * feature is data next to the checks (suites/checks/feature-needs.ts).
 */
import { failsWhenNotServed, featureById, notServedOf, type FeatureFinding, type FeatureId } from '../reference/features.ts';
import type { AnyCheck } from '../harness/case/index.ts';
import { featureNeedsOf } from '../suites/checks/feature-needs.ts';
import type { ProbedFinding } from '../harness/interpreters/index.ts';
import { probeCounterexample, type ProbeRunFacts } from './probe-counterexample.ts';
import type { CapabilityEntry, CheckRecord } from './results.ts';

/** The name the map's own records carry where a check's name would be. */
export const PROBE_CHECK = 'capability-probe';

export interface CapabilityGate {
  /** The selected checks that still run. */
  readonly run: readonly AnyCheck[];
  /** The records of the map's findings and of the checks not run. */
  readonly records: readonly CheckRecord[];
  readonly entries: readonly CapabilityEntry[];
}

export const notServedNote = (f: FeatureFinding): string => `not served: ${featureById(f.feature).title} (${f.evidence})`;
export const blockedNote = (feature: FeatureId): string =>
  `blocked by ${featureById(feature).title}: not served (${featureById(feature).clause})`;

/**
 * Splits the selection by the map. A finding is recorded only where the selection speaks of it (its
 * clause is one of a selected check's, or it blocks one): a run of the health checks says nothing of
 * PUT. A finding that fails its clause carries the counterexample of the requests that showed it
 * (`facts` absent: without one).
 */
export function gateChecks(selected: readonly AnyCheck[], map: readonly ProbedFinding[], facts?: ProbeRunFacts): CapabilityGate {
  const absent = new Set(notServedOf(map));
  const blockedBy = new Map<string, FeatureId>();
  for (const c of selected) {
    const need = featureNeedsOf(c.id).find((f) => absent.has(f));
    if (need !== undefined) blockedBy.set(c.id, need);
  }
  const run = selected.filter((c) => !blockedBy.has(c.id));
  const records: CheckRecord[] = [];
  for (const c of selected) {
    const feature = blockedBy.get(c.id);
    if (feature === undefined) continue;
    for (const clause of c.clauses) records.push({ clause, check: c.id, verdict: 'blocked', count: 0, note: blockedNote(feature) });
  }
  const spoken = new Set(selected.flatMap((c) => c.clauses));
  const entries: CapabilityEntry[] = map.map(({ reproduction: _kept, ...f }) => {
    const feature = featureById(f.feature);
    const blocks = [...blockedBy].filter(([, x]) => x === f.feature).map(([id]) => id);
    return { ...f, area: feature.area, title: feature.title, clause: feature.clause, required: feature.required, blocks };
  });
  entries.forEach((e, i) => {
    if (e.state !== 'notServed' || (!spoken.has(e.clause as AnyCheck['clauses'][number]) && e.blocks.length === 0)) return;
    const fails = failsWhenNotServed(featureById(e.feature));
    const note = notServedNote(e);
    const cx = fails && facts !== undefined ? probeCounterexample(map[i]!, note, facts) : undefined;
    records.push({
      clause: featureById(e.feature).clause,
      check: PROBE_CHECK,
      verdict: fails ? 'fail' : 'notServed',
      count: 1,
      note,
      counterexample: cx,
    });
  });
  return { run, records, entries };
}
