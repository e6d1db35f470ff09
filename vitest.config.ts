// Self-tests (`npm test`): the model, the generators, the harness, the reports, and the oracle's
// strength against faulty reference servers. The conformance suites (suites/) are run by the CLI.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The oracle files run their cases concurrently (each waits on its own server's timers).
    maxConcurrency: 8,
  },
});
