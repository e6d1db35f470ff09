/**
 * rest:6.1.5: a watch from a resourceVersion the target has not issued yet may wait until it times
 * out (or be refused with 504); writes made while it waits are older than that version and must not
 * be delivered (rest:6.1.1). Needs decimal resourceVersions to name a future one; otherwise not checked.
 */
import { judgeFutureWatchIn, judgeScope } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { showOp, writeOpArb, type WriteOp } from '../../generators/ops.ts';
import { namespaceOf, resourceOf, runWrite } from '../../harness/interpreters/index.ts';
import { openWatch } from '../../harness/interpreters/index.ts';
import { scopedObjects } from '../../reference/scope.ts';
import { requireFutureResourceVersion } from '../../reference/error-rules.ts';
import { collectionPath } from '../../reference/resources.ts';

import { setupArb } from '../../generators/rv-cells.ts';

type FutureInput = { setup: WriteOp[]; during: WriteOp[] };

/** How long the suite watches for events that must not come (the target may wait far longer). */
const QUIET_MS = 300;

export const watchFutureVersion: Check<FutureInput> = {
  id: 'watch-future-version',
  suite: 'rest-watch',
  title: 'a watch from a version not reached yet waits (or is refused); it never starts from now',
  clauses: ['rest:6.1.5'],
  defaultRuns: 2,
  arbitrary: () =>
    fc.record({
      setup: setupArb.map((s) => s.slice(0, 2)),
      during: fc.array(writeOpArb({ resources: ['configmaps'], namespaces: 1 }), { minLength: 1, maxLength: 3 }),
    }),
  describe: (i) => [
    ...i.setup.map(showOp),
    'watch configmaps ns0 from a resourceVersion far beyond any seen',
    ...i.during.map((w) => `  while watching: ${showOp(w)}`),
  ],
  run: async (i, cx) => {
    for (const w of i.setup) await runWrite(cx, w);
    const future = requireFutureResourceVersion('rest:6.1.5', cx.rvsSeen);
    const rt = resourceOf(cx, 'configmaps');
    const ns = await namespaceOf(cx, 0);
    const session = await openWatch(cx, rt, collectionPath(rt, ns), [
      ['resourceVersion', future],
      ['timeoutSeconds', '5'],
    ]);
    try {
      for (const w of i.during) await runWrite(cx, w);
      await session.until(() => false, QUIET_MS);
    } finally {
      await session.close();
    }
    const h = cx.history('configmaps');
    cx.judge(judgeScope({ namespace: ns }, scopedObjects(session.events), 'watch'));
    cx.judge(judgeFutureWatchIn(session.status, session.events, { everKeys: h.everKeys, tainted: h.tainted }));
  },
};
