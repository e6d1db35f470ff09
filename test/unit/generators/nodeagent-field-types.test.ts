// Contracts of the every-wrong-type case (generators/nodeagent-field-types.ts): it holds a file for every
// field whose Type column admits a wrong value, whatever the seed; each file breaks that field's type
// and nothing else the model rules on; the case shrinks to each file alone and no further.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import { profiles } from '../../../reference/profile.ts';
import { everyWrongTypeArb, wrongTypeCases } from '../../../generators/nodeagent-field-types.ts';
import { toYaml } from '../../../generators/nodeagent.ts';
import { configFields, nameIn, type FieldSpec } from '../../../reference/nodeagent/config-fields.ts';
import { validateNodeagentConfig } from '../../../reference/nodeagent/config.ts';

/** Every field path of the table, nested members and list items included (`reservedMemory[0].numaNode`). */
function fieldPaths(fields: readonly FieldSpec[], prefix: string, top: boolean, p: (typeof profiles)['svc']): string[] {
  return fields.flatMap((f) => {
    const path = `${prefix}${top ? nameIn(f, p) : f.name}`;
    const t = f.type;
    if (t.kind === 'object') return [path, ...fieldPaths(t.fields, `${path}.`, false, p)];
    if (t.kind === 'list' && t.of.kind === 'object') return [path, ...fieldPaths(t.of.fields, `${path}[0].`, false, p)];
    return [path];
  });
}

describe.each(['svc', 'k8s'] as const)('every wrong-type file (%s)', (name) => {
  const p = profiles[name];
  const cases = wrongTypeCases(p);

  it('the same list on every seed: no draw decides which field is judged', () => {
    const [a, b, c] = [1, 7, 4242].map((seed) => fc.sample(everyWrongTypeArb(p), { seed, numRuns: 1 })[0]);
    expect(a).toEqual(cases);
    expect(b).toEqual(cases);
    expect(c).toEqual(cases);
  });

  it('covers every field of 2.2-2.4, the ones 2.5 shows no values for among them', () => {
    const covered = new Set(cases.map((c) => c.violation!.what.replace(/: wrong type .*$/, '')));
    expect(fieldPaths(configFields, '', true, p).filter((f) => !covered.has(f))).toEqual([]);
    for (const f of ['hairpinMode', 'cpuCFSQuotaPeriod', 'evictionHard', 'enforceNodeAllocatable', 'allowedUnsafeSysctls'])
      expect(covered.has(f), f).toBe(true);
  });

  it("each file breaks its field's type alone, under that field's clause, and reads back as written", () => {
    for (const c of cases) {
      const errors = validateNodeagentConfig(c.doc, p).errors;
      expect(errors.length, c.violation!.what).toBeGreaterThan(0);
      expect(new Set(errors.map((e) => e.clause)), c.violation!.what).toEqual(new Set([c.violation!.clause]));
      // Nothing but the type rule refuses it: with that rule left out the model finds no error.
      expect(validateNodeagentConfig(c.doc, p, { skip: new Set(['type']) }).errors, c.violation!.what).toEqual([]);
      expect(parse(toYaml(c.doc), { version: '1.1' })).toEqual(c.doc);
    }
  });

  it('shrinks to each file alone, and a file alone does not shrink', () => {
    const arb = everyWrongTypeArb(p);
    const all = fc.sample(arb, { seed: 3, numRuns: 1 })[0]!;
    const shrunk = [...arb.shrink(all, undefined)].map((v) => v.value);
    expect(shrunk).toEqual(cases.map((c) => [c]));
    expect([...arb.shrink(shrunk[0]!, undefined)]).toEqual([]);
  });
});
