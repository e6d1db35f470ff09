/**
 * The CLI tests spawn bin/svc-conformance.mjs, which runs dist/ (the CLI as shipped) when it is as new
 * as the sources. Built here when a source changed, so the oracle project never tests a stale build and
 * never falls back to tsx (whose notice on stderr would break the tests that read stderr line by line).
 */
import { ensureDist } from '../scripts/build.ts';

export default async function setup(): Promise<void> {
  await ensureDist();
}
