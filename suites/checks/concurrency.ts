/**
 * Many clients at once: writers and watchers run together; the recorded history is judged
 * by reference/concurrency (linearizability per object, the watch guarantees across watchers, lists
 * against watches). A failing history is saved (histories/) and judged again by `recheck-history`.
 */
import { judgeConcurrentHistory, watchWaitOf, type Check } from '../../harness/case/index.ts';
import { digestedHistory, runConcurrentWorkload } from '../../harness/interpreters/index.ts';
import { defaultWorkloadSize, showPlannedOp, workloadPlanArb, type WorkloadPlan } from '../../generators/concurrency.ts';

/** The envs (runs of the check) whose slow reader already had its backlog. */
const backlogGiven = new WeakSet<object>();

export const concurrentWorkload: Check<WorkloadPlan> = {
  id: 'concurrent-workload',
  suite: 'rest-concurrency',
  title: 'concurrent writers and watchers: linearizable objects, watch guarantees, lists agree with watches',
  clauses: [
    'rest:4.5/meaning/most-recent',
    'rest:2.2.2',
    'rest:6.1.1',
    'rest:6.1.2',
    'rest:6.1/BOOKMARK',
    'rest:2.3/metadata.resourceVersion',
  ],
  // Each case is a second or two of traffic (the first also a few megabytes for the slow reader): two per run.
  defaultRuns: 2,
  // A workload is not deterministic: re-running it to shrink would judge other histories. The
  // judgement names the sub-history that fails instead, and the whole history is saved.
  shrink: false,
  arbitrary: (env) => workloadPlanArb({ ...defaultWorkloadSize, ...env.settings.workload }),
  describe: (plan) => [
    `${plan.writers.length} writers at once (paced up to ${plan.paceMs} ms), 5 watchers (ns0 state, all from 0, ns1 exact, ns0 slow reader, ns0 dropped and resumed); the first case of a run: a 6 MiB backlog for the slow reader alone`,
    ...plan.writers.map((ops, i) => `writer ${i}: ${ops.map(showPlannedOp).join('; ')}`),
  ],
  run: async (plan, cx) => {
    // The slow reader's backlog (6 MiB, past loopback and client buffers) is what most of a run's bytes
    // were; one case of a run of the check backs it up, the others judge the rest of the workload.
    const backlog = backlogGiven.has(cx.env) ? undefined : { objects: 48, bytes: 128 * 1024 };
    backlogGiven.add(cx.env);
    const history = await runConcurrentWorkload(cx, plan, {
      padBytes: 256,
      catchUpMs: Math.max(2_000, watchWaitOf(cx.env) * 2),
      resumeAfter: 6,
      backlog,
    });
    // Judged as the record keeps it (long values by digest); the whole history is what a failure saves.
    cx.judge(judgeConcurrentHistory(digestedHistory(history)).judgements, history);
  },
};
