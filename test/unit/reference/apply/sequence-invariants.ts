// Properties of the apply model over generated multi-manager sequences (the generators of the
// suites, with the rest:4.7.8 list included): invariants upstream's algebra keeps. A model that broke
// one would make the suite's verdicts meaningless, whatever the tables say. One test file per
// resource (properties-<resource>.test.ts), so the two long properties run on two workers.
import fc from 'fast-check';
import { expect } from 'vitest';
import { sequenceArb, type ApplyStep } from '../../../../generators/apply.ts';
import {
  apply,
  configMapSchema,
  decodeManagedFields,
  encodeManagedFields,
  fixtureResource,
  fixtureSchema,
  trackedPart,
  valueAt,
  type ManagedEntry,
  type Schema,
} from '../../../../reference/apply/index.ts';
import { profiles } from '../../../../reference/profile.ts';
import { resourceTypes } from '../../../../reference/resources.ts';
import { planStep, type SeqState } from '../../../../harness/interpreters/apply-run.ts';

const profile = profiles.svc;
const NOW = '2026-01-01T00:00:00Z';

function start(resource: 'configmaps' | 'applyfixtures'): SeqState {
  const rt = resource === 'configmaps' ? resourceTypes(profile).configmaps : fixtureResource(profile);
  const schema: Schema = resource === 'configmaps' ? configMapSchema : fixtureSchema(profile);
  return {
    rt,
    schema,
    ns: 'ns',
    name: 'obj',
    live: { apiVersion: 'v1', kind: rt.kind, metadata: { name: 'obj', namespace: 'ns' } },
    managed: [],
  };
}

// The checks of every step are plain comparisons that call expect only when one breaks: a vitest
// expect() costs far more than the comparison, and these run for every owned field of every step
// (thousands per resource).
function invariants(st: SeqState): void {
  const t = trackedPart(st.live);
  for (const e of st.managed) {
    if (e.fields.isEmpty()) expect.fail(`${e.manager} has an empty entry`);
    for (const p of e.fields.paths())
      if (valueAt(t, p, st.schema) === undefined) expect.fail(`${e.manager} owns ${p.join(' ')} which is absent`);
  }
  const back = decodeManagedFields(JSON.parse(JSON.stringify(encodeManagedFields(st.managed))));
  if (!Array.isArray(back)) expect.fail(`the managed fields do not decode: ${JSON.stringify(back)}`);
  (back as ManagedEntry[]).forEach((e, i) => {
    if (!e.fields.equals(st.managed[i]!.fields)) expect.fail(`entry ${i} (${st.managed[i]!.manager}) does not round-trip`);
  });
}

function step(st: SeqState, s: ApplyStep): SeqState {
  const { outcome } = planStep(st, s, NOW);
  // Force never conflicts; an intent with duplicate set entries or map keys is refused (rest:4.7.7).
  if (s.op === 'apply' && s.force && outcome.kind === 'conflict') expect(outcome.kind).not.toBe('conflict');
  if (outcome.kind !== 'written') return st;
  const next = { ...st, live: outcome.object, managed: outcome.managed };
  invariants(next);
  if (s.op === 'apply') {
    // Applying the same intent again changes nothing (upstream: a no-op apply).
    const again = apply({
      live: next.live,
      managed: next.managed,
      intent: { apiVersion: 'v1', kind: st.rt.kind, metadata: { name: 'obj' }, ...s.content },
      manager: s.manager,
      force: false,
      schema: st.schema,
      apiVersion: 'v1',
      now: NOW,
    });
    if (again.kind !== 'written') expect(again.kind).toBe('written');
    else {
      if (again.changed !== false) expect(again.changed).toBe(false);
      const show = (m: readonly ManagedEntry[]) => m.map((e) => `${e.manager}/${e.operation}:${e.fields.paths().join('|')}`);
      const [after, before] = [show(again.managed), show(next.managed)];
      if (after.length !== before.length || after.some((x, i) => x !== before[i])) expect(after).toEqual(before);
    }
  }
  return next;
}

/** Every generated sequence of `resource` keeps the invariants above at every written step. */
export function assertSequenceInvariants(resource: 'configmaps' | 'applyfixtures'): void {
  fc.assert(
    fc.property(sequenceArb(resource, { maxLength: 10 }), (seq) => {
      let st = start(resource);
      for (const s of seq.steps) st = step(st, s);
    }),
    { numRuns: 150, seed: 4242 },
  );
}
