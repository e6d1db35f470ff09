/**
 * The order and the processes of the oracle files (vitest.config.ts). Measurements behind both:
 * docs/performance.md, "The self-tests".
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { COSTLIEST_FIRST } from './start-order.ts';

/**
 * The one oracle file that keeps a process of its own: it changes process-wide state for good (the
 * envtest launcher points TMPDIR at a folder it removes). Every other oracle file shares a process per
 * worker, the costliest too: a fork of their own started node and evaluated the harness, the reference
 * server and the check registry again for each (about 0.9 CPU-s a file), and a second project
 * transformed the same modules again in vitest's own process.
 */
export const OWN_PROCESS: readonly string[] = ['test/oracle/harness/envtest-launcher.test.ts'];

/** The files of start-order.ts first, in its order; the rest as vitest orders them. */
export class CostliestFirst extends BaseSequencer {
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
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (group(a.f) === group(b.f) ? rank(a.f) - rank(b.f) || shared(a.f) - shared(b.f) || a.i - b.i : a.i - b.i))
      .map(({ f }) => f);
  }
}
