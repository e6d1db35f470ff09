// Calls runCheck itself: it tests how run-check maps a planted check's exceptions, with no target and no run around it.
// The model's scope is explicit (docs/architecture.md "Oracle rules"): a case the model refuses with UnsupportedByModel
// is reported as notChecked with the model's reason, never as a pass, a failure or an error, and the
// other cases of the check still judge.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../../runner/run-check.ts';
import { defaultTargetSettings } from '../../../runner/env.ts';
import { Transcript } from '../../../harness/transport/transcript.ts';
import type { Check, CheckEnv } from '../../../harness/case/index.ts';
import { profiles } from '../../../reference/profile.ts';
import { pass, UnsupportedByModel } from '../../../reference/judgement.ts';
import { requireFutureResourceVersion } from '../../../reference/error-rules.ts';

const env: CheckEnv = {
  target: { server: 'none', send: () => Promise.reject(new Error('no requests in this test')), close: () => Promise.resolve() },
  transcript: new Transcript(),
  profile: profiles.svc,
  runId: 'unsupported',
  settings: defaultTargetSettings,
  now: () => 0,
  sleep: () => Promise.resolve(),
  nextNamespace: () => 'unused',
};

/** Judges rest:6.1.5 from a list of "observed" resourceVersions, as watch-future does. */
const futureCheck: Check<string[]> = {
  id: 'planted-future',
  suite: 'self-test',
  title: 'a check whose model refuses opaque resourceVersions',
  clauses: ['rest:6.1.5'],
  arbitrary: () => fc.constantFrom(['5', '7'], ['opaque-a', '9']),
  describe: (rvs) => [`rvs ${rvs.join(', ')}`],
  run: async (rvs, cx) => {
    const future = requireFutureResourceVersion('rest:6.1.5', rvs);
    cx.judge([pass('rest:6.1.5', 'a version beyond those seen', future)]);
  },
};

describe('UnsupportedByModel', () => {
  it("is notChecked with the model's reason when no case is in the model's scope", async () => {
    const records = await runCheck({ ...futureCheck, arbitrary: () => fc.constant(['opaque-a']) }, env, { seed: 1, runs: 5 });
    expect(records).toEqual([
      {
        clause: 'rest:6.1.5',
        check: 'planted-future',
        verdict: 'notChecked',
        count: 0,
        note: expect.stringMatching(/not all decimal integers/),
      },
    ]);
  });

  it('leaves the other cases to judge: a pass where the model covers the case, no failure, no error', async () => {
    const records = await runCheck(futureCheck, env, { seed: 1, runs: 20 });
    expect(records.map((r) => r.verdict).sort()).toEqual(['notChecked', 'pass']);
  });

  it('other exceptions stay errors of ours, not notChecked', async () => {
    const broken: Check<number> = {
      ...futureCheck,
      arbitrary: () => fc.nat(),
      run: () => Promise.reject(new Error('boom')),
    } as unknown as Check<number>;
    const records = await runCheck(broken, env, { seed: 1, runs: 3 });
    expect(records.map((r) => r.verdict)).toEqual(['error']);
    expect(new UnsupportedByModel('rest:6.1.5', 'x').clause).toBe('rest:6.1.5');
  });
});
