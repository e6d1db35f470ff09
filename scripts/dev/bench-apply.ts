/**
 * Apply figures for `npm run bench`: pure model steps per second (apply, update, merge and JSON
 * patch over the fixture schema) and checked applies per second against the embedded reference
 * server (request, model, judge, transcript). Figures only: nothing asserts on time.
 */
import { benchSession } from './bench-target.ts';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { sequenceArb } from '../../generators/apply.ts';
import { fixtureResource, fixtureSchema, type Schema } from '../../reference/apply/index.ts';
import { profiles } from '../../reference/profile.ts';
import { planStep, runStep, startObject, type SeqState } from '../../harness/interpreters/index.ts';
import { ensureFixture } from '../../harness/interpreters/index.ts';
import { CaseContext } from '../../harness/case/index.ts';
import { releaseCaseNamespaces } from '../../harness/case/index.ts';
import { Tally } from '../../harness/case/index.ts';

const profile = profiles.svc;

export function modelSteps(cases: number): { steps: number; ms: number } {
  const schema: Schema = fixtureSchema(profile);
  const rt = fixtureResource(profile);
  const inputs = fc.sample(sequenceArb('applyfixtures', { maxLength: 10 }), { seed: 11, numRuns: cases });
  let steps = 0;
  const t0 = performance.now();
  for (const seq of inputs) {
    let st: SeqState = {
      rt,
      schema,
      ns: 'ns',
      name: 'obj',
      live: { apiVersion: 'v1', kind: rt.kind, metadata: { name: 'obj' } },
      managed: [],
    };
    for (const s of seq.steps) {
      const { outcome } = planStep(st, s, '2026-01-01T00:00:00Z');
      if (outcome.kind === 'written') st = { ...st, live: outcome.object, managed: outcome.managed };
      steps++;
    }
  }
  return { steps, ms: performance.now() - t0 };
}

export async function checkedApplies(cases: number): Promise<{ applies: number; requests: number; ms: number }> {
  const opened = await benchSession({ runId: 'bench' });
  const inputs = fc.sample(sequenceArb('applyfixtures', { maxLength: 10 }), { seed: 11, numRuns: cases });
  const tally = new Tally();
  let applies = 0;
  const t0 = performance.now();
  for (const [i, seq] of inputs.entries()) {
    const cx = new CaseContext(opened.env, tally, i);
    const fixture = await ensureFixture(cx, []);
    if (!fixture) throw new Error('the reference server refused the apply fixture definition');
    let st = await startObject(cx, fixture.rt, fixture.schema, `obj-${i}`, []);
    for (const s of seq.steps) {
      st = await runStep(cx, st, s);
      if (s.op === 'apply') applies++;
    }
    await releaseCaseNamespaces(cx);
  }
  const ms = performance.now() - t0;
  const requests = opened.env.transcript.all().length;
  await opened.close();
  return { applies, requests, ms };
}

export async function applyBenchLines(cases: number): Promise<string[]> {
  modelSteps(20);
  const m = modelSteps(cases);
  const c = await checkedApplies(Math.max(1, Math.floor(cases / 4)));
  const fmt = (x: number) => x.toFixed(0).padStart(8);
  return [
    `apply model: ${m.steps} steps (apply/update/merge/JSON patch, fixture schema) ${fmt(m.ms)} ms  ${fmt((m.steps / m.ms) * 1000)} model steps/s`,
    `checked apply sequences: ${c.applies} applies in ${c.requests} requests ${fmt(c.ms)} ms  ${fmt((c.applies / c.ms) * 1000)} checked applies/s`,
  ];
}
