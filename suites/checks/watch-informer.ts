/**
 * The informer property (rest:6.1.1, rest:6.1.2 "or the client can list again"): list at r0, watch
 * from r0 while writes go on (some between the list and the watch, some during it), then list at
 * r1: the first list with every event replayed onto it equals the second list, objects and
 * resourceVersions. Judged by reference/watch-recovery.ts (judgeInformer) and the watch oracle.
 */
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { showOp, writeOpArb, type WriteOp } from '../../generators/ops.ts';
import { namespaceOf, resourceOf, runWrite } from '../../harness/interpreters/index.ts';
import { relistAndWatch } from './watch-resume.ts';
import { setupArb } from '../../generators/rv-cells.ts';

type InformerInput = { setup: WriteOp[]; between: WriteOp[]; during: WriteOp[] };

const writesArb = (max: number) => fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { maxLength: max });

export const watchInformer: Check<InformerInput> = {
  id: 'watch-informer',
  suite: 'rest-watch',
  title: 'list at r0 + watch events from r0, replayed, equal the list at r1',
  clauses: ['rest:6.1.1', 'rest:4.5/watch/other'],
  defaultRuns: 8,
  arbitrary: () => fc.record({ setup: setupArb, between: writesArb(3), during: writesArb(6) }),
  describe: (i) => [
    ...i.setup.map(showOp),
    'list configmaps ns0 (r0)',
    ...i.between.map((w) => `  before the watch: ${showOp(w)}`),
    'watch configmaps ns0 from r0',
    ...i.during.map((w) => `  while watching: ${showOp(w)}`),
    'list configmaps ns0 (r1); replay r0 + events',
  ],
  run: async (i, cx) => {
    for (const w of i.setup) await runWrite(cx, w);
    await relistAndWatch(
      cx,
      resourceOf(cx, 'configmaps'),
      await namespaceOf(cx, 0),
      { between: i.between, during: i.during },
      'rest:6.1.1',
    );
  },
};
