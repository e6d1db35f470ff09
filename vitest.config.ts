// Self-tests (`npm test`), in two projects:
// - `unit`: the model, the generators, the reports, the architecture rules and the pure parts of the
//   harness; no server, no process; `npm run test:unit` is the inner loop (under 30 s).
// - `oracle`: everything that starts a server or a process: targets, planted faults and variations,
//   real clients, the CLI, the harness against servers, and test/upstream/ (real upstream binaries,
//   which skip with a reason when the binaries are absent). A test file not listed under `unit` lands
//   here, so no test is ever left out of `npm test`.
// The conformance suites (suites/) are run by the CLI, not by this config.
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { COSTLIEST_FIRST } from './test/oracle/start-order.ts';

// Vitest's default is one worker fewer than the cores: on a 2-core machine one worker, so every file of
// both projects ran one after another on one core (the main process idles while workers run).
const CORES = availableParallelism();

// Where the unit project keeps its transformed modules between runs (experimental.fsModuleCache): each
// entry is keyed by the file's content, the config and vitest's version, so an edited file is transformed
// again. In the checkout, not in node_modules/ (vitest's default), which may be shared with other checkouts.
const MODULE_CACHE = fileURLToPath(new URL('./.vitest-cache/', import.meta.url));

const UNIT = [
  'test/architecture.test.ts',
  'test/architecture/sizes.test.ts',
  'test/reference/**/*.test.ts',
  'test/generators/**/*.test.ts',
  'test/reports/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/cli/recheck-history.test.ts',
  'test/cli/cpu-profile-summary.test.ts',
  'test/cli/build-carry.test.ts',
  'test/harness/guard.test.ts',
  'test/harness/guard-given-namespaces.test.ts',
  'test/runner/confirm-stopped-earlier.test.ts',
  'test/harness/selection.test.ts',
  'test/harness/did-you-mean.test.ts',
  'test/harness/json-stream.test.ts',
  'test/harness/transcript.test.ts',
  'test/harness/unsupported-by-model.test.ts',
  'test/runner/plan.test.ts',
  'test/runner/run-verdict.test.ts',
  'test/runner/confirm-bound.test.ts',
  'test/runner/not-reached.test.ts',
  'test/runner/capability-gate.test.ts',
  'test/runner/slots.test.ts',
  'test/harness/shrink-budget.test.ts',
  'test/harness/watch-decided.test.ts',
  'test/oracle/shares.test.ts',
  'test/oracle/once-per-run.test.ts',
  'test/oracle/judgments.test.ts',
];

// Oracle files that keep a process each: the costliest (test/oracle/start-order.ts: minutes each, so a
// fork's start is nothing beside them, and they run concurrently with their own servers), and the files
// that change process-wide state for good (envtest-launcher points TMPDIR at a folder it removes).
const ORACLE_OWN_PROCESS = [...COSTLIEST_FIRST, 'test/harness/envtest-launcher.test.ts'];

/** The oracle files of test/oracle/start-order.ts first, in its order; the rest as vitest orders them. */
class CostliestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = COSTLIEST_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId).replaceAll('\\', '/'));
      return i < 0 ? COSTLIEST_FIRST.length : i;
    };
    // The two oracle projects share a group (vitest runs a group's files in one pool): the listed files
    // first, then the shared-process ones together, so that a worker that ends one is handed the next.
    const group = (f: TestSpecification) => f.project.config.sequence.groupOrder;
    const shared = (f: TestSpecification) => (f.project.config.isolate === false ? 1 : 0);
    // Stable: within a group, the listed files first, the rest in the order vitest chose.
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (group(a.f) === group(b.f) ? rank(a.f) - rank(b.f) || shared(a.f) - shared(b.f) || a.i - b.i : a.i - b.i))
      .map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    pool: 'forks',
    sequence: { sequencer: CostliestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The oracle files run their cases concurrently (each waits on its own server's timers).
    maxConcurrency: 8,
    // The path only (it also holds the cache's metadata); the unit project turns the cache on.
    experimental: { fsModuleCachePath: MODULE_CACHE },
    projects: [
      // Pure tests share one module graph per worker (isolate: false): importing the model once per
      // worker instead of once per file is most of the project's wall time.
      // The unit files first (sequence.groupOrder), one worker per core (they are CPU-bound). Transforming
      // the TypeScript of the model and the tests cost about a fifth of the project's CPU on every run; the
      // module cache keeps it for the next run.
      {
        extends: true,
        test: { name: 'unit', include: UNIT, pool: 'threads', isolate: false, maxWorkers: CORES, sequence: { groupOrder: 0 }, experimental: { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE } },
      },
      // The oracle files three workers more than the cores: the longest files mostly wait (on spawned runs,
      // servers' timers and lingering deletions). With one worker per core the two cores were busy 1.2 of
      // 2 on average (fresh clone: 775 s wall, 911 CPU-s; one more worker: 512 s, 826 CPU-s). On
      // 2026-11-27, after the in-process runs had got cheaper, one more worker still left 150 core-seconds
      // idle (vmstat) in 463 s; two more left 39, in 422 s and 28 CPU-s more. On a faster machine (the same
      // tree at 0.6 of the CPU-seconds) the waits stay as long while the work shrinks: two more left 118-148
      // idle core-seconds in 288 s, mostly while three of the four workers held files that wait (the
      // hostile-target runs, the daemon faults, the variations' lingering deletions); three more left 69, in
      // 256 s, at the same CPU. Not more: some planted-fault cases need about half a core to finish in
      // their 300 s and to be caught (on a machine loaded by other jobs nine timed out and one fault was
      // missed). The costliest files are split into shares (test/oracle/shares.ts) so that they spread over
      // the workers, and start first (test/oracle/start-order.ts).
      {
        extends: true,
        test: {
          name: 'oracle',
          include: ORACLE_OWN_PROCESS,
          globalSetup: ['test/dist.global-setup.ts'],
          maxWorkers: CORES + 3,
          sequence: { groupOrder: 1 },
        },
      },
      // The other oracle files (about a hundred, most of a few seconds) share a process per worker, one
      // after another (isolate: false): a fork of its own started node and evaluated the harness, the
      // reference server and the check registry again for each, about half a CPU-second a file. Each
      // file closes the servers and processes it starts; one that changes process-wide state for good
      // belongs above. Same group and workers as above: vitest runs both in one pool.
      {
        extends: true,
        test: {
          name: 'oracle-shared',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...ORACLE_OWN_PROCESS, '**/node_modules/**'],
          globalSetup: ['test/dist.global-setup.ts'],
          isolate: false,
          maxWorkers: CORES + 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
