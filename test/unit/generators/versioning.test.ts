// Generator contracts (docs/architecture.md "Generation apart from execution") for the versioning, health and events arbitraries, and the
// runtime-config model against random strings: valid ones always parse to a last-word-wins decision,
// invalid ones never parse.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  badRuntimeConfigItemArb,
  eventCaseArb,
  healthCaseArb,
  runtimeConfigArb,
  runtimeConfigItemArb,
  showRuntimeConfigItem,
} from '../../../generators/versioning.ts';
import { parseRuntimeConfig, runtimeConfigDecision } from '../../../reference/versioning/runtime-config.ts';
import { validateEventV1Create } from '../../../reference/events-v1.ts';
import { eventBody } from '../../../suites/checks/events-v1.ts';

describe('versioning generators', () => {
  it('are deterministic for a seed', () => {
    for (const arb of [healthCaseArb, eventCaseArb, runtimeConfigArb] as fc.Arbitrary<unknown>[]) {
      expect(fc.sample(arb, { seed: 7, numRuns: 5 })).toEqual(fc.sample(arb, { seed: 7, numRuns: 5 }));
    }
  });

  it('generated runtime-config strings parse, and the last word (resource before group version) decides', () => {
    fc.assert(
      fc.property(runtimeConfigArb, runtimeConfigItemArb, fc.boolean(), (items, probe, byDefault) => {
        const r = parseRuntimeConfig(items.map(showRuntimeConfigItem).join(','));
        if (!r.ok) return false;
        const group = probe.group === 'api' ? '' : probe.group;
        const resource = probe.resource ?? 'cronjobs';
        const naming = (i: (typeof items)[number]) => i.group === probe.group && i.version === probe.version;
        const own = [...items].reverse().find((i) => naming(i) && i.resource === resource);
        const whole = [...items].reverse().find((i) => naming(i) && i.resource === undefined);
        const last = own ?? whole;
        const expected = last === undefined ? byDefault : last.value !== 'false';
        return runtimeConfigDecision(r.entries, group, probe.version, resource, byDefault) === expected;
      }),
      { numRuns: 300 },
    );
  });

  it('one bad item anywhere makes the whole list refused', () => {
    fc.assert(
      fc.property(runtimeConfigArb, badRuntimeConfigItemArb, fc.nat(), (items, bad, at) => {
        const list = items.map(showRuntimeConfigItem);
        list.splice(at % (list.length + 1), 0, bad);
        return !parseRuntimeConfig(list.join(',')).ok;
      }),
      { numRuns: 200 },
    );
  });

  it('event cases break exactly the rules they say they break', () => {
    fc.assert(
      fc.property(eventCaseArb, (c) => {
        const errors = validateEventV1Create(eventBody(c, { apiVersion: 'events.svc.io/v1', namespace: 'n', labels: {}, nowMs: 0 }));
        const typeOk = c.type === 'Normal' || c.type === 'Warning';
        expect(errors.filter((e) => e.clause === 'rest:6.2/type').length).toBe(typeOk ? 0 : 1);
        expect(
          errors
            .filter((e) => e.clause === 'rest:6.2/required')
            .map((e) => e.field)
            .sort(),
        ).toEqual([...c.drop].sort());
        expect(
          errors
            .filter((e) => e.clause === 'rest:6.2/deprecated-fields')
            .map((e) => e.field)
            .sort(),
        ).toEqual([...c.deprecated].sort());
      }),
      { numRuns: 200 },
    );
  });
});
