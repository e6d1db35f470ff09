// Generator contracts (docs/architecture.md "Generation apart from execution") for node-agent files: deterministic per seed; valid files
// always accepted by the model with nothing open; invalid files always break the rule they name; the
// YAML written reads back as the same document; shrinking removes fields.
// One test file per profile (nodeagent-<profile>.test.ts) and one for the credential-provider
// generators, so they spread over the unit workers.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import { profiles } from '../../../reference/profile.ts';
import { everyFieldConfigArb, invalidConfigArb, toYaml, validConfigArb, violations, type Doc } from '../../../generators/nodeagent.ts';
import { openConfigArb } from '../../../generators/nodeagent-open.ts';
import { configFields, nameIn } from '../../../reference/nodeagent/config-fields.ts';
import { validateNodeagentConfig } from '../../../reference/nodeagent/config.ts';
import { crossRules } from '../../../reference/nodeagent/config-rules.ts';

// The properties below run hundreds of times: they compare plainly and call expect (which costs far
// more than the comparison) only when a comparison breaks, so a failure still shows expect's diff.

/** No errors and nothing open. */
function expectClean(r: { readonly errors: readonly unknown[]; readonly unspecified: readonly unknown[] }): void {
  if (r.errors.length > 0 || r.unspecified.length > 0)
    expect({ errors: r.errors, unspecified: r.unspecified }).toEqual({ errors: [], unspecified: [] });
}

/** The YAML written for `doc` reads back (as YAML 1.1, Go's reader) as `doc`. */
function expectYamlRoundTrip(doc: Doc): void {
  const back: unknown = parse(toYaml(doc), { version: '1.1' });
  // Strictly equal implies equal for toEqual; anything else is left to toEqual's own judgement.
  if (!isDeepStrictEqual(back, doc)) expect(back).toEqual(doc);
}

/** The generator contracts of one profile's node-agent config files. */
export function nodeagentGeneratorContracts(name: 'svc' | 'k8s'): void {
  describe(`node-agent config generators (${name})`, () => {
    const p = profiles[name];

    it('are deterministic for a seed', () => {
      expect(fc.sample(invalidConfigArb(p), { seed: 9, numRuns: 5 })).toEqual(fc.sample(invalidConfigArb(p), { seed: 9, numRuns: 5 }));
    });

    it('valid files: accepted with nothing open, and the YAML reads back the same', () => {
      fc.assert(
        fc.property(validConfigArb(p), ({ doc }) => {
          expectClean(validateNodeagentConfig(doc, p));
          expectYamlRoundTrip(doc);
        }),
        { numRuns: 150, seed: 1 },
      );
    });

    it('every-field files: valid, and each sets nearly every field that has samples (the rest a cross-field rule keeps out)', () => {
      const withSamples = configFields.filter((f) => f.samples(p).length > 0).map((f) => nameIn(f, p));
      const seen = new Set<string>();
      fc.assert(
        fc.property(everyFieldConfigArb(p), ({ doc }) => {
          expectClean(validateNodeagentConfig(doc, p));
          const missing = withSamples.filter((n) => !(n in doc));
          // A handful at most: a rule between two drawn values keeps one of them out of this file.
          if (missing.length > 6) expect(missing.length, missing.join(', ')).toBeLessThanOrEqual(6);
          for (const n of withSamples) if (n in doc) seen.add(n);
        }),
        { numRuns: 30, seed: 2 },
      );
      expect(withSamples.filter((n) => !seen.has(n))).toEqual([]);
    });

    it('invalid files: rejected under the clause of the planted violation', () => {
      fc.assert(
        fc.property(invalidConfigArb(p), ({ doc, violation }) => {
          const clauses = validateNodeagentConfig(doc, p).errors.map((e) => e.clause);
          if (!clauses.includes(violation!.clause)) expect(clauses).toContain(violation!.clause);
          expectYamlRoundTrip(doc);
        }),
        { numRuns: 150, seed: 2 },
      );
    });

    it('open files: no error, something unspecified', () => {
      fc.assert(
        fc.property(openConfigArb(p), ({ doc }) => {
          const r = validateNodeagentConfig(doc, p);
          if (r.errors.length > 0) expect(r.errors).toEqual([]);
          if (r.unspecified.length === 0) expect(r.unspecified.length).toBeGreaterThan(0);
        }),
        { numRuns: 150, seed: 6 },
      );
    });

    it('plant every cross-field rule that can be broken, every range edge and the document rules', () => {
      const v = violations(p);
      const clauses = new Set(
        v.map(
          (x) =>
            validateNodeagentConfig(
              { apiVersion: `${p.nodeagentGroup}/v1beta1`, kind: p.nodeagentConfigurationKind, reservedSystemCPUs: '', ...x.overlay },
              p,
            ).errors[0]?.clause,
        ),
      );
      for (const r of crossRules.filter((x) => x.breaks.length > 0)) expect(clauses).toContain(r.clause);
      for (const c of [
        'node:2.2/kind',
        'node:2.2/port',
        'node:2.2/oomScoreAdj',
        'node:2.2/memorySwap',
        'node:2.4/LoggingConfiguration.verbosity',
      ])
        expect(clauses).toContain(c);
      expect(v.filter((x) => x.category === 'rule').length).toBeGreaterThan(30);
    });

    it('shrinking a failing valid file leaves only the field that fails', () => {
      const out = fc.check(
        fc.property(validConfigArb(p), ({ doc }) => !('maxPods' in doc)),
        { seed: 3, numRuns: 500 },
      );
      expect(out.failed).toBe(true);
      // At most one more field: a cross-field combination (podsPerCore with maxPods) shrinks as a whole.
      const keys = Object.keys(out.counterexample![0].doc);
      expect(keys).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'maxPods', 'reservedSystemCPUs']));
      expect(keys.length).toBeLessThanOrEqual(5);
    });
  });
}
