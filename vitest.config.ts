// Self-tests (`npm test`); the folder decides the project: test/unit/ (no server, no process; `npm run
// test:unit`) and test/oracle/ (servers, processes, the CLI, upstream binaries). The suites (suites/) are
// run by the CLI, not here. Why each setting: docs/performance.md, "The self-tests".
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { CostliestFirst, OWN_PROCESS } from './test/helpers/sequencer.ts';

// Vitest's default, one worker fewer than the cores, is one worker on two cores.
const CORES = availableParallelism();
// In the checkout, not in node_modules/ (vitest's default), which may be shared with other checkouts.
const MODULE_CACHE = fileURLToPath(new URL('./.vitest-cache/', import.meta.url));
// Oracle files mostly wait (spawned runs, servers' timers): three workers more than the cores, one pool.
const ORACLE = { globalSetup: ['test/dist.global-setup.ts'], maxWorkers: CORES + 3, sequence: { groupOrder: 1 } };
// Measuring only: CPU-seconds per test file (test/helpers/cpu-per-file.ts).
const SETUP = process.env.SVC_TEST_CPU_LOG ? ['test/helpers/cpu-per-file.ts'] : [];

export default defineConfig({
  test: {
    pool: 'forks',
    sequence: { sequencer: CostliestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxConcurrency: 8,
    setupFiles: SETUP,
    experimental: { fsModuleCachePath: MODULE_CACHE },
    projects: [
      // CPU-bound, one module graph per worker (isolate: false), transformed modules kept between runs.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
          maxWorkers: CORES,
          sequence: { groupOrder: 0 },
          experimental: { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE },
        },
      },
      { extends: true, test: { name: 'oracle', include: [...OWN_PROCESS], ...ORACLE } },
      // The rest share a process per worker, one file after another: each closes what it starts.
      {
        extends: true,
        test: { name: 'oracle-shared', include: ['test/oracle/**/*.test.ts'], exclude: [...OWN_PROCESS], isolate: false, ...ORACLE },
      },
    ],
  },
});
