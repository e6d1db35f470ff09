/**
 * Oracle files that start first, in this order. Vitest orders a file it has no timings for by its size,
 * so the variation and fault shares, a few lines each that run the reference server dozens of times,
 * started last and ran alone on both cores for minutes after everything else had ended. Here the
 * CPU-bound shares alternate with files that mostly wait (on spawned runs, servers' timers and
 * windows), so that the two workers each get one of a kind and the waits are filled. Figures of
 * 2026-11-26 on two cores (CPU-s / wall s, the cases of a file run at once): variation shares 27-58 /
 * 85-298 each; hostile-targets 70 / 210 (its CLI runs); stable-coverage 56 / 94; reproducer-decisions
 * 48 / 57; nodeagent-faults 30 / 56; faults 28-29 / 97-111; daemon-faults 8 / 105; concurrency 16 / 53.
 * Figures of 2026-11-27 under a load of 10-20 (other jobs), CPU-s: variation shares 78, 63, 63, 37;
 * stable-coverage 63; hostile-targets 50; reproducer-decisions 46; concurrency 36; faults 25 and 34;
 * kubectl-workflows 29; reproducers 24; nodeagent-faults 23; html-report-browser 20.
 * Like every oracle file but the envtest launcher (sequencer.ts), they share a process per worker.
 */
export const COSTLIEST_FIRST: readonly string[] = [
  'test/oracle/variations-1-of-4.test.ts',
  // Not a second share here: it would wait for the reference run the first share makes (once-per-run.ts).
  'test/oracle/stable-coverage.test.ts',
  'test/oracle/variations-2-of-4.test.ts',
  'test/oracle/cli/hostile-targets.test.ts',
  'test/oracle/nodeagent-faults.test.ts',
  // Not in the first wave, when every worker imports the harness at once: its six default runs must
  // each end within 90 s (30 s budget, up to 30 s waiting for never-deleted objects, reports).
  'test/oracle/cli/hostile-default-runs.test.ts',
  'test/oracle/variations-3-of-4.test.ts',
  'test/oracle/reproducer-decisions.test.ts',
  'test/oracle/cli/hostile-watch-report.test.ts',
  // About 60 s with its process blocked on purpose and next to no CPU: a filler beside the CPU-bound
  // shares; among the shared-process files it started last and ran alone for its minute.
  'test/oracle/stalled-reach.test.ts',
  'test/oracle/variations-4-of-4.test.ts',
  'test/oracle/faults-1-of-2.test.ts',
  'test/oracle/reproducers.test.ts',
  'test/oracle/faults-2-of-2.test.ts',
  // The per-field and per-row faults (fault-coverage.md): about a hundred short runs each.
  'test/oracle/nodeagent-field-faults.test.ts',
  'test/oracle/clause-faults.test.ts',
  'test/oracle/daemon-faults.test.ts',
  'test/oracle/concurrency.test.ts',
  // Then the longest of the rest, longest first, so that no file of half a minute starts last and runs alone.
  'test/oracle/clients/kubectl-workflows.test.ts',
  'test/oracle/cli/compare.test.ts',
  'test/oracle/html-report-browser.test.ts',
  'test/oracle/clients/client-node.test.ts',
  'test/oracle/runner/same-seed.test.ts',
  'test/oracle/harness/envtest-topologies.test.ts',
  'test/oracle/cli/package.test.ts',
  // Its install case waits on npm for most of a minute, as package.test.ts does.
  'test/oracle/cli/action.test.ts',
  'test/oracle/harness/repeatable-5xx.test.ts',
  'test/oracle/cli/bad-input.test.ts',
  'test/oracle/harness/controller-daemon.test.ts',
];
