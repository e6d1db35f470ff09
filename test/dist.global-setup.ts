/**
 * The CLI tests spawn bin/svc-conformance.mjs, which runs dist/ (the CLI as shipped) when it is as new
 * as the sources. Built here when a source changed, so the oracle project never tests a stale build and
 * never falls back to tsx (whose notice on stderr would break the tests that read stderr line by line).
 *
 * Also a scratch folder for this one vitest run (`inject('oracleScratch')`), removed when it ends: what
 * one oracle file learned that others of the same run may reuse (variation-cases.ts: which checks reach
 * which legal variation), never carried over to a later run of other sources.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureDist } from '../scripts/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    oracleScratch: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  await ensureDist();
  const scratch = mkdtempSync(join(tmpdir(), 'svc-oracle-'));
  project.provide('oracleScratch', scratch);
  return () => {
    rmSync(scratch, { recursive: true, force: true });
    // Measuring only (test/helpers/cpu-per-file.ts): vitest's own process, which transforms the modules
    // every worker imports, is in no file's figure.
    const log = process.env.SVC_TEST_CPU_LOG;
    if (log) {
      const u = process.cpuUsage();
      appendFileSync(log, JSON.stringify({ file: '(vitest main process)', cpu: (u.user + u.system) / 1e6 }) + '\n');
    }
  };
}
