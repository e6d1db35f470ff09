// Contract of the daemon flag generators: deterministic per seed, valid sets always accepted by the
// model, invalid sets always breaking their violation's clause (after the suite's own flags), and a
// failing case shrinking to the violation alone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { invalidFlagSet, renderInvalid, renderPicks, validFlagSet, violationKinds } from '../../../generators/daemon-flags.ts';
import { parseFlags } from '../../../reference/controller-daemon/index.ts';
import { clauseById } from '../../../reference/catalog/index.ts';

const suite = (profile: 'svc' | 'k8s') => [
  '--bind-address=127.0.0.1',
  '--secure-port=12345',
  `--${profile === 'svc' ? 'svcconfig' : 'kubeconfig'}=/k`,
];

describe('daemon flag generators', () => {
  it('same seed, same flag sets', () => {
    const a = fc.sample(validFlagSet('svc'), { seed: 42, numRuns: 5 });
    expect(fc.sample(validFlagSet('svc'), { seed: 42, numRuns: 5 })).toEqual(a);
  });

  it.each(['svc', 'k8s'] as const)('valid sets are accepted by the model (%s)', (profile) => {
    fc.assert(
      fc.property(validFlagSet(profile), (ps) => {
        // expect only on a break: it costs more than the comparison, once per run.
        const errors = parseFlags([...suite(profile), ...renderPicks(ps, profile)], profile).errors;
        if (errors.length > 0) expect(errors).toEqual([]);
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  it.each(violationKinds.map((v) => [v.name, v] as const))('invalid sets break their clause: %s', (_n, v) => {
    expect(clauseById(v.clause)).toBeDefined();
    fc.assert(
      fc.property(invalidFlagSet('k8s', v), (c) => {
        const clauses = parseFlags([...suite('k8s'), ...renderInvalid(c, 'k8s')], 'k8s').errors.map((e) => e.clause);
        if (!clauses.includes(v.clause)) expect(clauses).toContain(v.clause);
      }),
      { numRuns: 25, seed: 4 },
    );
  });

  it('a case failing whenever the violation is present shrinks to the violation alone', () => {
    const r = fc.check(
      fc.property(invalidFlagSet('svc', violationKinds[1]!), () => false),
      { seed: 9, numRuns: 5 },
    );
    expect((r.counterexample?.[0] as { base: unknown[] } | undefined)?.base).toEqual([]);
  });
});
