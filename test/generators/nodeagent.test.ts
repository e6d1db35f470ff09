// Generator contracts (STYLE.md practice 8) for node-agent files: deterministic per seed; valid files
// always accepted by the model with nothing open; invalid files always break the rule they name; the
// YAML written reads back as the same document; shrinking removes fields.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import { profiles } from '../../reference/profile.ts';
import { invalidConfigArb, openConfigArb, toYaml, validConfigArb, violations } from '../../generators/nodeagent.ts';
import { credentialConfigArb, invalidCredentialConfigArb } from '../../generators/nodeagent-credentials.ts';
import { validateNodeagentConfig } from '../../reference/nodeagent/config.ts';
import { validateCredentialProviderConfig } from '../../reference/nodeagent/credential-provider.ts';
import { crossRules } from '../../reference/nodeagent/config-rules.ts';

describe.each(['svc', 'k8s'] as const)('node-agent config generators (%s)', (name) => {
  const p = profiles[name];

  it('are deterministic for a seed', () => {
    expect(fc.sample(invalidConfigArb(p), { seed: 9, numRuns: 5 })).toEqual(fc.sample(invalidConfigArb(p), { seed: 9, numRuns: 5 }));
  });

  it('valid files: accepted with nothing open, and the YAML reads back the same', () => {
    fc.assert(fc.property(validConfigArb(p), ({ doc }) => {
      const r = validateNodeagentConfig(doc, p);
      expect(r.errors).toEqual([]);
      expect(r.unspecified).toEqual([]);
      expect(parse(toYaml(doc), { version: '1.1' })).toEqual(doc);
    }), { numRuns: 150, seed: 1 });
  });

  it('invalid files: rejected under the clause of the planted violation', () => {
    fc.assert(fc.property(invalidConfigArb(p), ({ doc, violation }) => {
      expect(validateNodeagentConfig(doc, p).errors.map((e) => e.clause)).toContain(violation!.clause);
      expect(parse(toYaml(doc), { version: '1.1' })).toEqual(doc);
    }), { numRuns: 150, seed: 2 });
  });

  it('open files: no error, something unspecified', () => {
    fc.assert(fc.property(openConfigArb(p), ({ doc }) => {
      const r = validateNodeagentConfig(doc, p);
      expect(r.errors).toEqual([]);
      expect(r.unspecified.length).toBeGreaterThan(0);
    }), { numRuns: 150, seed: 6 });
  });

  it('plant every cross-field rule that can be broken, every range edge and the document rules', () => {
    const v = violations(p);
    const clauses = new Set(v.map((x) => validateNodeagentConfig({ apiVersion: `${p.nodeagentGroup}/v1beta1`, kind: p.nodeagentConfigurationKind, reservedSystemCPUs: '', ...x.overlay }, p).errors[0]?.clause));
    for (const r of crossRules.filter((x) => x.breaks.length > 0)) expect(clauses).toContain(r.clause);
    for (const c of ['node:2.2/kind', 'node:2.2/port', 'node:2.2/oomScoreAdj', 'node:2.2/memorySwap', 'node:2.4/LoggingConfiguration.verbosity']) expect(clauses).toContain(c);
    expect(v.filter((x) => x.category === 'rule').length).toBeGreaterThan(30);
  });

  it('shrinking a failing valid file leaves only the field that fails', () => {
    const out = fc.check(fc.property(validConfigArb(p), ({ doc }) => !('maxPods' in doc)), { seed: 3, numRuns: 500 });
    expect(out.failed).toBe(true);
    // At most one more field: a cross-field combination (podsPerCore with maxPods) shrinks as a whole.
    const keys = Object.keys(out.counterexample![0].doc);
    expect(keys).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'maxPods', 'reservedSystemCPUs']));
    expect(keys.length).toBeLessThanOrEqual(5);
  });
});

describe('credential-provider generators', () => {
  const p = profiles.svc;
  it('valid files have no errors; invalid ones break the rule they name', () => {
    fc.assert(fc.property(credentialConfigArb(p), ({ doc }) => {
      expect(validateCredentialProviderConfig(doc, p).errors).toEqual([]);
    }), { numRuns: 100, seed: 4 });
    fc.assert(fc.property(invalidCredentialConfigArb(p), ({ doc, violation }) => {
      expect(validateCredentialProviderConfig(doc, p).errors.map((e) => e.clause)).toContain(violation!.clause);
    }), { numRuns: 200, seed: 5 });
  });
});
